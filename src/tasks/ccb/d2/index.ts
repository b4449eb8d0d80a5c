export type { D2Data, D2Instance } from './generate.js';
export { offeredPaperOps } from './generate.js';
export { d2Task } from './plugin.js';
export { D2_SYSTEM_PROMPT } from './prompt.js';
export { applyD2, D2_OPS, type D2Op, formatRegisters, type Registers, START_REGISTERS } from './registers.js';
