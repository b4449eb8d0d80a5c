import {
  bootstrapRetentionCI,
  type DepthCount,
  fitRetention,
  geometricLogLik,
  normalizeCounts,
  PD_LOWER,
  profileLikelihoodCI,
  type RetentionMle,
} from '../../stats/index.js';
import { mapLimit } from '../limit.js';
import {
  asymptoticWidth,
  mostInformativeDepth,
  mostInformativeDepthPerCost,
  type PBelief,
  type TrialCost,
} from './information.js';

/** One trial's answer: true = correct, false = a counted failure, null = missing data (never in a denominator). */
export type AdaptiveAnswer = (depth: number, trialIndex: number, signal?: AbortSignal) => Promise<boolean | null>;

export interface AdaptivePilot {
  /**
   * Depths of the pilot. Default, objective 'calls': 5 depths spaced geometrically from minDepth to maxDepth;
   * objective 'cost': minDepth alone, the cheapest depth (the allocation climbs from there as the data allow).
   */
  depths?: readonly number[];
  /** Trials at each pilot depth (default: 4 for 'calls', batchSize for 'cost'). */
  trialsPerDepth?: number;
}

/**
 * What one trial's depth is chosen to buy most cheaply. 'calls': the most Fisher information about p_d per
 * call. 'cost': the most information per unit of `cost(depth)` (priced tokens: deeper trials answer at
 * greater length), so the design reaches its target width for the least total cost.
 */
export type AdaptiveObjective = { kind: 'calls' } | { kind: 'cost'; cost: TrialCost };

export interface AdaptiveDesignOptions {
  /**
   * Runs trial `trialIndex` (0-based, counted per depth) at `depth`. Started in increasing trialIndex per
   * depth, up to `concurrency` calls at once (the pilot's depths share one pool).
   */
  answer: AdaptiveAnswer;
  maxDepth: number;
  /** Default 1. */
  minDepth?: number;
  /** Default { kind: 'calls' }. */
  objective?: AdaptiveObjective;
  /**
   * Stop once the 95% profile-likelihood interval for p_d is at most this wide; or, with `matchDesign`, at most
   * as wide as that design (e.g. the 40 × 10 grid) would reach at any p in the current interval (asymptoticWidth).
   */
  targetWidth: number | { matchDesign: readonly { depth: number; n: number }[] };
  pilot?: AdaptivePilot;
  /** Seed of the reported bootstrap interval (the design itself draws no random numbers). */
  seed: number;
  /** Hard cap on calls (missing answers included). */
  maxTrials: number;
  /**
   * Objective 'cost' only: hard cap on the summed cost(depth) of the calls (missing answers included); a batch
   * is cut to what still fits. Default: none.
   */
  maxCost?: number;
  /** Trials allocated per step after the pilot, all at the step's most informative depth (default 8). */
  batchSize?: number;
  /** Calls in flight at once (default batchSize). */
  concurrency?: number;
  /** Bootstrap resamples of the reported interval (default 2000, as the grid's estimate). */
  resamples?: number;
  signal?: AbortSignal;
}

export interface AdaptiveStep {
  phase: 'pilot' | 'allocate';
  depth: number;
  trials: number;
  /** p̂ and the profile-interval width after this step's answers are in (for the pilot: after the whole pilot). */
  pd: number;
  width: number;
}

export interface AdaptiveDesignResult {
  /** Counted trials per depth (missing answers excluded), depths ascending. */
  counts: DepthCount[];
  fit: RetentionMle;
  /** Seeded parametric-bootstrap BCa interval, exactly as the grid's estimate computes it. */
  ci95: [number, number];
  /** The profile-likelihood interval the stopping rule watched. */
  profileCi95: [number, number];
  /** Every call made, missing answers included. */
  calls: number;
  missing: number;
  objective: AdaptiveObjective['kind'];
  /** Objective 'cost': the summed cost(depth) of every call made, missing answers included; else null. */
  cost: number | null;
  /** The width the stopping rule aimed at when the design stopped. */
  targetWidth: number;
  stopReason: 'width' | 'maxTrials' | 'maxCost';
  steps: AdaptiveStep[];
}

/** `count` integer depths spaced geometrically from lo to hi, both included, de-duplicated. */
export function geometricDepths(lo: number, hi: number, count: number): number[] {
  if (count <= 1 || hi === lo) return [hi];
  const depths = Array.from({ length: count }, (_, i) => Math.round(lo * (hi / lo) ** (i / (count - 1))));
  return [...new Set(depths)];
}

interface Validated {
  minDepth: number;
  pilotDepths: number[];
  perDepth: number;
  batchSize: number;
  /** Objective 'cost': cost(depth) tabulated over minDepth…maxDepth (index depth − minDepth). */
  costs: number[] | null;
}

function validate(options: AdaptiveDesignOptions): Validated {
  const minDepth = options.minDepth ?? 1;
  const { maxDepth, targetWidth, maxTrials } = options;
  const objective = options.objective ?? { kind: 'calls' };
  const batchSize = options.batchSize ?? 8;
  if (!(Number.isInteger(minDepth) && minDepth >= 1 && Number.isInteger(maxDepth) && maxDepth >= minDepth)) {
    throw new RangeError(`adaptive design: need integers 1 ≤ minDepth=${minDepth} ≤ maxDepth=${maxDepth}`);
  }
  if (typeof targetWidth === 'number' && !(targetWidth > 0 && targetWidth < 1)) {
    throw new RangeError(`adaptive design: targetWidth=${targetWidth} must lie strictly between 0 and 1`);
  }
  if (typeof targetWidth !== 'number' && !targetWidth.matchDesign.some((c) => c.n > 0)) {
    throw new RangeError('adaptive design: targetWidth.matchDesign must hold at least one depth with n > 0');
  }
  if (!(Number.isInteger(maxTrials) && maxTrials >= 1)) {
    throw new RangeError(`adaptive design: maxTrials=${maxTrials} must be a positive integer`);
  }
  if (options.maxCost !== undefined && !(options.maxCost > 0 && objective.kind === 'cost')) {
    throw new RangeError(`adaptive design: maxCost=${options.maxCost} needs objective 'cost' and a value > 0`);
  }
  if (!(Number.isInteger(batchSize) && batchSize >= 1)) {
    throw new RangeError(`adaptive design: batchSize=${batchSize} must be a positive integer`);
  }
  let costs: number[] | null = null;
  if (objective.kind === 'cost') {
    costs = [];
    for (let depth = minDepth; depth <= maxDepth; depth++) {
      const c = objective.cost(depth);
      if (!(Number.isFinite(c) && c > 0)) {
        throw new RangeError(`adaptive design: cost(${depth})=${c} must be finite and > 0`);
      }
      costs.push(c);
    }
  }
  const defaultPilot = objective.kind === 'cost' ? [minDepth] : geometricDepths(minDepth, maxDepth, 5);
  const pilotDepths = [...new Set(options.pilot?.depths ?? defaultPilot)];
  if (pilotDepths.length === 0) throw new RangeError('adaptive design: pilot.depths must name at least one depth');
  const bad = pilotDepths.find((d) => !(Number.isInteger(d) && d >= minDepth && d <= maxDepth));
  if (bad !== undefined) throw new RangeError(`adaptive design: pilot depth ${bad} is outside ${minDepth}…${maxDepth}`);
  const perDepth = options.pilot?.trialsPerDepth ?? (objective.kind === 'cost' ? batchSize : 4);
  if (!(Number.isInteger(perDepth) && perDepth >= 1)) {
    throw new RangeError(`adaptive design: pilot.trialsPerDepth=${perDepth} must be a positive integer`);
  }
  return { minDepth, pilotDepths, perDepth, batchSize, costs };
}

/**
 * What the data say about p: `points` points across the profile interval, each weighted by its likelihood
 * relative to p̂ (a flat prior on p, truncated to the interval). Needs at least one failure (p̂ < 1): with none
 * the likelihood grows to p = 1, where a trial's information has no finite bound.
 */
export function likelihoodBelief(
  data: readonly DepthCount[],
  pd: number,
  [lo, hi]: readonly [number, number],
  points = 33,
): PBelief {
  if (!(pd < 1 && hi < 1)) throw new RangeError('likelihoodBelief: needs a failure in the data (p̂ < 1)');
  const reference = geometricLogLik(data, pd);
  return Array.from({ length: points }, (_, i) => {
    const p = lo + ((hi - lo) * (i + 0.5)) / points;
    return { p, weight: Math.exp(geometricLogLik(data, p) - reference) };
  });
}

/**
 * The next batch's depth, a pure function of the data. 'calls': the most informative depth at p̂ (today's
 * design). 'cost': the most expected information per unit cost under likelihoodBelief — averaging over the
 * interval rather than trusting p̂ keeps a high p̂ from dragging the batch deeper, and so keeps stopping from
 * favouring overestimates. With no failure yet (p̂ = 1) at the middle of the profile interval [lo, 1], so the
 * design climbs from cheap depths as successes accumulate instead of jumping to the deepest, dearest one.
 * When the cost does not fall with depth, never deeper than the same belief's choice at a constant cost.
 */
export function nextDepth(
  objective: AdaptiveObjective,
  state: { data: readonly DepthCount[]; pd: number; profileCi95: readonly [number, number] },
  maxDepth: number,
  minDepth = 1,
): number {
  const { data, pd, profileCi95 } = state;
  if (objective.kind === 'calls') return mostInformativeDepth(pd, maxDepth, minDepth);
  const belief: PBelief =
    pd < 1 && profileCi95[1] < 1
      ? likelihoodBelief(data, pd, profileCi95)
      : [{ p: Math.min((profileCi95[0] + 1) / 2, 1 - 1e-9), weight: 1 }];
  return mostInformativeDepthPerCost(belief, objective.cost, maxDepth, minDepth);
}

/**
 * Sequential depth allocation for the geometric model P(correct | N) = p_d^N: a pilot, then batches placed at
 * the depth whose trial carries the most Fisher information about p_d — per call at the maximum-likelihood p̂
 * (objective 'calls'), or per unit of priced cost under the likelihood over the profile interval (objective
 * 'cost', see nextDepth) — until the 95% profile-likelihood interval is at most `targetWidth` wide, or
 * `maxTrials` calls or `maxCost` are spent. The reported ci95 is the same BCa bootstrap interval the grid
 * reports.
 *
 * The allocation trusts the geometric model: it concentrates trials at one or two depths, so it cannot
 * detect departures from p^N the way the 10-depth grid can. Use the grid for replication.
 */
export async function runAdaptiveDesign(options: AdaptiveDesignOptions): Promise<AdaptiveDesignResult> {
  const { minDepth, pilotDepths, perDepth, batchSize, costs } = validate(options);
  const concurrency = options.concurrency ?? batchSize;
  const objective: AdaptiveObjective =
    costs === null ? { kind: 'calls' } : { kind: 'cost', cost: (depth) => costs[depth - minDepth] };
  const byDepth = new Map<number, { correct: number; n: number; asked: number }>();
  const steps: AdaptiveStep[] = [];
  let calls = 0;
  let missing = 0;
  let cost = 0;

  const counts = (): DepthCount[] =>
    normalizeCounts([...byDepth].map(([depth, c]) => ({ depth, correct: c.correct, n: c.n })));
  const state = () => {
    const data = counts();
    const fit = fitRetention(data);
    const profileCi95 = profileLikelihoodCI(data);
    return { data, fit, profileCi95, width: profileCi95[1] - profileCi95[0] };
  };
  /**
   * Runs `trials` trials at each requested depth, all under one pool of `concurrency` calls, fewer once the call
   * budget runs out; returns how many ran per request. Trial indices are assigned before any call starts.
   */
  const runMany = async (requests: readonly { depth: number; trials: number }[]): Promise<number[]> => {
    const planned: { depth: number; trialIndex: number }[] = [];
    const ran = requests.map(({ depth, trials }) => {
      const cell = byDepth.get(depth) ?? { correct: 0, n: 0, asked: 0 };
      byDepth.set(depth, cell);
      const unit = costs === null ? 0 : costs[depth - minDepth];
      const affordable = options.maxCost === undefined ? trials : Math.floor((options.maxCost - cost) / unit + 1e-9);
      const take = Math.max(0, Math.min(trials, options.maxTrials - calls, affordable));
      for (let i = 0; i < take; i++) planned.push({ depth, trialIndex: cell.asked + i });
      cell.asked += take;
      calls += take;
      cost += take * unit;
      return take;
    });
    const answers = await mapLimit(
      planned,
      concurrency,
      ({ depth, trialIndex }) => options.answer(depth, trialIndex, options.signal),
      options.signal,
    );
    answers.forEach((a, i) => {
      const cell = byDepth.get(planned[i].depth);
      if (a === null || !cell) missing++;
      else {
        cell.n++;
        if (a) cell.correct++;
      }
    });
    return ran;
  };

  // The pilot's depths do not depend on each other: one pool for all of them.
  const pilotRan = await runMany(pilotDepths.map((depth) => ({ depth, trials: perDepth })));
  const afterPilot = state();
  pilotDepths.forEach((depth, i) => {
    if (pilotRan[i] > 0) {
      steps.push({ phase: 'pilot', depth, trials: pilotRan[i], pd: afterPilot.fit.pd, width: afterPilot.width });
    }
  });
  /**
   * The fixed width, or the narrowest width the matched design would reach anywhere in the current interval
   * (p̂ and 17 points across it): a noisy low p̂, where the grid itself is uninformative, must not stop early.
   */
  const target = (pd: number, [lo, hi]: [number, number]): number => {
    if (typeof options.targetWidth === 'number') return options.targetWidth;
    const design = options.targetWidth.matchDesign;
    let narrowest = asymptoticWidth(pd, design);
    for (let i = 0; i <= 16; i++) narrowest = Math.min(narrowest, asymptoticWidth(lo + ((hi - lo) * i) / 16, design));
    return narrowest;
  };
  /**
   * Narrow enough to stop: the interval is at most the target wide and does not reach the fit's floor p = 0.5.
   * There the width measures the truncated parameter range, not information: a few trials that all fail at a
   * depth the design cannot go below give [0.5, 0.64] at depth 5 — narrow, and far from a true 0.7.
   */
  const narrowEnough = (s: ReturnType<typeof state>): boolean =>
    s.width <= target(s.fit.pd, s.profileCi95) && s.profileCi95[0] > PD_LOWER;
  let current = state();
  while (!narrowEnough(current) && calls < options.maxTrials) {
    // Objective 'calls': at p̂ = 1 (no failure yet) the deepest depth is the first that can show one; at the
    // 0.5 bound the formula still gives a finite optimum (depth 2).
    const depth = nextDepth(
      objective,
      { data: current.data, pd: current.fit.pd, profileCi95: current.profileCi95 },
      options.maxDepth,
      minDepth,
    );
    const [ran] = await runMany([{ depth, trials: batchSize }]);
    if (ran === 0) break; // maxCost: not one more trial at this depth fits
    current = state();
    steps.push({ phase: 'allocate', depth, trials: ran, pd: current.fit.pd, width: current.width });
  }
  const ci95 = bootstrapRetentionCI(current.data, { seed: options.seed, resamples: options.resamples ?? 2000 });
  return {
    counts: current.data,
    fit: current.fit,
    ci95,
    profileCi95: current.profileCi95,
    calls,
    missing,
    objective: objective.kind,
    cost: costs === null ? null : cost,
    targetWidth: target(current.fit.pd, current.profileCi95),
    stopReason: narrowEnough(current) ? 'width' : calls >= options.maxTrials ? 'maxTrials' : 'maxCost',
    steps,
  };
}
