export { EXIT, UsageError } from '../errors';
