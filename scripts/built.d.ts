/** Runs `npm run build` when dist/ is not the current sources compiled (scripts/built.js); throws when it fails. */
export function ensureBuilt(): void;
