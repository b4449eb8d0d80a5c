import { fileURLToPath } from 'node:url';
import type { Bench } from 'tinybench';
import {
  authorsReplayOptions,
  configFromSummary,
  earlyDecisionReplayOptions,
  loadSccSummary,
  runSccAssay,
} from '../src/assays/scc/index.js';
import { loadSccLog, sccLogReplaySubject } from '../src/subjects/replay/scc-log.js';

/** The authors' released closed-model logs (fixtures/scc/logs/LICENSE.md). */
const LOGS = new URL('../fixtures/scc/logs/', import.meta.url);
/** The deepest ladder in the log (CC 2176, 192 logged trials). */
export const SCC_BENCH_MODEL = 'claude-opus-4-20250514';

/**
 * The SCC ladder on the replay subject for one logged model (log parsing excluded): the authors' schedule
 * (batch-barrier, full tiers) and ours (pool of 4, early tier decision). Both reach the published CC.
 */
/** Calls (trials issued, preflight included) of the last run of each schedule, for the table's footnote. */
export const sccCalls: Record<'authors' | 'ours', number> = { authors: 0, ours: 0 };

export async function addSccBenches(bench: Bench): Promise<void> {
  const logs = await loadSccLog(fileURLToPath(new URL('closed.jsonl', LOGS)));
  const summary = await loadSccSummary(fileURLToPath(new URL('closed.summary.json', LOGS)));
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
  bench.add(`SCC ladder · replay ${SCC_BENCH_MODEL} · ours: pool 4, early decision`, async () => {
    const result = await runSccAssay(subject, earlyDecisionReplayOptions(published, config));
    check(result.cc);
    sccCalls.ours = result.calls;
  });
}
