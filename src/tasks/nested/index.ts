export * from './generate.js';
export { nestedInstance, nestedPlugin } from './plugin.js';
