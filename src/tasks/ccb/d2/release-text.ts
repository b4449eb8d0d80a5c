// Verbatim release text (Complexity_Ceiling_Benchmark @57a1a36, reproduced in docs/spec/ccb.md Appendix A).
// Whitespace is significant: runs of spaces align the colons exactly as the release sends them.

export const D2_OPERATIONS = `REGISTER CONVENTION:
- There are 7 variables: A, B, C, D, E, F, G.
- Initial state: [A=1, B=2, C=3, D=4, E=5, F=6, G=7].
- All arithmetic is modulo 10. Results are always in the range 0–9.
- "modulo 10" means: take the result, divide by 10, keep only the remainder.
  Examples: 12 mod 10 = 2.  -4 mod 10 = 6 (add 10 until non-negative).

OPERATIONS:
- SHIFT_RIGHT        : Cyclic shift right. Each variable takes the value of its
                       left neighbour; A takes G's value.
                       New order: A=old_G, B=old_A, C=old_B, D=old_C,
                                  E=old_D, F=old_E, G=old_F.
- SHIFT_LEFT         : Cyclic shift left. Each variable takes the value of its
                       right neighbour; G takes A's value.
                       New order: A=old_B, B=old_C, C=old_D, D=old_E,
                                  E=old_F, F=old_G, G=old_A.
- SWAP_A_G           : Exchange the values of A and G simultaneously.
                       A takes old_G, G takes old_A. All other variables unchanged.
- SET_D_TO_A_PLUS_B  : D becomes (A + B) mod 10. All other variables unchanged.
- SET_C_TO_G_MINUS_E : C becomes (G - E) mod 10. If G - E is negative, add 10.
                       All other variables unchanged.

EXECUTION RULES:
- Operations are applied sequentially. Each operation uses the register state
  produced by the previous step, not the original state.
- Within a single operation, all output values are computed from the state that
  existed before the operation began.

WORKED EXAMPLES (all use starting state [A=1, B=2, C=3, D=4, E=5, F=6, G=7]):

SHIFT_RIGHT:
  State before : [A=1, B=2, C=3, D=4, E=5, F=6, G=7]
  State after  : [A=7, B=1, C=2, D=3, E=4, F=5, G=6]

SHIFT_LEFT:
  State before : [A=1, B=2, C=3, D=4, E=5, F=6, G=7]
  State after  : [A=2, B=3, C=4, D=5, E=6, F=7, G=1]

SWAP_A_G:
  State before : [A=1, B=2, C=3, D=4, E=5, F=6, G=7]
  State after  : [A=7, B=2, C=3, D=4, E=5, F=6, G=1]

SET_D_TO_A_PLUS_B:
  State before : [A=1, B=2, C=3, D=4, E=5, F=6, G=7]
  D = (1 + 2) mod 10 = 3. State after: [A=1, B=2, C=3, D=3, E=5, F=6, G=7]

SET_C_TO_G_MINUS_E:
  State before : [A=1, B=2, C=3, D=4, E=5, F=6, G=7]
  C = (7 - 5) mod 10 = 2. State after: [A=1, B=2, C=2, D=4, E=5, F=6, G=7]
  Edge case    : If G=2, E=6: C = (2-6) mod 10 = 6.`;

export const D2_OUTPUT_FORMAT = `Output ONLY the following format. Do NOT use markdown code blocks. Do NOT add commentary.
1. TRACE: ["Step 1: [A=..., B=..., C=..., D=..., E=..., F=..., G=...]", "Step 2: [...]", ...]
2. ANSWER: [A=..., B=..., C=..., D=..., E=..., F=..., G=...]

CRITICAL RULES:
- Step 1 in TRACE = state AFTER applying the first operation.
- Do NOT include the initial state in TRACE.
- Output ALL 7 variables at every single step. No ellipses.`;
