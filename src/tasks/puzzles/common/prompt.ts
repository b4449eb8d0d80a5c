/** System prompt shared by every puzzle: zero-shot, reasoning allowed, only the final block is graded. */
export const PUZZLE_SYSTEM_PROMPT =
  'You are solving a logic puzzle. You may reason step by step before answering. ' +
  'End your response with the final answer in exactly the format the user specifies; only the last answer ' +
  'block in your response is graded, by a strict program that accepts no other format.';

/**
 * The "Output format" section of a prompt that asks for one final line `name = <JSON>`: `example` is the value
 * shown after `name = `, `shape` describes what the value must be (it ends the sentence before "Only the last").
 */
export const finalLineFormat = (name: string, example: string, shape: string): string[] => [
  'Output format:',
  'You may reason step by step first. End your response with one final line of the form',
  `${name} = ${example}`,
  `${shape}. Only the last \`${name} =\` line is graded.`,
];
