import { relative, sep } from 'node:path';

/** What Vite 8 prints when a config file cannot be loaded natively (e.g. ESM syntax in a CommonJS package). */
const NATIVE_LOADER_WARNING = "unsupported by `configLoader: 'native'`";

/** The consoles already filtered: one filter each, however many Vitest instances a command starts. */
const filtered = new WeakSet<object>();

/**
 * Each of Vite's config-loader warnings once per command. Vite warns each time it bundles a config file, and the
 * projects the plugin declares load the root configuration file again: a CommonJS package with an ESM-syntax
 * `vitest.config.js` printed the same three lines once per project (7 times for `vitest run --project d2`, where it
 * printed once without the plugin). Vite's logger writes through `console.warn` and offers no hook, so the
 * warning is filtered there: a repeat of one already printed is dropped, and one naming the root configuration file
 * is dropped outright, since Vite printed it when it loaded that file, before any plugin ran. Every other message,
 * and the first of each other warning, goes through unchanged.
 */
export function warnOnce(configFile: string | undefined, root: string, target: Console = console): void {
  if (filtered.has(target)) return;
  filtered.add(target);
  const rootFile = configFile === undefined ? undefined : `(${relative(root, configFile).split(sep).join('/')}:`;
  const seen = new Set<string>();
  const warn = target.warn;
  target.warn = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (text.includes(NATIVE_LOADER_WARNING)) {
      if ((rootFile !== undefined && text.includes(rootFile)) || seen.has(text)) return;
      seen.add(text);
    }
    warn.apply(target, args);
  };
}
