import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TestCase } from 'vitest/node';
import ProgressReporter from '../../reporters/progress-reporter.js';
import { buildReport, renderMarkdown } from '../../reporters/projections/index.js';
import { bounded, markdownCode, markdownSafe, terminalSafe } from '../../reporters/projections/safe-text.js';
import { runCli } from '../../src/cli/program.js';
import { multiSubjectEntries, RUN } from './multi-subject.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: what must never reach a terminal
const TERMINAL_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Strings of any code points, control characters and bidi overrides mixed in often. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.oneof(
      fc.constantFrom('\x1b', '\x07', '\x00', '\x08', '\r', '\x7f', '\x9b', '\u202e', '\u2066', '\n', '\t'),
      fc.constantFrom('[', ']', '31m', '0;title', '\\', '<', '>', '&', '|', '`', 'a'),
    ),
  }),
);

describe('terminalSafe', () => {
  it('writes escape sequences out as visible text', () => {
    expect(terminalSafe('\x1b[31mred\x1b[0m')).toBe('\\u001b[31mred\\u001b[0m');
    expect(terminalSafe('\x1b]0;pwned\x07')).toBe('\\u001b]0;pwned\\u0007');
    expect(terminalSafe('\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\')).toBe(
      '\\u001b]8;;https://x\\u001b\\link\\u001b]8;;\\u001b\\',
    );
    expect(terminalSafe('\x9b2J')).toBe('\\u009b2J');
  });

  it('escapes C0 controls, DEL, C1 controls and bidi overrides; keeps line feeds, tabs and other text', () => {
    expect(terminalSafe('a\x00b\x08c\rd\x7fe')).toBe('a\\u0000b\\u0008c\\u000dd\\u007fe');
    expect(terminalSafe('abc\u202edcba\u2066x\u2069')).toBe('abc\\u202edcba\\u2066x\\u2069');
    expect(terminalSafe('line 1\n\tline 2 — ünïcødé 😀 \\u001b')).toBe('line 1\n\tline 2 — ünïcødé 😀 \\u001b');
  });

  it('never lets ESC, BEL, NUL, a C1 control or a bidi override through, for any string', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(terminalSafe(text)).not.toMatch(TERMINAL_UNSAFE);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves JSON text valid JSON of the same value (the escapes are JSON escapes)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), hostile, (value, text) => {
        const json = JSON.stringify({ value, text }, null, 2);
        expect(JSON.parse(terminalSafe(json))).toEqual(JSON.parse(json));
      }),
      { numRuns: 300 },
    );
  });

  it('changes nothing in safe text, and is idempotent', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const once = terminalSafe(text);
        expect(terminalSafe(once)).toBe(once);
        if (!TERMINAL_UNSAFE.test(text)) expect(once).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('markdownSafe', () => {
  it('escapes HTML and table pipes, and puts the text on one line', () => {
    expect(markdownSafe('<img src=x onerror=alert(1)> & co | next\ncell')).toBe(
      '&lt;img src=x onerror=alert(1)&gt; &amp; co \\| next cell',
    );
    expect(markdownSafe('\x1b[2J<script>')).toBe('\\u001b[2J&lt;script&gt;');
    expect(markdownSafe('d2 · N=5 · cot')).toBe('d2 · N=5 · cot');
  });

  it('never lets <, >, a raw pipe, a line break or a terminal control through, for any string', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const safe = markdownSafe(text);
        expect(safe).not.toMatch(/[<>\n]/);
        expect(safe).not.toMatch(TERMINAL_UNSAFE);
        // every pipe is escaped; every ampersand starts one of our entities
        expect(safe.replace(/\\\|/g, '')).not.toContain('|');
        expect(safe.replace(/&(amp|lt|gt);/g, '')).not.toContain('&');
      }),
      { numRuns: 500 },
    );
  });
});

describe('markdownCode', () => {
  it('fences the text with a backtick run longer than any inside it', () => {
    expect(markdownCode('openai:gpt-4o-mini')).toBe('`openai:gpt-4o-mini`');
    expect(markdownCode('a`b')).toBe('``a`b``');
    expect(markdownCode('`x``')).toBe('``` `x`` ```');
    expect(markdownCode('a|b\nc\x1b')).toBe('`a\\|b c\\u001b`');
    expect(markdownCode('p=0.9&seed=7')).toBe('`p=0.9&seed=7`');
    // angle brackets: plain escaped text, no span (an entity would show literally in it)
    expect(markdownCode('a<b>`c`')).toBe('a&lt;b&gt;`c`');
  });

  it('the span cannot be ended early, nor the line broken, for any string', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        if (/[<>]/.test(text)) {
          expect(markdownCode(text)).toBe(markdownSafe(text));
          return;
        }
        const code = markdownCode(text);
        const fence = /^`+/.exec(code)?.[0] ?? '';
        const inner = code.slice(fence.length, code.length - fence.length);
        expect(code.endsWith(fence)).toBe(true);
        expect(inner).not.toContain(fence);
        expect(code).not.toMatch(/\n/);
        expect(code).not.toMatch(TERMINAL_UNSAFE);
        expect(code.replace(/\\\|/g, '')).not.toContain('|');
      }),
      { numRuns: 500 },
    );
  });
});

describe('bounded', () => {
  const MARKER = /^(.*) … \[(\d+) chars cut\] … (.*)$/su;

  it('keeps head and tail around a marker that counts what was cut', () => {
    const text = `${'h'.repeat(1000)}${'t'.repeat(1000)}`;
    const cut = bounded(text, 120);
    const [, head, count, tail] = MARKER.exec(cut) ?? [];
    expect(head).toMatch(/^h+$/);
    expect(tail).toMatch(/^t+$/);
    expect(head.length + Number(count) + tail.length).toBe(text.length);
    expect(cut.length).toBeLessThanOrEqual(120);
  });

  it('is the identity up to max characters; at most max plus the marker beyond, head and tail preserved', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 600 }), fc.integer({ min: 0, max: 700 }), (text, max) => {
        const cut = bounded(text, max);
        if (text.length <= max) {
          expect(cut).toBe(text);
          return;
        }
        const [, head, count, tail] = MARKER.exec(cut) ?? [];
        expect(cut.length).toBeLessThanOrEqual(max + ` … [${text.length} chars cut] … `.length);
        expect(head.length + Number(count) + tail.length).toBe(text.length);
        expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('fits in max characters when max leaves room for the marker', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 100, maxLength: 5000 }), fc.integer({ min: 40, max: 99 }), (text, max) => {
        expect(bounded(text, max).length).toBeLessThanOrEqual(max);
      }),
    );
  });
});

describe('where untrusted text is printed', () => {
  // no ']': the register state it is quoted in stays open to its end
  const HOSTILE = '\x1b[2J\x1b[31mowned\x07\u202e';

  it("ceilingbench grade prints a hostile answer's issues defused, and --json stays the same JSON value", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-safe-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const response = join(dir, 'answer.txt');
    writeFileSync(response, `TRACE:\nStep 1: [A=${HOSTILE}]\nANSWER: [A=1${HOSTILE}]`);
    const run = async (json: boolean) => {
      const out: string[] = [];
      const argv = ['grade', 'd2', '--depth', '5', '--seed', '50000', '--response', response];
      expect(
        await runCli(json ? [...argv, '--json'] : argv, { stdout: (t) => out.push(t), stderr: (t) => out.push(t) }),
      ).toBe(0);
      return out.join('');
    };
    const text = await run(false);
    expect(text).toContain('\\u001b[2J\\u001b[31mowned\\u0007\\u202e');
    expect(text).not.toMatch(TERMINAL_UNSAFE);
    const json = await run(true);
    expect(json).not.toMatch(TERMINAL_UNSAFE);
    expect(JSON.parse(json).issues.join('\n')).toContain(HOSTILE);
  });

  it('the progress reporter prints test names and failures defused', () => {
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const reporter = new ProgressReporter();
      const test = {
        name: `cell ${HOSTILE}`,
        fullName: `d2 › cell ${HOSTILE}\nsecond line`,
        project: { name: `d2${HOSTILE}` },
        meta: () => ({}),
        result: () => ({ state: 'failed', errors: [{ message: `HTTP 500: ${HOSTILE}${'x'.repeat(10_000)}` }] }),
      } as unknown as TestCase;
      reporter.onTestCaseResult(test);
      reporter.onTestRunEnd();
    } finally {
      write.mockRestore();
    }
    const output = written.join('');
    expect(output).not.toMatch(TERMINAL_UNSAFE);
    expect(output).toContain('cell \\u001b[2J\\u001b[31mowned\\u0007');
    expect(output).toMatch(/chars cut/);
    expect(output.length).toBeLessThan(4000);
  });
});

describe('summary.md of a report whose names and messages are hostile', () => {
  const NAMES = ['sim:retention?p=0.95', 'sim:retention?p=0.80'];
  const EVIL = ['<img src=x onerror=alert(1)>|`a``b`\n# heading', '\x1b[2J&amp;<b>bold</b>|cell'];

  it('carries no raw HTML or control character, and every table row keeps its columns', async () => {
    const built = buildReport(await multiSubjectEntries(NAMES, { tasks: ['d2'], trials: 4 }), RUN);
    // every occurrence of each subject's name (records, leaderboard, relations) replaced by a hostile one
    let json = JSON.stringify(built);
    NAMES.forEach((name, i) => {
      json = json.replaceAll(name, JSON.stringify(EVIL[i]).slice(1, -1));
    });
    const report = JSON.parse(json) as typeof built;
    report.tests = [
      {
        project: 'd2|x',
        name: '<script>alert(1)</script>',
        file: 'x',
        state: 'failed',
        errors: [`\x1b]0;t\x07${'y'.repeat(50_000)}`],
      },
    ];
    const md = renderMarkdown(report);
    expect(md).toContain('## Leaderboard');
    expect(md).not.toMatch(/<(img|b|script)\b/i);
    expect(md).not.toMatch(TERMINAL_UNSAFE);
    expect(md).not.toMatch(/^# heading/m);
    expect(md).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(md.length).toBeLessThan(built.cells.length * 400 + 20_000);
    // a row's unescaped pipes are its column separators: as many as in its table's header
    const columns = (line: string) => line.replace(/\\\|/g, '').split('|').length;
    let header: number | null = null;
    for (const line of md.split('\n')) {
      if (!line.startsWith('|')) {
        header = null;
        continue;
      }
      header ??= columns(line);
      expect(columns(line), line).toBe(header);
    }
  });
});
