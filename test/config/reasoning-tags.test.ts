import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { parseReasoningTags } from '../../src/config/load.js';
import { resolveRunConfig, runConfigSchema } from '../../src/config/resolve.js';
import { ERROR_CODES, EXIT, errorCodeOf } from '../../src/errors.js';

// reasoningDelimiters / CEILINGBENCH_REASONING_TAGS (issue 27): the user's reasoning delimiters, checked once
// and carried in the resolved run configuration to every worker.

const emptyDir = () => mkdtempSync(join(tmpdir(), 'cb-tags-'));

describe('CEILINGBENCH_REASONING_TAGS', () => {
  it('reads comma-separated open|close pairs, and a JSON array for delimiters holding , or |', () => {
    expect(parseReasoningTags(undefined)).toEqual([]);
    expect(parseReasoningTags('  ')).toEqual([]);
    expect(parseReasoningTags('<scratchpad>|</scratchpad>, [[plan]] | [[/plan]]')).toEqual([
      { open: '<scratchpad>', close: '</scratchpad>' },
      { open: '[[plan]]', close: '[[/plan]]' },
    ]);
    expect(parseReasoningTags('[{"open":"<a,b>","close":"</a|b>"}]')).toEqual([{ open: '<a,b>', close: '</a|b>' }]);
  });

  it.each([
    ['<scratchpad>', /'<scratchpad>' is not an open\|close pair/],
    ['<a>|</a>,', /'' is not an open\|close pair/],
    ['<a>|</a>|<b>', /not an open\|close pair/],
    ['<a>| ', /not an open\|close pair/],
    ['[{"open":"<a>"', /not a valid JSON array/],
    ['<a>|<A>', /open and close must differ/],
    ['[{"open":"<a>","close":"</a>","x":1}]', /remove 'x'/],
  ])('%j is a configuration error (CB_CONFIG, exit 2) naming the fix', async (value, message) => {
    const error = await loadConfig({ CEILINGBENCH_REASONING_TAGS: value }, emptyDir()).catch((e) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(errorCodeOf(error)).toBe('CB_CONFIG');
    expect(ERROR_CODES.CB_CONFIG.exit).toBe(EXIT.usage);
    expect(error.message).toMatch(/CEILINGBENCH_REASONING_TAGS/);
    expect(error.message).toMatch(message);
  });
});

describe('reasoningDelimiters in ceilingbench.config.ts', () => {
  it('defaults to none; the environment’s pairs are added to the file’s, a repeated pair once', async () => {
    expect((await loadConfig({}, emptyDir())).reasoningDelimiters).toEqual([]);
    const dir = emptyDir();
    writeFileSync(
      join(dir, 'ceilingbench.config.mjs'),
      "export default { reasoningDelimiters: [{ open: '<plan>', close: '</plan>' }] };\n",
    );
    const config = await loadConfig({ CEILINGBENCH_REASONING_TAGS: '<PLAN>|</PLAN>,<memo>|</memo>' }, dir);
    expect(config.reasoningDelimiters).toEqual([
      { open: '<plan>', close: '</plan>' },
      { open: '<memo>', close: '</memo>' },
    ]);
  });

  it('a blank delimiter in the file is an error naming the field', async () => {
    const dir = emptyDir();
    writeFileSync(
      join(dir, 'ceilingbench.config.mjs'),
      "export default { reasoningDelimiters: [{ open: ' ', close: '</x>' }] };\n",
    );
    await expect(loadConfig({}, dir)).rejects.toThrow(/reasoningDelimiters\.0\.open: a delimiter must not be blank/);
  });

  it('the resolved run configuration (what every worker is provided) carries them', async () => {
    const config = await resolveRunConfig({ root: emptyDir(), env: { CEILINGBENCH_REASONING_TAGS: '<m>|</m>' } });
    expect(runConfigSchema.parse(JSON.parse(JSON.stringify(config))).reasoningDelimiters).toEqual([
      { open: '<m>', close: '</m>' },
    ]);
  });
});
