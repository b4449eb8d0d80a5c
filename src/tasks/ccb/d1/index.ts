export type { D1Data, D1Instance } from './generate.js';
export { applyD1, D1_OPS, type D1Op, formatGrid, type Grid, START_GRID } from './grid.js';
export { d1Task } from './plugin.js';
export { D1_SYSTEM_PROMPT } from './prompt.js';
