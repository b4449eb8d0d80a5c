// The secondary assays' result schemas live with the other record schemas (src/schema/scc-secondary.ts).
export * from '../../schema/scc-secondary.js';
