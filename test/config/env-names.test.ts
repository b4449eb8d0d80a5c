import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_ENV_NAMES, ENV_NAMES } from '../../src/config/env-names.js';
import { unknownEnvWarnings, warnUnknownEnv } from '../../src/config/load.js';
import { ROOT } from '../support/run-vitest.js';

const NAME = /CEILINGBENCH_[A-Z0-9_]*[A-Z0-9]/g;

/** Every CEILINGBENCH_ name written in the .ts files under `dir` (relative to the root), the list itself left out. */
function namesUnder(dir: string): Set<string> {
  const files = (readdirSync(join(ROOT, dir), { recursive: true }) as string[])
    .map((name) => join(dir, name.split('\\').join('/')))
    .filter((path) => path.endsWith('.ts') && path !== join('src', 'config', 'env-names.ts'));
  return new Set(files.flatMap((path) => readFileSync(join(ROOT, path), 'utf8').match(NAME) ?? []));
}

describe('the CEILINGBENCH_* variables: one list', () => {
  // the package's sources: src/, and the reporters and specs at the top level
  const inSrc = new Set([...namesUnder('src'), ...namesUnder('reporters'), ...namesUnder('specs')]);
  const listed = new Set<string>(ENV_NAMES);

  it('every CEILINGBENCH_ name in the sources is listed, and every listed name is read there', () => {
    expect(inSrc.size).toBeGreaterThan(20);
    expect([...inSrc].filter((name) => !listed.has(name)).sort(), 'read in src/, not in ENV_NAMES').toEqual([]);
    expect([...listed].filter((name) => !inSrc.has(name)).sort(), 'in ENV_NAMES, read nowhere in src/').toEqual([]);
    expect(new Set(ENV_NAMES).size).toBe(ENV_NAMES.length);
  });

  it('the development names are the repository’s tests’, not the package’s', () => {
    const inTests = namesUnder('test');
    for (const name of DEVELOPMENT_ENV_NAMES) {
      expect(inTests.has(name), name).toBe(true);
      expect(inSrc.has(name), name).toBe(false);
    }
  });
});

describe('warnUnknownEnv', () => {
  it('warns of an unknown CEILINGBENCH_ variable with the name it could mean, once per name', () => {
    const lines: string[] = [];
    const warned = new Set<string>();
    const env = { CEILINGBENCH_TRAILS: '2', CEILINGBENCH_TRIALS: '3', PATH: '/bin', OTHER_TRAILS: '1' };
    warnUnknownEnv(env, (line) => lines.push(line), warned);
    warnUnknownEnv(env, (line) => lines.push(line), warned);
    expect(lines).toEqual([
      'ceilingbench: warning: CEILINGBENCH_TRAILS is not a ceilingbench variable — did you mean CEILINGBENCH_TRIALS?\n',
    ]);
  });

  it('a name near none is still only a warning; known, unset and development names warn of nothing', () => {
    const env = {
      CEILINGBENCH_FROBNICATE: '1',
      CEILINGBENCH_SUBJECT: 'oracle',
      CEILINGBENCH_SCREENSHOT_DIR: 'reports',
      CEILINGBENCH_UNSET: undefined,
    };
    expect(unknownEnvWarnings(env, false)).toEqual([
      {
        name: 'CEILINGBENCH_FROBNICATE',
        line: 'ceilingbench: warning: CEILINGBENCH_FROBNICATE is not a ceilingbench variable — it is ignored\n',
      },
    ]);
  });

  it('case: a name in another case is a typo on POSIX, the variable itself on Windows', () => {
    const env = { CEILINGBENCH_Trials: '2' };
    expect(unknownEnvWarnings(env, false).map((w) => w.line)).toEqual([
      'ceilingbench: warning: CEILINGBENCH_Trials is not a ceilingbench variable — did you mean CEILINGBENCH_TRIALS?\n',
    ]);
    expect(unknownEnvWarnings(env, true)).toEqual([]);
  });
});
