export type { D3Data, D3Instance, D3Query } from './generate.js';
export { eventLine, PEOPLE, type Relation, type SocialEvent } from './graph.js';
export { d3Task } from './plugin.js';
export { D3_SYSTEM_PROMPT, toSlotLabels } from './prompt.js';
