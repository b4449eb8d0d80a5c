import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countSvgMarks, writeHtmlReport } from '../../../reporters/projections/html/index.js';
import { chromium, hasChromium, pngSize } from './chromium.js';
import { lineColours, markGroups, THREE, threeSubjectReport } from './multi-subject-report.js';
import { figureOf, fixtureBaselines, fixtureReport } from './support.js';

describe('index.html in headless Chromium', () => {
  it('of a run with three subjects on d1 and d2 draws one fitted curve per model per domain', async (ctx) => {
    if (!hasChromium(ctx)) return;
    const report = await threeSubjectReport();
    const dir = mkdtempSync(join(tmpdir(), 'cb-browser-3-'));
    const out = join(dir, 'site');
    await writeHtmlReport(report, out);
    const url = pathToFileURL(join(out, 'index.html')).href;
    const dom = await chromium(['--dump-dom', url], join(dir, 'profile-dom'));
    const figure = figureOf(dom, 'accuracy-depth') ?? '';
    // two domains × three models: six line groups of one path each, in three colours (one per model)
    expect(markGroups(figure, 'line')).toEqual([1, 1, 1, 1, 1, 1]);
    expect(new Set(lineColours(figure).flat()).size).toBe(THREE.length);
    // the legend names every model; each domain is its own panel
    for (const spec of THREE) expect(figure).toContain(spec);
    const specs = JSON.parse(readFileSync(join(out, 'charts.vl.json'), 'utf8')).charts as Array<{
      id: string;
      spec: { data: { values: Array<Record<string, unknown>> } };
    }>;
    const fits = specs.find((c) => c.id === 'accuracy-depth')?.spec.data.values.filter((r) => r.layer === 'fit') ?? [];
    expect(new Set(fits.map((r) => `${r.task}|${r.series}`)).size).toBe(2 * THREE.length);
    // the ranked tables stand in the page the browser parsed
    expect(dom).toContain('<section id="leaderboard">');
    expect(dom).toContain('sim:retention?p=0.95 &gt; sim:retention?p=0.90');
  }, 180_000);

  it('shows every chart as an SVG with marks, and leaves a screenshot', async (ctx) => {
    if (!hasChromium(ctx)) return;
    const dir = mkdtempSync(join(tmpdir(), 'cb-browser-'));
    const out = join(dir, 'site');
    await writeHtmlReport(fixtureReport(), out, { baselines: fixtureBaselines() });
    const charts: Array<{ id: string }> = JSON.parse(readFileSync(join(out, 'charts.vl.json'), 'utf8')).charts;
    expect(charts.length).toBe(8);
    const url = pathToFileURL(join(out, 'index.html')).href;
    const source = readFileSync(join(out, 'index.html'), 'utf8');

    const dom = await chromium(['--dump-dom', url], join(dir, 'profile-dom'));
    for (const { id } of charts) {
      const figure = figureOf(dom, id);
      expect(figure, `figure ${id} in the DOM`).not.toBeNull();
      expect(figure).toContain('<svg');
      const marks = countSvgMarks(figure ?? '');
      expect(
        Object.values(marks).reduce((s, n) => s + n, 0),
        `${id} marks in the DOM`,
      ).toBeGreaterThan(0);
      // The browser parsed every mark the renderer wrote.
      expect(marks, id).toEqual(countSvgMarks(figureOf(source, id) ?? ''));
    }

    const screenshot = join(dir, 'index.png');
    await chromium([`--screenshot=${screenshot}`, '--window-size=1280,4000', url], join(dir, 'profile-shot'));
    expect(statSync(screenshot).size).toBeGreaterThan(50_000);
    expect(pngSize(screenshot)).toEqual({ width: 1280, height: 4000 });
    const keep = process.env.CEILINGBENCH_SCREENSHOT_DIR;
    if (keep) {
      mkdirSync(keep, { recursive: true });
      copyFileSync(screenshot, join(keep, 'report-index.png'));
    }
  }, 180_000);
});
