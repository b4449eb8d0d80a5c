import type { Price } from '../../schema/spend.js';
import { estimateTokens } from '../../subjects/usage-estimate.js';
import { generateCell } from '../../tasks/instances.js';
import type { AnyTaskPlugin, GenerateOptions, Prompt } from '../../tasks/task.js';
import type { TrialCost } from './information.js';

/**
 * Token counts for a spend estimate, injected so that the design stays pure and the counter can change
 * (the chars/4 stand-in today, a real tokenizer for the subject's model when one is wired in).
 */
export interface TokenCounter {
  /** Tokens of a rendered prompt as an endpoint bills it (system + user). */
  prompt(prompt: Prompt): number;
  /** Tokens of a response text. */
  text(text: string): number;
}

/** The stand-in counter: ceil(chars / 4) per text, the estimate the simulated subjects report. */
export const charsPerTokenCounter: TokenCounter = {
  prompt: (prompt) => estimateTokens(prompt.system) + estimateTokens(prompt.user),
  text: estimateTokens,
};

export interface TrialCostModelOptions {
  /**
   * USD per million tokens (src/spend/price.ts priceFor). null: output tokens alone, the part of the bill that
   * grows with depth — never an invented price. A price whose input and output are both 0 orders nothing and
   * is treated as null.
   */
  price: Price | null;
  /** Needed for the prompt's tokens under a price, and for a task without expectedOutputTokens. */
  tokens?: TokenCounter;
  profile?: string;
  variant?: string;
  seedOffset?: number;
  generateOptions?: GenerateOptions;
  /** Instances per depth whose prompts (and canonical responses) are counted, the cell's first ones (default 4). */
  samples?: number;
}

const PER_MILLION = 1_000_000;

/**
 * The expected priced cost of one trial at each depth, for the adaptive design's 'cost' objective:
 * prompt tokens(N) × input price + expected output tokens(N) × output price, or expected output tokens(N)
 * alone without a price. Expected output tokens: the task's length model (`expectedOutputTokens`, CCB: the
 * paper's mean response length per depth), else the counted canonical responses. Prompt tokens: the mean over
 * the first `samples` instances of the depth's cell, rendered in the run's variant (the instances the design
 * asks first). Deterministic; memoised per depth. Cached input and reasoning prices are not modelled: the
 * design needs the growth of cost with depth, not the bill.
 */
export function trialCostModel(task: AnyTaskPlugin, options: TrialCostModelOptions): TrialCost {
  const price = options.price && (options.price.input > 0 || options.price.output > 0) ? options.price : null;
  const samples = options.samples ?? 4;
  if (!(Number.isInteger(samples) && samples >= 1)) {
    throw new RangeError(`trialCostModel: samples=${samples} must be a positive integer`);
  }
  const counter = options.tokens;
  const needsInstances = price !== null || !task.expectedOutputTokens;
  if (needsInstances && !counter) {
    throw new RangeError(
      `trialCostModel: task '${task.id}' needs a token counter (a price bills prompt tokens, or the task has no length model)`,
    );
  }
  const variant = options.variant ?? task.variants[0];
  const memo = new Map<number, number>();
  return (depth) => {
    const known = memo.get(depth);
    if (known !== undefined) return known;
    let promptTokens = 0;
    let outputTokens = task.expectedOutputTokens?.(depth) ?? 0;
    if (needsInstances && counter) {
      const instances = generateCell(task, depth, samples, {
        ...options.generateOptions,
        profile: options.profile ?? task.profiles[0],
        seedOffset: options.seedOffset ?? 0,
      });
      const mean = (f: (i: (typeof instances)[number]) => number) =>
        instances.reduce((sum, i) => sum + f(i), 0) / instances.length;
      if (price !== null) promptTokens = mean((i) => counter.prompt(task.render(i, variant)));
      if (!task.expectedOutputTokens) outputTokens = mean((i) => counter.text(task.canonicalResponse(i)));
    }
    const outputs = Math.max(1, outputTokens);
    const cost = price === null ? outputs : (promptTokens * price.input + outputs * price.output) / PER_MILLION;
    memo.set(depth, cost);
    return cost;
  };
}
