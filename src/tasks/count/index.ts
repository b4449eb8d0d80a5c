export * from './audit.js';
export { countTasks } from './families.js';
export * from './grade.js';
export * from './parse.js';
export * from './plugin.js';
export * from './simulate.js';
export * from './stimulus.js';
