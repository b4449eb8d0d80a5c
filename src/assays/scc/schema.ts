// The SCC result schemas live with the other record schemas (src/schema/scc.ts).
export * from '../../schema/scc.js';
