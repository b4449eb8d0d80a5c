import { describeNeed } from '../../../src/gates/index.js';
import { provenanceSettingsText, provenanceSubjectText } from '../../../src/schema/provenance.js';
import type { Report, Spend, SpendTotals } from '../../../src/schema/report.js';
import { sccStopText } from '../../../src/schema/scc-stop.js';
import { cellSetAside, fixed, interval, percent, retryRefusedText, samplesNote, thousands, usd } from '../format.js';
import { assayNote, limitLine, unpricedSubjects } from '../spend.js';
import { taskLabel } from '../task-label.js';
import { escapeHtml as e, htmlTable } from './escape.js';

/** What produced the numbers (src/schema/provenance.ts): a row per subject, one of settings. */
function provenanceRows(report: Report): Array<[string, string]> {
  const p = report.provenance;
  if (!p) return [];
  return [
    ['Provenance', p.subjects.map((s) => e(provenanceSubjectText(s))).join('<br>') || '–'],
    ['Settings', e(provenanceSettingsText(p))],
  ];
}

/** The subject / seed / git / timing block at the top of the page. */
/** What the run left out, as summary.md's "Scope" line says it: only when something was (filters, not run, shards). */
function scopeRow(report: Report): Array<[string, string]> {
  const scope = report.scope;
  const missingShards = scope?.shards?.missing ?? [];
  if (!scope || (scope.notRun.length === 0 && !scope.filters && missingShards.length === 0 && !scope.retryRefused))
    return [];
  const parts = [
    `ran ${e(scope.ran.join(', ')) || 'nothing'}`,
    ...(scope.notRun.length > 0 ? [`not run: ${e(scope.notRun.join(', '))}`] : []),
    ...(scope.filters ? [`filters: <code>${e(scope.filters)}</code>`] : []),
    ...(scope.retryRefused ? [e(retryRefusedText(scope.retryRefused))] : []),
    ...(missingShards.length > 0
      ? [
          `<b class="fail">shards missing from the merge: ${missingShards.map((i) => `${i}/${scope.shards?.count}`).join(', ')}</b>`,
        ]
      : []),
  ];
  return [['Scope', parts.join(' · ')]];
}

export function headerTable(report: Report): string {
  const subjects = report.subjects.map((s) => {
    const params = Object.entries(s.parameters)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
    const parts = [`<code>${e(s.spec)}</code> (${e(s.kind)})`];
    if (s.model) parts.push(`model ${e(s.model)}`);
    if (s.endpoint) parts.push(`endpoint <code>${e(s.endpoint)}</code>`);
    if (params) parts.push(`parameters ${e(params)}`);
    return parts.join(' · ');
  });
  const s = report.summary;
  const rows: Array<[string, string]> = [
    ['Subject', subjects.join('<br>') || '–'],
    ['Seed', report.seed === null ? 'mixed' : String(report.seed)],
    ['Git', report.git.sha ? `<code>${e(report.git.sha)}</code>` : '–'],
    ['Tool', `ceilingbench ${e(report.tool.version)}`],
    ['Projects', e(report.projects.join(', ')) || '–'],
    ...provenanceRows(report),
    ...scopeRow(report),
    [
      'Run',
      `${e(report.timing.startedAt)} → ${e(report.timing.finishedAt)} (${fixed(report.timing.durationMs / 1000, 1)} s)`,
    ],
    [
      'Totals',
      `${s.cells} cells · ${s.trials} trials · ${s.missing} missing (API)${s.missingRate === null ? '' : ` = ${percent(s.missingRate)}`}` +
        ` · ${s.insufficientCells} insufficient cells · ${s.hardGatesFailed} hard gates failed · ${s.testsFailed} tests failed`,
    ],
  ];
  return `<table class="header">${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('\n')}</table>`;
}

export function gatesTable(report: Report): string {
  return htmlTable(
    ['gate', 'task', 'mode', 'result', 'estimate', '95% CI', 'threshold', 'message'],
    report.gates.map((g) => [
      e(`${g.project}.${g.gate}`),
      e(g.task),
      g.mode,
      g.passed ? '<span class="pass">pass</span>' : '<span class="fail">FAIL</span>',
      fixed(g.estimate),
      interval(g.ci95),
      e(String(g.threshold)),
      e(g.message),
    ]),
  );
}

/** What each hard gate needed (the evidence manifest) and what it got; empty without a manifest. */
export function evidenceTable(report: Report): string {
  const needs = report.manifest?.requirements ?? [];
  if (needs.length === 0) return '';
  const got = (g: string) =>
    g === 'passed'
      ? '<span class="pass">pass</span>'
      : `<span class="fail">${g === 'failed' ? 'FAIL' : 'not evaluated'}</span>`;
  return (
    '<h3>Evidence the gates needed</h3>\n' +
    htmlTable(
      ['gate', 'project', 'needed', 'subject', 'got', 'why'],
      needs.map((r) => [
        e(`${r.key}.${r.gate}`),
        e(r.project),
        e(describeNeed(r)),
        `<code>${e(r.subject)}</code>`,
        got(r.got),
        e(r.detail),
      ]),
    )
  );
}

/** A horizon in steps; null means unbounded (p_d = 1). */
const steps = (x: number | null): string => (x === null ? '∞' : fixed(x, 2));

export function fitsTable(report: Report): string {
  // the refusal column appears when some fit saw a refusal
  const refusals = report.fits.some((f) => f.refusalRate !== undefined);
  return htmlTable(
    [
      'task',
      'variant',
      'rule',
      'p_d',
      'set aside',
      '95% CI',
      'H_0.5 [95% CI]',
      'k* mean / median (n)',
      'TFBC rate',
      'format',
      'truncation',
      'API',
      ...(refusals ? ['refusal'] : []),
      'trials',
    ],
    report.fits.map((f) => {
      const h = f.horizon['0.5'];
      return [
        e(taskLabel(report)(f)),
        e(f.variant),
        `${f.missing}${f.status === 'insufficient' ? ' <span class="fail">(insufficient)</span>' : ''}`,
        // an insufficient fit has no estimate: the estimator's value on what little was counted is never shown as one
        f.status === 'insufficient'
          ? '<span class="fail">insufficient</span>'
          : `${fixed(f.pd)}${f.atLowerBound ? '†' : ''}`,
        percent(f.setAsideRate),
        f.status === 'insufficient' ? '–' : interval(f.ci95),
        h ? `${steps(h.value)} [${steps(h.ci95[0])}, ${steps(h.ci95[1])}]` : '–',
        `${fixed(f.kStar.mean, 1)} / ${fixed(f.kStar.median, 1)} (${f.kStar.n})`,
        `${percent(f.tfbcRate)} (${f.tfbc}/${f.correct})`,
        percent(f.formatRate),
        percent(f.truncationRate),
        percent(f.apiRate),
        ...(refusals ? [percent(f.refusalRate ?? 0)] : []),
        String(f.nTrials),
      ];
    }),
  );
}

export function collapseTable(report: Report): string {
  const levels = [...new Set(report.collapse.flatMap((c) => c.levels.map((l) => l.level)))].sort((a, b) => a - b);
  return htmlTable(
    ['task', ...levels.map((l) => `L${l}`), 'λ*', 'λ* 95% CI', 'λ* on knob', 'logistic 50%'],
    report.collapse.map((c) => {
      const t = c.collapseThreshold;
      return [
        e(taskLabel(report)(c)) + (c.status === 'insufficient' ? ' <span class="fail">(insufficient)</span>' : ''),
        ...levels.map((l) => {
          const level = c.levels.find((x) => x.level === l);
          const cell = report.cells.find(
            (x) => x.level === l && x.task === c.task && x.project === c.project && x.subject === c.subject,
          );
          const share = cell ? cellSetAside(cell) : null;
          const aside = share ? ` <small class="fail">${percent(share, 0)} set aside</small>` : '';
          return level ? `${percent(level.accuracy, 0)} <small>(${level.correct}/${level.n})</small>${aside}` : '–';
        }),
        t.levelIndex === null ? 'undefined (flat)' : `L${t.levelIndex}${t.increasing ? ' (rise)' : ''}`,
        interval(t.ci95, 0),
        fixed(t.knob, 0),
        fixed(t.logistic50, 2),
      ];
    }),
  );
}

export function sccTable(report: Report): string {
  return htmlTable(
    ['task', 'CC', 'ladder bounds', 'tiers', 'top attractors'],
    report.scc.map((s) => {
      const attractors = s.result.attractors
        .slice(0, 3)
        .map((a) => `${a.value} (${percent(a.share, 0)})`)
        .join(', ');
      return [
        e(s.task) + (s.skipped ? ' (skipped)' : ''),
        s.stopped ? e(sccStopText(s.stopped)) : String(s.cc),
        s.stopped
          ? `≥ ${s.ccLower} (lower bound only)`
          : `${s.ccLower}–${s.bounded ? s.ccUpper : '∞ (no tier failed)'}`,
        String(s.result.tiers.length),
        attractors || '–',
      ];
    }),
  );
}

export function ablationTables(report: Report): string {
  return report.ablations
    .map(
      (a) =>
        `<h3>${e(a.task)} at level ${a.level}: paired, exact McNemar vs <code>${e(a.baseline)}</code></h3>\n` +
        htmlTable(
          ['variant', 'pairs', 'baseline correct', 'variant correct', 'b (base only)', 'c (variant only)', 'p'],
          a.comparisons.map((c) => [
            e(c.variant),
            String(c.pairs),
            String(c.baselineCorrect),
            String(c.variantCorrect),
            String(c.b),
            String(c.c),
            fixed(c.p),
          ]),
        ),
    )
    .join('\n');
}

export function cellsTable(report: Report): string {
  return htmlTable(
    ['task', 'variant', 'level', 'n', 'accuracy', 'set aside', '95% CI (Clopper–Pearson)', 'outcomes', 'status'],
    report.cells.map((c) => [
      e(taskLabel(report)(c)),
      e(c.variant),
      `${c.levelKind === 'depth' ? 'N=' : 'L'}${c.level}`,
      // replicates that could not differ: the interval stands on the distinct samples (docs/outputs.md)
      `${c.n}${c.samples ? ` <small>(${e(samplesNote(c))})</small>` : ''}`,
      percent(c.accuracy),
      percent(cellSetAside(c)),
      interval(c.ci95),
      e(
        Object.entries(c.outcomes)
          .filter(([, v]) => v > 0)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
      ),
      c.status,
    ]),
    'compact',
  );
}

export function failedTestsList(report: Report): string {
  return `<ul>${report.tests.map((t) => `<li>${e(`${t.project} › ${t.name}: ${t.errors[0] ?? 'failed'}`)}</li>`).join('\n')}</ul>`;
}

/** Calls, tokens and cost: per project (and the total), per subject with its price, per cell in a fold. */
export function spendTables(spend: Spend): string {
  const money = spend.priced;
  const head = (first: string[]) => [
    ...first,
    'calls',
    'trials paid',
    'from cache',
    'prompt tokens',
    'cached prompt',
    'completion tokens',
    'reasoning',
    ...(money ? ['cost', 'saved by the cache'] : []),
  ];
  const cols = (t: SpendTotals) => [
    thousands(t.calls),
    thousands(t.paid.trials),
    thousands(t.fromCache.trials),
    thousands(t.paid.prompt),
    thousands(t.paid.cachedPrompt),
    thousands(t.paid.completion),
    thousands(t.paid.reasoning),
    ...(money ? [usd(t.paid.costUsd), usd(t.fromCache.savedUsd)] : []),
  ];
  const projects = [
    ...spend.projects.map((p) => [e(p.project), ...cols(p)]),
    ...(spend.projects.length > 1 ? [['<b>total</b>', ...cols(spend.total)]] : []),
  ];
  const price = (s: Spend['subjects'][number]) =>
    s.price
      ? `in ${s.price.input} · out ${s.price.output}` +
        (s.price.cachedInput !== undefined ? ` · cached in ${s.price.cachedInput}` : '') +
        (s.price.reasoning !== undefined ? ` · reasoning ${s.price.reasoning}` : '')
      : 'none';
  const notes: string[] = [
    'Tokens are those of the trials sent in this run, as the provider reported them (cached prompt tokens are part ' +
      'of the prompt tokens, reasoning tokens part of the completion tokens). Trials from the response cache sent ' +
      'nothing and cost nothing in this run' +
      (money ? '; “saved by the cache” is what they cost when they were first paid.' : '.'),
  ];
  if (!money) {
    const unpriced = unpricedSubjects(spend);
    notes.push(
      `Not priced${unpriced.length ? ` (no price for ${unpriced.map((u) => `<code>${e(u)}</code>`).join(', ')} in the configuration’s <code>prices</code>)` : ''}: tokens only.`,
    );
  }
  const unrecorded = spend.total.assays?.unrecordedTrials ?? 0;
  const silent = spend.total.unknownUsage - unrecorded;
  if (silent > 0) notes.push(`${silent} answered trials reported no usage: their tokens are in no sum.`);
  for (const p of spend.projects) if (p.assays) notes.push(`${e(p.project)}: ${e(assayNote(p.assays))}`);
  const final = (n: number | null) => (n === null ? '–' : thousands(n));
  const assays = spend.assays.length
    ? `<h3>SCC and secondary-assay records</h3>\n${htmlTable(
        [
          ...head(['project', 'task', 'assay', 'subject', 'trials issued']),
          'final-call prompt',
          'final-call completion',
        ],
        spend.assays.map((a) => [
          e(a.project),
          e(a.task),
          e(a.assay),
          `<code>${e(a.subject)}</code>`,
          thousands(a.trials),
          ...(a.calls === undefined || a.paid === undefined || a.fromCache === undefined || a.unknownUsage === undefined
            ? head([]).map(() => '–')
            : cols({ calls: a.calls, paid: a.paid, fromCache: a.fromCache, unknownUsage: a.unknownUsage })),
          final(a.finalCallPromptTokens),
          final(a.finalCallCompletionTokens),
        ]),
      )}\n<p class="note">Every call of an assay trial is counted and priced, the calls before its budget was ` +
      'doubled included; the final-call tokens are those the records keep for the paper’s analyses.</p>\n'
    : '';
  const cells = spend.cells.length
    ? `<details><summary>${spend.cells.length} cells (click to expand)</summary>\n${htmlTable(
        head(['task', 'variant', 'level', 'subject']),
        spend.cells.map((c) => [e(c.task), e(c.variant), String(c.level), `<code>${e(c.subject)}</code>`, ...cols(c)]),
        'compact',
      )}\n</details>\n`
    : '';
  return (
    (spend.limit ? `<p class="${spend.limit.stoppedBy ? 'fail' : 'note'}">${e(limitLine(spend.limit))}</p>\n` : '') +
    (projects.length ? `${htmlTable(head(['project']), projects)}\n` : '') +
    (spend.subjects.length
      ? `<h3>Subjects (price in USD per million tokens)</h3>\n${htmlTable(
          head(['subject', 'price']),
          spend.subjects.map((s) => [`<code>${e(s.subject)}</code>`, e(price(s)), ...cols(s)]),
        )}\n`
      : '') +
    assays +
    cells +
    notes.map((n) => `<p class="note">${n}</p>`).join('\n')
  );
}
