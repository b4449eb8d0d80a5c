import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// src/leaderboard is pure (records in, a leaderboard out): it may import the pure layers, never a Node API or a
// layer above (the Holm adjustment and the retention-difference bootstrap it shares with src/compare live in
// src/stats, so that compare, which reads gates, which read the leaderboard, stays above it).
// src/schema/leaderboard.ts imports neither stats (schema and stats sit side by side) nor report.ts (the report
// schema will import it: no cycle).

const root = fileURLToPath(new URL('../../', import.meta.url));
const specifiers = (file: string): string[] =>
  [...readFileSync(`${root}${file}`, 'utf8').matchAll(/^(?:import|export)[^'"]*?from\s*'([^']+)'/gm)].map((m) => m[1]);

describe('leaderboard purity', () => {
  const files = (readdirSync(`${root}src/leaderboard`, { recursive: true }) as string[])
    .map((f) => f.split('\\').join('/'))
    .filter((f) => f.endsWith('.ts'));

  it('src/leaderboard imports only src/schema, src/stats, src/tasks and src/rng', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    expect(files).toContain('board/draft.ts'); // the board/ subfolder is read too
    // read on the resolved path, so a module of board/ (one level deeper) is held to the same rule; a package or
    // Node specifier (not relative) is never allowed
    const allowed = (f: string, s: string): boolean => {
      if (!s.startsWith('.')) return false;
      const target = posix.join('src/leaderboard', posix.dirname(f), s);
      return /^src\/(leaderboard|schema|stats|tasks|rng)\/|^src\/compare\/(holm|retention-difference)\.js$/.test(
        target,
      );
    };
    const bad = files.flatMap((f) =>
      specifiers(`src/leaderboard/${f}`)
        .filter((s) => !allowed(f, s))
        .map((s) => `${f}: ${s}`),
    );
    expect(bad).toEqual([]);
  });

  it('the modules it shares with src/compare are pure src/stats modules (rng and stats only)', () => {
    for (const f of ['holm.ts', 'retention-difference.ts']) {
      expect(specifiers(`src/stats/${f}`).every((s) => /^(\.\.\/rng\/|\.\/)[\w-]+\.js$/.test(s))).toBe(true);
    }
  });

  it('src/schema/leaderboard.ts imports zod, src/tasks and schema fragments only (not report.ts)', () => {
    const found = specifiers('src/schema/leaderboard.ts');
    expect(found).toContain('zod');
    expect(found.filter((s) => !/^(zod|\.\.\/tasks\/[\w-]+\.js|\.\/(common|cell|fit|trial)\.js)$/.test(s))).toEqual([]);
  });
});
