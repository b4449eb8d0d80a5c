import { describe, expect, it } from 'vitest';
import { headerTable } from '../../../reporters/projections/html/tables.js';
import { renderMarkdown } from '../../../reporters/projections/markdown.js';
import { fixtureReport } from './support.js';

describe('index.html scope line', () => {
  it('says what was not run, the filters and the missing shards, as summary.md does', () => {
    const report = fixtureReport();
    const scoped = {
      ...report,
      scope: {
        declared: ['d1', 'd2', 'd3'],
        ran: ['d2'],
        notRun: ['d1', 'd3'],
        filters: '--project d2, -t N=5$',
        shards: { count: 3, merged: [1, 3], missing: [2] },
      },
    };
    const html = headerTable(scoped);
    expect(html).toContain(
      '<tr><th>Scope</th><td>ran d2 · not run: d1, d3 · filters: <code>--project d2, -t N=5$</code> · <b class="fail">shards missing from the merge: 2/3</b></td></tr>',
    );
    // a full run has no scope line
    const full = { ...report, scope: { declared: ['d2'], ran: ['d2'], notRun: [], filters: null } };
    expect(headerTable(full)).not.toContain('Scope');
  });

  it('says a retry the measuring tests refused, as summary.md does, even in a full run', () => {
    const report = fixtureReport();
    const retried = { ...report, scope: { declared: ['d2'], ran: ['d2'], notRun: [], filters: null, retryRefused: 3 } };
    const said =
      'retry 3 refused by the measuring tests (cells, fits, adaptive designs, SCC assays): each measured once, its failure stands';
    expect(headerTable(retried)).toContain(`<tr><th>Scope</th><td>ran d2 · ${said}</td></tr>`);
    expect(renderMarkdown(retried)).toContain(`Scope: ran d2 · ${said}\n`);
  });
});
