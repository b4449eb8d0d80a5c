export * from '../stats/holm.js';
export * from '../stats/retention-difference.js';
export * from './baseline.js';
export * from './compare.js';
export * from './load.js';
export * from './provenance.js';
export * from './schema.js';
export { type ComparisonVerdict, comparisonVerdict, type StoredVerdict } from './verdict.js';
