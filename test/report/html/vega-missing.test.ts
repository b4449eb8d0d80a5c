import { describe, expect, it, vi } from 'vitest';
import { renderHtmlReport } from '../../../reporters/projections/html/render.js';
import { fixtureReport } from './support.js';

// vega and vega-lite are optional: without them, as Node says it when they are not installed
vi.mock('../../../reporters/projections/html/render-svg.js', () => {
  throw new Error(
    "Cannot find package 'vega' imported from /app/node_modules/ceilingbench/dist/reporters/projections/html/render-svg.js",
  );
});

describe('index.html without vega', () => {
  it('says once, in words, how to get the charts; the tables still stand', async () => {
    const rendered = await renderHtmlReport(fixtureReport());
    expect(rendered.absent.filter((a) => /vega/.test(a.reason))).toHaveLength(1);
    const [charts] = rendered.absent.filter((a) => a.id === 'charts');
    expect(charts?.reason).toMatch(
      /^\d+ figures \(.*\): they need the optional packages vega and vega-lite, which are not installed — npm install -D vega@5 vega-lite@5/,
    );
    expect(rendered.html).not.toContain('Cannot find package');
    expect(rendered.html.split('npm install -D vega@5').length - 1).toBe(1);
    expect(rendered.html).toContain('<h3>Retention fits');
  });
});
