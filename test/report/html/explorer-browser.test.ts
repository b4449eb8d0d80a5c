import { copyFileSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { isFailureKind } from '../../../reporters/projections/example-view.js';
import { writeHtmlReport } from '../../../reporters/projections/html/index.js';
import { assemblePage } from '../../../reporters/projections/html/page.js';
import type { Report } from '../../../src/schema/report.js';
import { simReport } from '../merge-support.js';
import { chromium, hasChromium, pngSize } from './chromium.js';

// The trial explorer of index.html, as a browser shows it: a run on sim:retention?p=0.8 keeps examples for every
// failing cell, and each example's trace marks its first divergent step beside the canonical trace.

let report: Report;

beforeAll(async () => {
  report = await simReport({ spec: 'sim:retention?p=0.8', runSeed: 0, tasks: ['d2'], trials: 12, levels: [5, 20] });
}, 60_000);

/** The `<article class="example…">` blocks of a page, in order. */
const articles = (html: string): string[] => html.match(/<article class="example[\s\S]*?<\/article>/g) ?? [];

describe('the trial explorer', () => {
  it('keeps examples for every failing cell of a sim:retention?p=0.8 run', () => {
    const failing = report.cells.filter((c) =>
      Object.entries(c.outcomes).some(([k, n]) => n > 0 && isFailureKind(c, k)),
    );
    expect(failing.length).toBe(report.cells.length);
    for (const cell of failing) expect((cell.examples ?? []).some((x) => isFailureKind(cell, x.kind))).toBe(true);
  });

  it('shows in headless Chromium a trace with its first divergent step marked, and leaves a screenshot', async (ctx) => {
    if (!hasChromium(ctx)) return;
    const dir = mkdtempSync(join(tmpdir(), 'cb-explorer-'));
    const out = join(dir, 'site');
    await writeHtmlReport(report, out);
    const url = pathToFileURL(join(out, 'index.html')).href;
    const dom = await chromium(['--dump-dom', url], join(dir, 'profile-dom'));
    expect(dom).toContain('<section id="examples">');

    const cell = report.cells.find((c) => c.level === 20);
    const example = cell?.examples?.find((x) => x.kind === 'reasoning');
    const trace = example?.trace;
    if (!example || !trace) throw new Error('fixture: no reasoning example at N=20');
    const at = trace.steps.find((s) => s.step === trace.divergence);
    const shown = articles(dom).find((a) => a.includes(`seed ${example.seed} · trial ${example.trialIndex}`));
    expect(shown, 'the example in the DOM').toBeDefined();
    // exactly one marked row, at k*, holding the model's and the canonical state; the answer block marked wrong
    const marked = shown?.match(/<tr class="step divergent"[\s\S]*?<\/tr>/g) ?? [];
    expect(marked).toHaveLength(1);
    expect(marked[0]).toContain(`data-step="${example.kStar}"`);
    expect(marked[0]).toContain('first divergent step');
    expect(marked[0]).toContain(`<code>${at?.model}</code>`);
    expect(marked[0]).toContain(`<code>${at?.canonical}</code>`);
    expect(shown).toMatch(/<tr class="answer differs" data-answer="differs">/);
    // the final answer and the reasoning are collapsed
    expect(shown).toMatch(/<details class="text"><summary>final answer \(\d+ chars/);

    // the screenshot: the same renderer on the cells alone (no figures, fits or spend), so the explorer is in view
    const page = join(dir, 'explorer.html');
    writeFileSync(page, assemblePage({ ...report, fits: [], spend: undefined, gates: [] }, [], []));
    const screenshot = join(dir, 'explorer.png');
    await chromium(
      [`--screenshot=${screenshot}`, '--window-size=1280,1300', pathToFileURL(page).href],
      join(dir, 'profile-shot'),
    );
    expect(pngSize(screenshot)).toEqual({ width: 1280, height: 1300 });
    expect(statSync(screenshot).size).toBeGreaterThan(50_000);
    const keep = process.env.CEILINGBENCH_SCREENSHOT_DIR;
    if (keep) {
      mkdirSync(keep, { recursive: true });
      copyFileSync(screenshot, join(keep, 'trial-explorer.png'));
    }
  }, 180_000);

  it('shows model text as text: markup in an answer builds no element', async (ctx) => {
    if (!hasChromium(ctx)) return;
    const tampered = structuredClone(report);
    const example = tampered.cells[0].examples?.[0];
    if (!example?.answer || !example.trace) throw new Error('fixture: no answer');
    example.answer.text = '<script>document.title="pwned"</script><img src=x onerror="document.title=1">';
    example.trace.steps[0].model = '</code></td><td><b id="injected">x</b>';
    const dir = mkdtempSync(join(tmpdir(), 'cb-explorer-evil-'));
    await writeHtmlReport(tampered, join(dir, 'site'));
    const dom = await chromium(['--dump-dom', pathToFileURL(join(dir, 'site', 'index.html')).href], join(dir, 'p'));
    expect(dom).not.toMatch(/<script|<img|<b id="injected"/);
    expect(dom).toContain('&lt;script&gt;document.title="pwned"&lt;/script&gt;');
    expect(dom).not.toContain('<title>pwned');
  }, 180_000);
});
