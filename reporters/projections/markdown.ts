import { describeNeed, undecidedPasses } from '../../src/gates/index.js';
import type { RetentionFit } from '../../src/schema/fit.js';
import type { Board, Leaderboard } from '../../src/schema/leaderboard.js';
import {
  type Provenance,
  provenanceSettingsText,
  provenanceSubjectText,
  servedModelNotes,
} from '../../src/schema/provenance.js';
import type { Report, Spend } from '../../src/schema/report.js';
import { sccStopText } from '../../src/schema/scc-stop.js';
import type { ReadingProfile } from '../../src/tasks/task.js';
import { cellSetAside, fixed, interval, percent, retryRefusedText, samplesNote, thousands, usd } from './format.js';
import { boardTitle, cellLabel, cellStandingText, headline, RANKED_BY, rankText } from './leaderboard.js';
import { bounded, markdownCode, markdownSafe as md } from './safe-text.js';
import { assayNote, limitLine, unpricedSubjects } from './spend.js';
import { taskLabel } from './task-label.js';

/** An error message in a list item: its first ERROR_MAX characters and last ones (a provider's body can be a page). */
const ERROR_MAX = 1_000;

/** What produced the numbers (src/schema/provenance.ts): a line per subject and one of settings. */
function provenanceMarkdown(p: Provenance): string[] {
  return [
    '## Provenance',
    '',
    ...p.subjects.map((s) => `- subject ${md(provenanceSubjectText(s))}`),
    `- ${md(provenanceSettingsText(p))}`,
    ...servedModelNotes(p).map((note) => `- **${md(note)}**`),
    '',
  ];
}

/** What each hard gate needed (the evidence manifest) and what it got, one row per needed record. */
function evidenceLines(manifest: NonNullable<Report['manifest']>): string[] {
  const rows = manifest.requirements.map(
    (r) =>
      `| ${md(r.key)}.${md(r.gate)} | ${md(r.project)} | ${md(describeNeed(r))} | ${md(r.subject)} | ${r.got === 'passed' ? 'pass' : r.got === 'failed' ? '**FAIL**' : '**not evaluated**'} |`,
  );
  return [
    '## Evidence the gates needed',
    '',
    '| gate | project | needed | subject | got |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ];
}

/**
 * summary.md: the human-readable projection of ceilingbench.json (also for $GITHUB_STEP_SUMMARY). Every text that
 * comes from the data (names of subjects, tasks, variants, projects, tests; error and stop messages) passes
 * markdownSafe, or markdownCode inside a code span: GitHub renders raw HTML in a step summary.
 */
/** The reading profiles as summary.md names them (docs/outputs.md, "Two reading profiles"). */
const READING_TITLES: Record<ReadingProfile, string> = {
  final: 'final (symmetric rule: what counts is decided blind to correctness)',
  authors: "authors (the papers' own precedence, for reproduction)",
};

export function renderMarkdown(report: Report): string {
  const lines: string[] = ['# ceilingbench results', ''];
  // a task names its project where two projects hold it
  const label = taskLabel(report);
  // a subject column where the records name their subject (a run with several)
  const named = [...report.cells, ...report.fits].some((r) => r.subject !== undefined);
  const who = {
    head: named ? ' subject |' : '',
    rule: named ? '---|' : '',
    cell: (r: { subject?: string }) => (named ? ` ${markdownCode(r.subject ?? '–')} |` : ''),
  };
  lines.push(
    `Subject: ${report.subjects.map((s) => markdownCode(s.spec)).join(', ') || '–'} · seed ${report.seed ?? 'mixed'} · ` +
      `${report.summary.cells} cells, ${report.summary.trials} trials, ${report.summary.missing} missing (API)` +
      (report.git.sha ? ` · git ${md(report.git.sha.slice(0, 12))}` : ''),
    '',
  );
  const readings = [...new Set(report.cells.flatMap((c) => (c.reading === undefined ? [] : [c.reading])))];
  if (readings.length > 0) lines.push(`Answer reading: ${readings.map((r) => READING_TITLES[r]).join(', ')}`, '');
  const scope = report.scope;
  if (
    scope &&
    (scope.notRun.length > 0 || scope.filters || (scope.shards?.missing.length ?? 0) > 0 || scope.retryRefused)
  ) {
    const parts = [
      `ran ${scope.ran.map(md).join(', ') || 'nothing'}`,
      ...(scope.notRun.length > 0 ? [`not run: ${scope.notRun.map(md).join(', ')}`] : []),
      ...(scope.filters ? [`filters: ${md(scope.filters)}`] : []),
      ...(scope.retryRefused ? [retryRefusedText(scope.retryRefused)] : []),
      ...(scope.shards && scope.shards.missing.length > 0
        ? [
            `**shards missing from the merge: ${scope.shards.missing.map((i) => `${i}/${scope.shards?.count}`).join(', ')}**`,
          ]
        : []),
    ];
    lines.push(`Scope: ${parts.join(' · ')}`, '');
  }
  if (report.provenance) lines.push(...provenanceMarkdown(report.provenance));
  if (report.gates.length > 0) {
    lines.push('## Gates', '', '| gate | mode | result | estimate | 95% CI | threshold |', '|---|---|---|---|---|---|');
    for (const g of report.gates) {
      lines.push(
        `| ${md(g.project)}.${md(g.gate)} (${md(g.task)})${g.subject !== undefined && report.subjects.length !== 1 ? ` · ${md(g.subject)}` : ''} | ${g.mode} | ${g.passed ? 'pass' : '**FAIL**'} | ${fixed(g.estimate)} | ${interval(g.ci95)} | ${g.threshold} |`,
      );
    }
    lines.push('');
    // why each hard gate failed, in its own words (not evaluated, insufficient, below the threshold)
    const failed = report.gates.filter((g) => g.mode === 'hard' && !g.passed);
    // and each pass its sample could not decide (docs/gates.md#sample-size)
    const shown = [...failed, ...undecidedPasses(report.gates)];
    if (shown.length > 0) lines.push(...shown.map((g) => `- ${md(g.message)}`), '');
  }
  if (report.manifest && report.manifest.requirements.length > 0) lines.push(...evidenceLines(report.manifest));
  if (report.leaderboard) lines.push(...leaderboardLines(report.leaderboard));
  if (report.fits.length > 0) {
    const refusals = report.fits.some((f) => f.refusalRate !== undefined);
    lines.push(
      '## Retention (geometric decay, P(correct | N) = p_d^N)',
      '',
      // the refusal column appears when some fit saw a refusal (a report without any keeps its bytes)
      `|${who.head} task | variant | p_d | set aside | 95% CI | H_0.5 | mean k* | TFBC rate | format | truncation | API |${refusals ? ' refusal |' : ''} rule |`,
      `|${who.rule}---|---|---|---|---|---|---|---|---|---|---|${refusals ? '---|' : ''}---|`,
    );
    for (const f of report.fits) {
      const refusal = refusals ? ` ${percent(f.refusalRate ?? 0)} |` : '';
      lines.push(
        `|${who.cell(f)} ${md(label(f))} | ${md(f.variant)} | ${f.status === 'insufficient' ? 'insufficient' : `${fixed(f.pd)}${f.atLowerBound ? '†' : ''}`} | ${percent(f.setAsideRate)} | ${f.status === 'insufficient' ? '–' : interval(f.ci95)} | ${f.status === 'insufficient' ? '–' : f.horizon['0.5']?.value === null ? '∞' : fixed(f.horizon['0.5']?.value, 2)} | ${fixed(f.kStar.mean, 1)} | ${percent(f.tfbcRate)} | ${percent(f.formatRate)} | ${percent(f.truncationRate)} | ${percent(f.apiRate)} |${refusal} ${f.missing}${f.status === 'insufficient' ? ' (insufficient)' : ''} |`,
      );
    }
    lines.push('');
    // the footnote of the † mark, where a row carries it
    if (report.fits.some((f) => f.status !== 'insufficient' && f.atLowerBound)) {
      lines.push('† at the optimiser lower bound 0.5: no statistically identifiable step retention.', '');
    }
    lines.push(
      'Set aside: the trials the rule leaves out of p_d (api, budget; under `paper` also Format and Truncation); a ' +
        'cell with more than `maxMissingFraction` of its trials set aside is insufficient, and so is its fit.',
      '',
    );
    const setAside = report.fits.flatMap((f) => (f.setAside ? [setAsideLine(f.task, f.variant, f.setAside)] : []));
    const shown = setAside.filter((line) => line !== null);
    if (shown.length > 0) lines.push(...shown.map((line) => `- ${line}`), '');
  }
  if (report.collapse.length > 0) {
    lines.push(
      '## Puzzles (accuracy by level, collapse threshold λ*)',
      '',
      '| task | L1 | L2 | L3 | L4 | L5 | L6 | λ* |',
    );
    lines.push('|---|---|---|---|---|---|---|---|');
    for (const c of report.collapse) {
      // each accuracy with its set-aside share when it has one (api, budget, the family's set-aside kinds)
      const aside = (l: number) => {
        const cell = report.cells.find(
          (x) => x.level === l && x.task === c.task && x.project === c.project && x.subject === c.subject,
        );
        const share = cell ? cellSetAside(cell) : null;
        return share ? ` (${percent(share, 0)} set aside)` : '';
      };
      const acc = [1, 2, 3, 4, 5, 6].map(
        (l) => `${percent(c.levels.find((x) => x.level === l)?.accuracy ?? null, 0)}${aside(l)}`,
      );
      const t = c.collapseThreshold;
      lines.push(
        `| ${md(label(c))} | ${acc.join(' | ')} | ${t.levelIndex === null ? 'undefined (flat)' : `L${t.levelIndex}`} |`,
      );
    }
    // which output-budget rule the cells ran under, where a task has several (puzzles: fixed or per-level)
    const budgets = new Set(
      report.cells.filter((cell) => report.collapse.some((c) => c.task === cell.task)).flatMap((c) => c.budget ?? []),
    );
    if (budgets.size > 0)
      lines.push('', `Output budget rule: ${md([...budgets].join(', '))} (docs/providers.md, budgets).`);
    lines.push('');
  }
  for (const s of report.scc) {
    lines.push(
      '## Counting capacity (SCC)',
      '',
      s.stopped
        ? `${md(s.task)}: ${md(sccStopText(s.stopped))}; CC ≥ ${s.ccLower} so far, a lower bound only`
        : `${md(s.task)}: CC = ${s.cc} (ladder bounds ${s.ccLower}–${s.ccUpper ?? '∞'}${s.bounded ? '' : ', unbounded'})${s.skipped ? ' — skipped' : ''}`,
      '',
    );
  }
  for (const a of report.ablations) {
    lines.push(`## Ablation: ${md(a.task)} at N=${a.level} (paired, exact McNemar vs ${md(a.baseline)})`, '');
    lines.push('| variant | pairs | baseline correct | variant correct | b | c | p |', '|---|---|---|---|---|---|---|');
    for (const c of a.comparisons) {
      lines.push(
        `| ${md(c.variant)} | ${c.pairs} | ${c.baselineCorrect} | ${c.variantCorrect} | ${c.b} | ${c.c} | ${fixed(c.p)} |`,
      );
    }
    lines.push('');
  }
  if (report.spend) lines.push(...spendLines(report.spend));
  if (report.cells.length > 0) {
    lines.push(
      '## Cells',
      '',
      `|${who.head} cell | n | accuracy | set aside | 95% CI (Clopper–Pearson) | outcomes | cache hits |`,
      `|${who.rule}---|---|---|---|---|---|---|`,
    );
    for (const c of report.cells) {
      const axis = c.levelKind === 'depth' ? `N=${c.level}` : `L${c.level}`;
      const outcomes = Object.entries(c.outcomes)
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      lines.push(
        `|${who.cell(c)} ${md(label(c))} · ${axis}${c.variant !== 'standard' && c.variant !== 'default' ? ` · ${md(c.variant)}` : ''} | ${c.n}${c.samples ? ` (${samplesNote(c)})` : ''} | ${percent(c.accuracy)} | ${percent(cellSetAside(c))}${c.status === 'insufficient' ? ' (insufficient)' : ''} | ${interval(c.ci95)} | ${outcomes} | ${c.cacheHits} |`,
      );
    }
    if (report.cells.some((c) => c.samples))
      lines.push(
        '',
        'n (k distinct): replicates of one instance that came back byte-identical under deterministic sampling ' +
          '(temperature 0, or every replicate answered alike) are one sample; the 95% CI and the fit use the k distinct ' +
          'samples, not n (docs/outputs.md, "Replicates").',
      );
    lines.push('');
  }
  if (report.tests.length > 0) {
    lines.push('## Failed tests without results', '');
    for (const t of report.tests)
      lines.push(`- ${md(t.project)} › ${md(t.name)}: ${md(bounded(t.errors[0] ?? 'failed', ERROR_MAX))}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The leaderboard: per board, the ranked table (rank, subject, headline with its CI, TFBC, k*, format and
 * truncation rates), the relations between adjacent ranks, and the cells' accuracy side by side.
 */
function leaderboardLines(leaderboard: Leaderboard): string[] {
  const lines = [
    '## Leaderboard',
    '',
    `Paired tests on shared instances, Holm-adjusted per project at α = ${leaderboard.alpha} (bootstrap B = ${leaderboard.resamples}); ` +
      'a rank range ("1–2") is what the tests leave open. docs/leaderboard.md says how to read it.',
    '',
  ];
  for (const { project, boards } of leaderboard.projects) {
    for (const board of boards) lines.push(...boardLines(project, board));
  }
  return lines;
}

function boardLines(project: string, board: Board): string[] {
  const lines = [`### ${md(boardTitle(project, board))} — ranked by ${RANKED_BY[board.kind]}`, ''];
  if (board.kind === 'scc') {
    lines.push('| rank | subject | CC (ladder bounds) |', '|---|---|---|');
    for (const e of board.entries)
      lines.push(`| ${md(rankText(e))} | ${markdownCode(e.subject)} | ${headline(board, e)} |`);
  } else {
    const extra = board.kind === 'retention';
    lines.push(
      `| rank | subject | ${board.kind === 'retention' ? 'p_d (95% CI)' : 'λ* · accuracy (95% CI)'} | TFBC rate | mean k* |${extra ? ' format | truncation |' : ''}`,
      `|---|---|---|---|---|${extra ? '---|---|' : ''}`,
    );
    for (const e of board.entries) {
      const rates =
        board.kind === 'retention'
          ? ` ${percent((e as { formatRate: number | null }).formatRate)} | ${percent((e as { truncationRate: number | null }).truncationRate)} |`
          : '';
      lines.push(
        `| ${md(rankText(e))} | ${markdownCode(e.subject)} | ${headline(board, e)} | ${percent(e.tfbcRate)} | ${fixed(e.kStarMean, 1)} |${rates}`,
      );
    }
  }
  lines.push('');
  if (board.relations.length > 0) lines.push(...board.relations.map((r) => `- ${md(r.text)}`), '');
  if (board.cells.length > 0) {
    const subjects = board.entries.map((e) => e.subject);
    lines.push(
      `<details><summary>Accuracy per cell, side by side (${board.cells.length} cells)</summary>`,
      '',
      `| cell | ${subjects.map(markdownCode).join(' | ')} |`,
      `|---|${subjects.map(() => '---|').join('')}`,
    );
    for (const row of board.cells) {
      const shown = subjects.map((s) => {
        const c = row.subjects.find((x) => x.subject === s);
        return c ? cellStandingText(c) : '–';
      });
      const separable = row.comparisons.some((c) => c.separable);
      lines.push(`| ${md(cellLabel(board.kind, row))}${separable ? ' *' : ''} | ${shown.join(' | ')} |`);
    }
    lines.push(
      '',
      "* some pair of subjects is separable in this cell (McNemar, Holm over the project's cells).",
      '',
      '</details>',
      '',
    );
  }
  if (board.notes.length > 0)
    lines.push(
      '<details><summary>How to read this board</summary>',
      '',
      ...board.notes.map((n) => `- ${md(n)}`),
      '',
      '</details>',
      '',
    );
  return lines;
}

/**
 * The Format/Truncation trials beside p_d, by what their final answer says: under the 'paper' rule they are
 * missing data, and a set of mostly wrong final answers shows that they are not missing at random.
 */
function setAsideLine(task: string, variant: string, s: NonNullable<RetentionFit['setAside']>): string | null {
  const setAside = s.format + s.truncation;
  const unread =
    s.traceUnreadable > 0 ? `; ${s.traceUnreadable} correct trials had an unreadable trace (no k*, no TFBC)` : '';
  const where = `${md(task)} ${md(variant)}`;
  if (setAside === 0) return unread === '' ? null : `${where}: no Format or Truncation trials${unread}.`;
  const read = s.finalAnswerCorrect + s.finalAnswerWrong;
  return (
    `${where}: ${s.format} Format and ${s.truncation} Truncation trials; final answer readable in ${read} ` +
    `(${s.finalAnswerCorrect} correct, ${s.finalAnswerWrong} wrong), unreadable in ${s.finalAnswerUnread}${unread}.`
  );
}

/** The Spend table: per project, what was sent and paid, and what the response cache answered. */
function spendLines(spend: Spend): string[] {
  if (spend.projects.length === 0) return spend.limit ? ['## Spend', '', `- ${limitLine(spend.limit)}`, ''] : [];
  const money = spend.priced;
  const lines = [
    '## Spend',
    '',
    `| project | calls | trials paid / from cache | prompt tokens (cached) | completion tokens (reasoning) |${money ? ' cost | saved by the cache |' : ''}`,
    `|---|---|---|---|---|${money ? '---|---|' : ''}`,
  ];
  const row = (name: string, t: Spend['total']) =>
    `| ${name} | ${thousands(t.calls)} | ${thousands(t.paid.trials)} / ${thousands(t.fromCache.trials)} | ${thousands(t.paid.prompt)} (${thousands(t.paid.cachedPrompt)}) | ` +
    `${thousands(t.paid.completion)} (${thousands(t.paid.reasoning)}) |${money ? ` ${usd(t.paid.costUsd)} | ${usd(t.fromCache.savedUsd)} |` : ''}`;
  for (const p of spend.projects) lines.push(row(md(p.project), p));
  if (spend.projects.length > 1) lines.push(row('**total**', spend.total));
  lines.push('');
  const notes: string[] = [];
  if (!money) {
    const unpriced = unpricedSubjects(spend);
    notes.push(
      `Cost: not priced${unpriced.length ? ` (no price for ${unpriced.map(markdownCode).join(', ')} in the configuration's \`prices\`)` : ''} — tokens only.`,
    );
  }
  const fromCache = spend.total.fromCache;
  if (fromCache.trials > 0)
    notes.push(
      `From the response cache: ${fromCache.trials} trials, ${thousands(fromCache.prompt)} prompt and ${thousands(fromCache.completion)} completion tokens, not sent again.`,
    );
  const noAnswer = spend.total.billedNoAnswer;
  if (noAnswer)
    notes.push(
      `Billed, no answer: ${noAnswer.trials} trials had responses that carried usage but no answer (empty choices, finish_reason error): ` +
        `${thousands(noAnswer.prompt)} prompt and ${thousands(noAnswer.completion)} completion tokens (${thousands(noAnswer.reasoning)} reasoning)` +
        `${money && noAnswer.costUsd !== null ? `, ${usd(noAnswer.costUsd)}` : ''}, included in the table.`,
    );
  const unrecorded = spend.total.assays?.unrecordedTrials ?? 0;
  const silent = spend.total.unknownUsage - unrecorded;
  if (silent > 0) notes.push(`${silent} answered trials reported no usage: their tokens are in no sum.`);
  for (const p of spend.projects) if (p.assays) notes.push(`${md(p.project)}: ${assayNote(p.assays)}`);
  if (spend.limit) notes.push(limitLine(spend.limit));
  if (notes.length > 0) lines.push(...notes.map((n) => `- ${n}`), '');
  return lines;
}
