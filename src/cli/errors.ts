export { CeilingbenchError, ERROR_CODES, EXIT, errorCodeOf, UsageError } from '../errors.js';
