export { CeilingbenchError, EXIT, UsageError } from '../errors.js';
