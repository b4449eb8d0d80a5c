// Verbatim release text (Complexity_Ceiling_Benchmark @57a1a36, reproduced in docs/spec/ccb.md Appendix A).
// Whitespace is significant: runs of spaces align the colons exactly as the release sends them.

export const D3_RULES = `PEOPLE: A, B, C, D, E, F, G, H, I, J  (10 people; initially all Neutral to each other)

RELATIONSHIP TYPES:
  - FRIENDS (F): two people are in the same faction.
  - RIVALS  (R): two people are in opposing factions.
  - NEUTRAL    : two people have no known relationship. Do NOT list Neutral pairs.

RULES OF INFERENCE (apply after every new event, recursively):
  Rule 1: Friend of a Friend = Friend  (F of F = F)
  Rule 2: Rival  of a Rival  = Friend  (R of R = F)
  Rule 3: Friend of a Rival  = Rival   (F of R = R)
  Rule 4: Rival  of a Friend = Rival   (R of F = R)

EXECUTION RULES:
  - Events are applied sequentially. Each event uses the relationship state
    produced by the previous step.
  - After each event, you MUST apply the inference rules to ALL existing
    members of BOTH involved components and list every implied pair explicitly.
  - Two people who are not yet transitively connected remain Neutral and
    must NOT appear in the output.

WORKED EXAMPLE:
  Initial state: all Neutral.
  Event 1: A and B form an ALLIANCE.
    State: [AB:F]
  Event 2: B and C form a RIVALRY.
    State: [AB:F, AC:R, BC:R]
  Event 3: D and E form an ALLIANCE.
    State: [AB:F, AC:R, BC:R, DE:F]`;

export const D3_OUTPUT_FORMAT = `Output ONLY the following format. Do NOT use markdown code blocks. Do NOT add commentary.
1. TRACE: ["Step 1: [AB:F, AC:R, ...]", "Step 2: [...]", ...]
2. ANSWER: [AB:F, AC:R, ...]

CRITICAL RULES:
  - Use compact pair notation sorted alphabetically: 'AB:F' (Friends) or 'AB:R' (Rivals).
  - Every step MUST list ALL currently known non-Neutral pairs, not just new ones.
  - Do NOT use ellipses. Output the full relationship list at every single step.
  - Step 1 in TRACE = state AFTER applying the first event.`;
