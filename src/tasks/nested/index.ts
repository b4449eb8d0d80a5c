export * from './generate';
export { nestedInstance, nestedPlugin } from './plugin';
