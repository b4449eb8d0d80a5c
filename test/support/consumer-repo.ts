import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Report, reportSchema } from '../../src/schema/report.js';
import { childEnv, ROOT } from './run-vitest.js';

/**
 * A user's repository in a temporary folder: package.json, node_modules/ceilingbench linked to this checkout (it
 * resolves to dist/, built from the current sources by the unit project's global setup) and the given files
 * (vitest.config.mjs, ceilingbench.config.mjs, benchmarks/*.spec.mjs…). Plain JavaScript: no TypeScript to load.
 */
export function consumerRepo(files: Readonly<Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), 'cb-consumer-'));
  writeFileSync(join(root, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n');
  mkdirSync(join(root, 'node_modules'));
  symlinkSync(ROOT, join(root, 'node_modules/ceilingbench'), 'dir');
  writeFiles(root, files);
  return root;
}

export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

export interface ConsumerRun {
  status: number | null;
  output: string;
  /** The report set's ceilingbench.json (reports/ under the repository), or undefined when none was written. */
  report: () => Report | undefined;
}

/** `vitest <args>` in the repository (`['run', …]`, `['related', …, '--run']`), no CEILINGBENCH_* but `env`. */
export function vitestIn(root: string, args: string[], env: Record<string, string> = {}): ConsumerRun {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(base)) if (key.startsWith('CEILINGBENCH_')) delete base[key];
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), ...args], {
    cwd: root,
    env: childEnv(base, env),
    encoding: 'utf8',
    timeout: 300_000,
  });
  const json = join(root, 'reports/ceilingbench.json');
  return {
    status: result.status,
    output: `${result.stdout}\n${result.stderr}`,
    report: () => (existsSync(json) ? reportSchema.parse(JSON.parse(readFileSync(json, 'utf8'))) : undefined),
  };
}
