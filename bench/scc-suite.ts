import { fileURLToPath } from 'node:url';
import type { Bench } from 'tinybench';
import {
  authorsReplayOptions,
  configFromSummary,
  earlyDecisionReplayOptions,
  type LaunchOrder,
  loadSccSummary,
  type PreflightPolicy,
  runSccAssay,
  type SccAssayOptions,
} from '../src/assays/scc/index.js';
import { loadSccLog, sccLogReplaySubject } from '../src/subjects/replay/scc-log.js';

/** The authors' released closed-model logs (fixtures/scc/logs/LICENSE.md). */
const LOGS = new URL('../fixtures/scc/logs/', import.meta.url);
const TRIALS = fileURLToPath(new URL('closed.jsonl', LOGS));
const SUMMARY = fileURLToPath(new URL('closed.summary.json', LOGS));
/** The deepest ladder in the log (CC 2176, 192 logged trials). */
export const SCC_BENCH_MODEL = 'claude-opus-4-20250514';

/**
 * The SCC ladder on the replay subject for one logged model (log parsing excluded): the authors' schedule
 * (batch-barrier, full tiers) and ours (pool of 4, early tier decision, largest targets first, the preflight
 * only after a failed first tier). Both reach the published CC.
 */
/** Calls (trials issued, preflight included) of the last run of each schedule, for the table's footnote. */
export const sccCalls: Record<'authors' | 'ours', number> = { authors: 0, ours: 0 };

export async function addSccBenches(bench: Bench): Promise<void> {
  const logs = await loadSccLog(TRIALS);
  const summary = await loadSccSummary(SUMMARY);
  const log = logs.get(SCC_BENCH_MODEL);
  const published = summary.models[SCC_BENCH_MODEL];
  if (!log || !published) throw new Error(`${SCC_BENCH_MODEL} is missing from ${fileURLToPath(LOGS)}`);
  const config = configFromSummary(summary);
  const subject = sccLogReplaySubject(log, `replay#${SCC_BENCH_MODEL}`);
  const check = (cc: number) => {
    if (cc !== published.cc) throw new Error(`SCC replay of ${SCC_BENCH_MODEL}: CC ${cc}, published ${published.cc}`);
  };
  bench.add(`SCC ladder · replay ${SCC_BENCH_MODEL} · authors' batch-barrier, full tiers`, async () => {
    const result = await runSccAssay(subject, authorsReplayOptions(published, config));
    check(result.cc);
    sccCalls.authors = result.calls;
  });
  bench.add(`SCC ladder · replay ${SCC_BENCH_MODEL} · ours: pool 4, early decision, largest first`, async () => {
    const result = await runSccAssay(subject, earlyDecisionReplayOptions(published, config));
    check(result.cc);
    sccCalls.ours = result.calls;
  });
}

/** The schedules of the calls table, from the authors' to our default, one change at a time. */
const SCHEDULE_ROWS: { name: string; order: { launchOrder: LaunchOrder; preflight: PreflightPolicy } | null }[] = [
  { name: "full tiers, the authors' runner", order: null },
  {
    name: "early decision, authors' order (index, preflight first)",
    order: { launchOrder: 'index', preflight: 'first' },
  },
  { name: 'early decision, largest targets first', order: { launchOrder: 'largest-first', preflight: 'first' } },
  {
    name: '+ preflight only after a failed first tier (default)',
    order: { launchOrder: 'largest-first', preflight: 'if-first-tier-fails' },
  },
];

/**
 * Calls over the 44 released closed-model logs for each schedule of SCHEDULE_ROWS, at each concurrency:
 * counted, not timed (the replay subject answers at once, so the counts are deterministic). Every run must
 * reach each model's published CC and upper bound, and every tier verdict of the full-tier run; a run that
 * does not throws, so the table never shows calls of a run that changed a result.
 */
export async function sccScheduleCallsTable(concurrencies: readonly number[] = [1, 4]): Promise<string> {
  const [logs, summary] = await Promise.all([loadSccLog(TRIALS), loadSccSummary(SUMMARY)]);
  const config = configFromSummary(summary);
  const models = [...logs.keys()];
  const verdicts = (r: Awaited<ReturnType<typeof runSccAssay>>) =>
    JSON.stringify([r.cc, r.ccUpper, r.bounded, r.skipped, r.tiers.map((t) => [t.center, t.passed])]);
  const full = new Map<string, string>();
  const calls = new Map<string, number>();
  let tokensLogged = 0;
  const tokens = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  for (const model of models) {
    const log = logs.get(model);
    const published = summary.models[model];
    if (!log || !published) throw new Error(`${model}: not in both ${TRIALS} and ${SUMMARY}`);
    tokensLogged += log.trials.reduce((s, t) => s + (t.output_tokens ?? 0), 0);
    const subject = sccLogReplaySubject(log, `replay#${model}`);
    const runs: [string, SccAssayOptions][] = [];
    for (const [row, { order }] of SCHEDULE_ROWS.entries()) {
      if (order === null) runs.push([`${row}`, authorsReplayOptions(published, config)]);
      else
        for (const concurrency of concurrencies)
          runs.push([
            `${row}@${concurrency}`,
            earlyDecisionReplayOptions(published, config, { concurrency, ...order }),
          ]);
    }
    for (const [key, options] of runs) {
      const result = await runSccAssay(subject, options);
      if (result.cc !== published.cc || result.ccUpper !== published.cc_upper_bound)
        throw new Error(
          `${model} (${key}): CC ${result.cc}/${result.ccUpper}, published ${published.cc}/${published.cc_upper_bound}`,
        );
      const v = verdicts(result);
      if (!full.has(model)) full.set(model, v);
      else if (full.get(model) !== v) throw new Error(`${model} (${key}): a verdict differs from the full tiers'`);
      add(calls, key, result.calls);
      add(tokens, key, result.tokensSpent);
    }
  }
  const fullCalls = calls.get('0') ?? 0;
  const fullTokens = tokens.get('0') ?? 0;
  const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
  const n = (x: number) => x.toLocaleString('en-US');
  const lines = [
    `| schedule | ${concurrencies.map((c) => `calls · saved, ${c} in flight`).join(' | ')} | ${concurrencies.map((c) => `output tokens not spent, ${c} in flight`).join(' | ')} |`,
    `|---|${concurrencies.map(() => '---').join('|')}|${concurrencies.map(() => '---').join('|')}|`,
  ];
  for (const [row, { name, order }] of SCHEDULE_ROWS.entries()) {
    const keys = order === null ? concurrencies.map(() => `${row}`) : concurrencies.map((c) => `${row}@${c}`);
    const cells = keys.map((k) => {
      const c = calls.get(k) ?? 0;
      return `${n(c)} · ${pct(fullCalls - c, fullCalls)}`;
    });
    const saved = keys.map((k) => {
      const t = fullTokens - (tokens.get(k) ?? 0);
      return `${n(t)} (${pct(t, tokensLogged)})`;
    });
    lines.push(`| ${name} | ${cells.join(' | ')} | ${saved.join(' | ')} |`);
  }
  lines.push(
    '',
    `${models.length} models, each run reaching the published CC and upper bound and every tier verdict of the full tiers; ` +
      `${n(fullCalls)} calls and ${n(tokensLogged)} output tokens logged. "Saved" is against the full tiers.`,
  );
  return lines.join('\n');
}
