import { afterAll, describe, expect, it, vi } from 'vitest';
import { reloadModulesAfterThisFile } from '../../support/shared-worker.js';

// The worker may hold the real modules from an earlier file: drop them before this file's imports load (hoisted
// above them, as the mock is), and again after it.
vi.hoisted(() => vi.resetModules());
afterAll(() => vi.doUnmock('../../../reporters/projections/html/render-svg.js'));
reloadModulesAfterThisFile();

// One chart's renderer throws; the page must still be written, with that figure listed as absent.
vi.mock('../../../reporters/projections/html/render-svg.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../reporters/projections/html/render-svg.js')>();
  return {
    ...original,
    renderChartSvg: async (chart: Parameters<typeof original.renderChartSvg>[0]) => {
      if (chart.id === 'kstar') throw new Error("chart 'kstar' could not be rendered: boom");
      return original.renderChartSvg(chart);
    },
  };
});

const { renderHtmlReport } = await import('../../../reporters/projections/html/index.js');
const { renderChartSvg } = await import('../../../reporters/projections/html/render-svg.js');
const { fixtureReport } = await import('./support.js');

describe('a chart that fails to render', () => {
  it('is listed as absent with the error, and the other charts are drawn', async () => {
    const r = await renderHtmlReport(fixtureReport());
    expect(r.charts.map((c) => c.id)).not.toContain('kstar');
    expect(r.charts.map((c) => c.id)).toContain('accuracy-depth');
    expect(r.absent.find((a) => a.id === 'kstar')?.reason).toMatch(/could not be rendered: boom/);
    expect(r.html).toContain('could not be rendered: boom');
  });

  it('renderChartSvg names the chart when Vega rejects a spec', async () => {
    const bad = { id: 'bad', title: 'bad', caption: '', spec: { mark: 'nonsense', data: { values: [] } } as never };
    await expect(renderChartSvg(bad)).rejects.toThrow(/chart 'bad' could not be rendered/);
  });
});
