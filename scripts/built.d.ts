/** Whether dist/ is the current sources compiled (scripts/built.js). */
export function distIsCurrent(root?: string): boolean;
/** Runs `npm run build` when dist/ is not current; throws when the build fails. */
export function ensureBuilt(root?: string): void;
