// The SCC configuration lives with the other record schemas (src/schema/scc-config.ts).
export * from '../../schema/scc-config.js';
