export { PyRandom, type PySeed } from './python-random.js';
