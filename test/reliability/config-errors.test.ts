import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { resolveEndpoint } from '../../src/subjects/openai/endpoint.js';

/**
 * Scenario 5 (RELIABILITY.md): every bad configuration is exit 2 with one line per problem that names
 * the field (flag, variable or key) and says what to do; nothing starts (no Vitest worker, no request).
 * Lines indented by two spaces are a list of valid forms that follows the problem line (subject errors).
 */

const ENV_KEYS = [
  'CEILINGBENCH_SUBJECT',
  'CEILINGBENCH_SEED',
  'CEILINGBENCH_TRIALS',
  'CEILINGBENCH_OUT',
  'CEILINGBENCH_GATES',
  'CEILINGBENCH_MISSING',
  'CEILINGBENCH_CONFIG',
  'CEILINGBENCH_CACHE_MODE',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
] as const;
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

afterEach(() => {
  // `run` copies its flags into process.env; put everything back
  for (const key of ENV_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

async function cli(argv: string[], env: Record<string, string> = {}) {
  for (const key of ENV_KEYS) delete process.env[key];
  Object.assign(process.env, env);
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  const lines = err.join('').trimEnd().split('\n');
  return { code, stdout: out.join(''), lines, problems: lines.filter((l) => !l.startsWith('  ')) };
}

/** [name, argv, env, field named, fix wording, number of problem lines] */
type Case = [string, string[], Record<string, string>, RegExp, RegExp, number];

const FIX = /\b(use|set|give|pass|remove|check|point|fix)\b|e\.g\./i;

const CASES: Case[] = [
  [
    'bad --subject',
    ['run', '--subject', 'gpt4'],
    {},
    /invalid subject 'gpt4'.*--subject or CEILINGBENCH_SUBJECT/,
    FIX,
    1,
  ],
  ['sim parameter out of range', ['run', '--subject', 'sim:retention?p=2'], {}, /'p': Too big/, FIX, 1],
  ['unknown sim parameter', ['run', '--subject', 'sim:default?pp=1'], {}, /unknown parameter\(s\) 'pp'/, FIX, 1],
  [
    'bad CEILINGBENCH_SUBJECT',
    ['run', '--project', 'd2'],
    { CEILINGBENCH_SUBJECT: 'openai:' },
    /invalid subject 'openai:'.*model name/,
    FIX,
    1,
  ],
  ['unknown --project', ['run', '--project', 'd9'], {}, /No projects matched the filter "d9"/, /ceilingbench\(\)/, 1],
  [
    'misspelt --project',
    ['run', '--project', 'puzzle'],
    {},
    /No projects matched the filter "puzzle" — did you mean 'puzzles'\? \(projects: .*puzzles/,
    /ceilingbench\(\)/,
    1,
  ],
  [
    'CEILINGBENCH_GATES out of range',
    ['run', '--project', 'd2'],
    { CEILINGBENCH_GATES: '{"d2":{"minRetention":90}}' },
    /CEILINGBENCH_GATES: d2\.minRetention: 90 is out of range/,
    /if 90 is a percentage, write 0\.9/,
    1,
  ],
  ['--trials 0', ['run', '--trials', '0'], {}, /--trials: '0' is not an integer ≥ 1/, /integer/, 1],
  ['--shard 3', ['run', '--shard', '3'], {}, /--shard: '3' is not of the form i\/n/, /e\.g\./, 1],
  [
    'CEILINGBENCH_GATES not JSON',
    ['run', '--project', 'd2'],
    { CEILINGBENCH_GATES: '{d2:' },
    /CEILINGBENCH_GATES: not valid JSON/,
    FIX,
    1,
  ],
  [
    'CEILINGBENCH_GATES wrong type',
    ['run', '--project', 'd2'],
    { CEILINGBENCH_GATES: '{"d2":{"minRetention":"high"}}' },
    /CEILINGBENCH_GATES: d2\.minRetention/,
    /give a number or an object/,
    1,
  ],
  [
    'CEILINGBENCH_GATES misspelt key',
    ['run', '--project', 'd2'],
    { CEILINGBENCH_GATES: '{"d2":{"minRetentoin":0.9}}' },
    /CEILINGBENCH_GATES: d2: .*minRetentoin/,
    /remove 'minRetentoin'/,
    1,
  ],
  [
    'CEILINGBENCH_GATES three problems',
    ['run', '--project', 'd2'],
    {
      CEILINGBENCH_GATES:
        '{"d2":{"minRetention":"x","minHorizon":{"value":5,"mode":"soft"},"maxTfbcRate":{"value":0.1,"extra":1}}}',
    },
    /CEILINGBENCH_GATES: d2\.minRetention/,
    FIX,
    3,
  ],
  [
    'CEILINGBENCH_TRIALS not a number',
    ['run', '--project', 'd2'],
    { CEILINGBENCH_TRIALS: 'many' },
    /CEILINGBENCH_TRIALS: 'many'/,
    FIX,
    1,
  ],
  [
    'CEILINGBENCH_TRIALS 0',
    ['run', '--project', 'd2'],
    { CEILINGBENCH_TRIALS: '0' },
    /trials: Too small/,
    /use a value > 0/,
    1,
  ],
  [
    'CEILINGBENCH_MISSING',
    ['run', '--project', 'd2'],
    { CEILINGBENCH_MISSING: 'some' },
    /missing: Invalid option/,
    /use one of "paper", "release"/,
    1,
  ],
  [
    'CEILINGBENCH_CONFIG missing',
    ['run', '--project', 'd2'],
    { CEILINGBENCH_CONFIG: '/nonexistent/cb.config.ts' },
    /CEILINGBENCH_CONFIG: no file/,
    FIX,
    1,
  ],
  [
    'openai subject without a key',
    ['run', '--project', 'd2', '--subject', 'openai:m'],
    { OPENAI_API_KEY: '' },
    /no API key/,
    /set OPENAI_API_KEY/,
    1,
  ],
  [
    'openai subject with a bad base URL',
    ['run', '--project', 'd2', '--subject', 'openai:m'],
    { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'not a url' },
    /OPENAI_BASE_URL 'not a url' is not a URL/,
    FIX,
    1,
  ],
  [
    'bad CEILINGBENCH_CACHE_MODE',
    ['run', '--project', 'd2', '--subject', 'openai:m'],
    { OPENAI_API_KEY: 'sk-test', CEILINGBENCH_CACHE_MODE: 'bogus' },
    /CEILINGBENCH_CACHE_MODE 'bogus' is not valid/,
    /use one of: read-write/,
    1,
  ],
  [
    'replay file missing',
    ['run', '--project', 'd2', '--subject', 'replay:/nonexistent/run.jsonl'],
    {},
    /replay: '\/nonexistent\/run\.jsonl' does not exist/,
    FIX,
    1,
  ],
  [
    'fit --input unreadable',
    ['fit', '--input', '/nonexistent/counts.json'],
    {},
    /cannot read --input '\/nonexistent\/counts\.json' \(ENOENT\)/,
    FIX,
    1,
  ],
  ['fit --input a directory', ['fit', '--input', '/'], {}, /cannot read --input '\/' \(EISDIR\)/, FIX, 1],
];

describe('bad configuration: exit 2 and one clear line per problem', () => {
  it.each(CASES)('%s', async (_, argv, env, field, fix, problemLines) => {
    const result = await cli(argv, env);
    expect(result.code, result.lines.join('\n')).toBe(2);
    expect(result.lines[0]).toMatch(/^ceilingbench: /);
    expect(result.problems).toHaveLength(problemLines);
    expect(result.lines[0]).toMatch(field);
    for (const line of result.problems) {
      expect(line).toMatch(fix);
      expect(line.length).toBeLessThanOrEqual(300);
    }
    // nothing ran: the run command prints its outcome only after Vitest
    expect(result.stdout).toBe('');
  });

  it('a key given in OPENAI_API_KEY never appears in a configuration error', async () => {
    const key = 'sk-config-SENTINEL-31337';
    const result = await cli(['run', '--project', 'd2', '--subject', 'openai:m'], {
      OPENAI_API_KEY: key,
      OPENAI_BASE_URL: `http://user:${key}@127.0.0.1:1/v1?api_key=${key}`,
      CEILINGBENCH_CACHE_MODE: 'bogus',
    });
    expect(result.code).toBe(2);
    expect(result.lines.join('\n')).not.toContain(key);
  });

  // Formerly a defect: a base URL with credentials was accepted and every request then failed, so a run
  // ended as missing data instead of exit 2.
  it('credentials in OPENAI_BASE_URL are a configuration error that does not echo them', () => {
    const error = (() => {
      try {
        resolveEndpoint({ baseURL: 'http://user:sk-secret@127.0.0.1:1/v1', apiKey: 'sk-test' });
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(error?.message).toMatch(/OPENAI_BASE_URL contains credentials/);
    expect(error?.message).not.toContain('sk-secret');
  });

  it('a query string in OPENAI_BASE_URL is sent as a default query, not glued before the path', () => {
    const endpoint = resolveEndpoint({ baseURL: 'http://127.0.0.1:1/v1/?api-version=2024-06-01', apiKey: 'k' });
    expect(endpoint.baseURL).toBe('http://127.0.0.1:1/v1');
    expect(endpoint.defaultQuery).toEqual({ 'api-version': '2024-06-01' });
  });
});
