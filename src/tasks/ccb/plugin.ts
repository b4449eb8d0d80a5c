import type { PyRandom } from '../../rng/index.js';
import type { CcbOutcome } from '../outcome.js';
import {
  type GenerateOptions,
  type GradeContext,
  type ParseResult,
  type Prompt,
  type SimKnobs,
  stepwiseSim,
  type TaskPlugin,
  type TraceComparison,
} from '../task.js';
import { type CcbReading, type CcbTruth, classify } from './reading.js';
import {
  assertDepth,
  CCB_DEPTHS,
  CCB_PROFILES,
  CCB_VARIANTS,
  type CcbInstance,
  type CcbProfile,
  type CcbVariant,
  resolveProfile,
  resolveVariant,
} from './types.js';
import { formatResponse } from './variants.js';

/** The domain-specific parts of a CCB plugin; `makeCcbPlugin` supplies the shared contract around them. */
export interface CcbDomain<I extends CcbInstance> {
  /** The task id, also its Vitest project's name (`d2`). */
  id: string;
  title: string;
  /** The output-token budget of depth N (the release's max_tokens). */
  maxOutputTokens(depth: number): number;
  /**
   * Mean response tokens of real models at depths 5, 10, …, 50 (the paper's AvgTok, docs/spec/ccb.md §8): the
   * spend estimate's length model; between depths it is interpolated, beyond them extrapolated linearly.
   */
  responseTokens: readonly number[];
  /** sim:default's per-step retention on this domain. */
  simRetention: number;
  generate(rng: PyRandom, depth: number, seed: number, profile: CcbProfile, options: GenerateOptions): I;
  instanceKey(instance: I): string;
  render(instance: I, variant: CcbVariant): Prompt;
  /** Parses a response for grading; the instance selects profile rules (and D3's answer mode). */
  read(text: string, instance: I): CcbReading;
  /** Parses without an instance (official profile, full-state answer). */
  readLoose(text: string): CcbReading;
  /** Ground truth normalised like `StateReading.norm`. */
  truth(instance: I): CcbTruth;
  /** The simulated subject's response (see `simulateResponse`). */
  simulate(instance: I, rng: PyRandom, knobs: SimKnobs): string;
}

export type CcbPlugin<I extends CcbInstance = CcbInstance> = TaskPlugin<I, CcbReading> & {
  grade(instance: I, text: string, context?: GradeContext): CcbOutcome;
};

/** A value tabulated at CCB_DEPTHS, at any depth: linear between the tabulated depths and beyond the ends. */
function onDepthAxis(values: readonly number[], depth: number): number {
  const depths = CCB_DEPTHS;
  let i = 0;
  while (i < depths.length - 2 && depth > depths[i + 1]) i++;
  const [x0, x1, y0, y1] = [depths[i], depths[i + 1], values[i], values[i + 1]];
  return Math.max(1, y0 + ((y1 - y0) * (depth - x0)) / (x1 - x0));
}

export function makeCcbPlugin<I extends CcbInstance>(domain: CcbDomain<I>): CcbPlugin<I> {
  const truthCache = new WeakMap<I, CcbTruth>();
  // The normalised truth depends on the instance only; replicated and re-graded instances reuse it.
  const truthOf = (instance: I): CcbTruth => {
    let truth = truthCache.get(instance);
    if (!truth) {
      truth = domain.truth(instance);
      truthCache.set(instance, truth);
    }
    return truth;
  };
  return {
    id: domain.id,
    family: 'ccb',
    project: domain.id,
    analysis: 'retention',
    simDefault: stepwiseSim(domain.simRetention),
    title: domain.title,
    levels: { kind: 'depth', values: CCB_DEPTHS },
    variants: CCB_VARIANTS,
    profiles: CCB_PROFILES,
    generate(rng: PyRandom, level: number, options: GenerateOptions & { seed: number }): I {
      assertDepth(domain.id, level);
      return domain.generate(rng, level, options.seed, resolveProfile(domain.id, options.profile), options);
    },
    instanceKey: (instance) => domain.instanceKey(instance),
    render: (instance, variant) => domain.render(instance, resolveVariant(domain.id, variant)),
    canonicalResponse: (instance) => formatResponse(instance.trace, instance.answer),
    parse(text: string): ParseResult<CcbReading> {
      const reading = domain.readLoose(text);
      if (reading.steps.length === 0 && reading.answer === null) {
        return { ok: false, reason: 'no trace step and no ANSWER found' };
      }
      return { ok: true, value: reading };
    },
    grade: (instance, text, context) => classify(domain.read(text, instance), truthOf(instance), text, context),
    compareTrace(instance, text): TraceComparison {
      const truth = truthOf(instance);
      const reading = domain.read(text, instance);
      return {
        model: reading.steps.map((step) => {
          const issue = step.formatIssue ?? step.constraintIssue;
          return issue === undefined ? { state: step.norm } : { state: step.norm, issue };
        }),
        canonical: truth.steps,
        answer: { model: reading.answer?.norm ?? null, canonical: truth.answer },
      };
    },
    simulate(instance: I, rng: PyRandom, knobs: SimKnobs): string {
      return domain.simulate(instance, rng, knobs);
    },
    maxOutputTokens: (level) => domain.maxOutputTokens(level),
    expectedOutputTokens: (level) => onDepthAxis(domain.responseTokens, level),
  };
}
