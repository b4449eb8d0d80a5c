export { EXIT, UsageError } from '../errors.js';
