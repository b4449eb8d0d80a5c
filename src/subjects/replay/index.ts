export { createReplaySubject, detectReplayFormat, type ReplayFormat } from './replay-subject.js';
