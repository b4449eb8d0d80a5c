import type { Subject } from '../../subjects/subject.js';
import {
  CONTROL_TYPES,
  controlPayload,
  DUAL_CONDITIONS,
  type DualCondition,
  pooledControlItems,
  SECONDARY_TASKS,
  type SecondaryItem,
  secondaryItem,
} from '../../tasks/scc-secondary/dual/conditions.js';
import { type DualData, dualInstance, dualPlugin } from '../../tasks/scc-secondary/dual/plugin.js';
import { scoreDualResponse } from '../../tasks/scc-secondary/dual/score.js';
import { mapLimit } from '../limit.js';
import { ask, clip, mean, NotSentTally, rate, SECONDARY_ABORT } from './ask.js';
import type { DualConditionSummary, DualTaskResult, DualTrial } from './schema.js';
import { centeredMovingAverage } from './smoothing.js';

/**
 * The dual-task sweep of `run_count_scatter_controls.py` (paper Supplementary Note 7, Fig. 2F; docs/spec/scc.md §12)
 * with ceilingbench's secondary tasks. Per target count, in the authors' order: `samples` plain counts; per
 * secondary, `samples` real items; then for each control type `samples` items drawn from that count's pooled
 * real items, each matched by a distractor of the same estimated token length.
 */
export interface DualTaskOptions {
  /** The authors: 23. */
  seed: number;
  /** Target counts (default 32…96 step 4; the authors: every count 32…96). */
  counts?: readonly number[];
  /** Trials per count and condition (the authors: 6; default 1). */
  samplesPerCount?: number;
  /** Conditions to run (default all five); controls are matched to the pooled real items whether or not those run. */
  conditions?: readonly DualCondition[];
  window?: number;
  concurrency?: number;
  signal?: AbortSignal;
}

export const countRange = (from: number, to: number, step: number): number[] => {
  if (!(step > 0) || to < from) throw new RangeError(`bad count range ${from}…${to} step ${step}`);
  const out: number[] = [];
  for (let c = from; c <= to; c += step) out.push(c);
  return out;
};

export const DEFAULT_DUAL_COUNTS = countRange(32, 96, 4);

/** Every trial's instance data, in the authors' spec order. */
export function dualDesign(
  seed: number,
  counts: readonly number[],
  samples: number,
  conditions: readonly DualCondition[],
): DualData[] {
  const wanted = new Set(conditions);
  const design: DualData[] = [];
  for (const count of counts) {
    if (wanted.has('plain_count'))
      for (let sample = 0; sample < samples; sample++)
        design.push({ condition: 'plain_count', count, sample, item: null, control: null });
    const pool: SecondaryItem[] = [];
    for (const secondary of SECONDARY_TASKS) {
      const condition = `real_task:${secondary.id}` as DualCondition;
      const items = Array.from({ length: samples }, (_, sample) => secondaryItem(secondary.id, seed, count, sample));
      pool.push(...items);
      if (wanted.has(condition))
        for (const [sample, item] of items.entries()) design.push({ condition, count, sample, item, control: null });
    }
    for (const type of CONTROL_TYPES) {
      if (!wanted.has(type)) continue;
      for (const [offset, item] of pooledControlItems(pool, seed, count, type, samples).entries()) {
        const control = controlPayload(type, item, `${seed}:${count}:pooled:${type}:${item.itemId}:${offset}`);
        design.push({ condition: type, count, sample: offset, item, control });
      }
    }
  }
  return design;
}

function summarize(condition: DualCondition, trials: readonly DualTrial[], window: number): DualConditionSummary {
  const answered = trials.filter((t) => t.answered);
  const parsed = answered.filter((t) => t.countError !== null);
  const counts = [...new Set(trials.map((t) => t.count))].sort((a, b) => a - b);
  const perCount = counts.map((count) => {
    const here = parsed.filter((t) => t.count === count);
    return {
      count,
      trials: answered.filter((t) => t.count === count).length,
      meanError: mean(here.map((t) => t.countError ?? 0)),
      meanAbsError: mean(here.map((t) => Math.abs(t.countError ?? 0))),
    };
  });
  const smoothed = centeredMovingAverage(
    perCount.map((p) => p.meanError),
    window,
  );
  const smoothedAbs = centeredMovingAverage(
    perCount.map((p) => p.meanAbsError),
    window,
  );
  const isReal = condition.startsWith('real_task');
  return {
    condition,
    trials: answered.length,
    missing: trials.length - answered.length,
    parseRate: rate(answered.map((t) => t.parsedCount !== null)),
    countAccuracy: rate(answered.map((t) => t.countCorrect)),
    meanAbsError: mean(parsed.map((t) => Math.abs(t.countError ?? 0))),
    meanSignedError: mean(parsed.map((t) => t.countError ?? 0)),
    secondaryAccuracy: condition === 'dual_counting' ? rate(answered.map((t) => t.secondaryCorrect === true)) : null,
    taskAccuracy: isReal ? rate(answered.map((t) => t.taskCorrect === true)) : null,
    meanMatchedTokens: mean(trials.flatMap((t) => (t.matchedTokens === null ? [] : [t.matchedTokens]))),
    meanInputTokens: mean(answered.flatMap((t) => (t.inputTokens === null ? [] : [t.inputTokens]))),
    series: perCount.map((p, i) => ({ ...p, smoothedError: smoothed[i], smoothedAbsError: smoothedAbs[i] })),
  };
}

export async function runDualTaskAssay(subject: Subject, options: DualTaskOptions): Promise<DualTaskResult> {
  const counts = [...(options.counts ?? DEFAULT_DUAL_COUNTS)];
  const samples = options.samplesPerCount ?? 1;
  if (!Number.isInteger(samples) || samples < 1) throw new RangeError(`samplesPerCount must be ≥ 1, got ${samples}`);
  if (counts.some((c) => !Number.isInteger(c) || c < 1))
    throw new RangeError('dual-task counts must be positive integers');
  const conditions = options.conditions ?? DUAL_CONDITIONS;
  const window = options.window ?? 5;
  const design = dualDesign(options.seed, counts, samples, conditions);
  const refused = new NotSentTally();
  const trials = await mapLimit(
    design,
    options.concurrency ?? 4,
    async (data, trialIndex): Promise<DualTrial> => {
      const instance = dualInstance(data, options.seed);
      const asked = await ask(
        subject,
        {
          taskId: dualPlugin.id,
          instance,
          prompt: dualPlugin.render(instance),
          trialIndex,
          maxOutputTokens: dualPlugin.maxOutputTokens(data.count),
        },
        options.signal,
      );
      refused.note(asked);
      const base = {
        condition: data.condition,
        count: data.count,
        sample: data.sample,
        itemId: data.item?.itemId ?? null,
        matchedTokens: data.control?.matchedTokens ?? null,
        secondaryCount: data.control?.secondaryCount ?? null,
      };
      if (asked.kind === 'error') {
        return {
          ...base,
          answered: false,
          parseable: false,
          strictJson: false,
          parsedCount: null,
          countError: null,
          countCorrect: false,
          parsedSecondaryCount: null,
          secondaryCorrect: null,
          taskCorrect: null,
          inputTokens: null,
          outputTokens: null,
          text: `ERROR: ${asked.error}`,
          ...(asked.usage ? { usage: asked.usage } : {}),
        };
      }
      const score = scoreDualResponse(data, asked.text);
      return {
        ...base,
        answered: true,
        parseable: score.parseable,
        strictJson: score.strictJson,
        parsedCount: score.parsedCount,
        countError: score.countError,
        countCorrect: score.countCorrect,
        parsedSecondaryCount: score.parsedSecondaryCount,
        secondaryCorrect: score.secondaryCorrect,
        taskCorrect: score.taskCorrect,
        inputTokens: asked.inputTokens,
        outputTokens: asked.outputTokens,
        text: clip(asked.text),
        usage: asked.usage,
      };
    },
    options.signal,
    SECONDARY_ABORT,
  );
  const stopped = refused.result();
  return {
    seed: options.seed,
    counts,
    samplesPerCount: samples,
    window,
    secondaries: SECONDARY_TASKS.map((s) => ({ id: s.id, level: s.level, title: s.plugin.title })),
    conditions: conditions.map((c) =>
      summarize(
        c,
        trials.filter((t) => t.condition === c),
        window,
      ),
    ),
    trials,
    ...(stopped ? { stopped } : {}),
  };
}
