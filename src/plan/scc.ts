import { SCC_OUTPUT_TOKENS_CEILING } from '../assays/scc/budget-rule.js';
import { DEFAULT_SCC_CONFIG } from '../assays/scc/config.js';
import { LadderSearch, type LadderStep } from '../assays/scc/ladder.js';
import { ladderInstance, ladderTaskOf } from '../assays/scc/ladder-trials.js';
import { agentDesign } from '../assays/scc-secondary/agent.js';
import { DEFAULT_DUAL_COUNTS, dualDesign } from '../assays/scc-secondary/dual-task.js';
import type { PlanUnit } from '../schema/plan.js';
import { targetRange } from '../tasks/ladder-targets.js';
import { agentLadder } from '../tasks/scc-secondary/agent/ladder.js';
import { agentInstance, agentPlugin } from '../tasks/scc-secondary/agent/plugin.js';
import { AGENT_CONDITIONS } from '../tasks/scc-secondary/agent/prompts.js';
import { buildAgentTask } from '../tasks/scc-secondary/agent/task.js';
import { DUAL_CONDITIONS } from '../tasks/scc-secondary/dual/conditions.js';
import { dualInstance, dualPlugin } from '../tasks/scc-secondary/dual/plugin.js';
import type { AnyTaskPlugin, Prompt, TaskInstance } from '../tasks/task.js';
import { addTokens, NO_TOKENS, priced, sumTokens, type Tokens } from './amount.js';
import type { PlanSubject } from './subject.js';

/**
 * The SCC project's assays. Their requests follow the answers: every request may double its output budget up to
 * SCC's ceiling (budget-rule.ts), and the counting ladders choose each tier from the verdicts before it. So these
 * units are ranges. low: every request answered at once with its canonical response (a ladder, under the default
 * schedule that runs the preflight only after a failed first tier: one first-tier trial without an integer decides
 * that tier, then the preflight fails and nothing else runs — 2 requests one at a time; with c in flight up to c
 * first-tier trials are already sent); high: every request doubled to the ceiling, every answer at its budget, and for a ladder
 * the longest path its search can take.
 */

/** The budgets of one request under the doubling rule: start, 2·start, … until the ceiling is reached. */
export function budgetChain(start: number, ceiling = SCC_OUTPUT_TOKENS_CEILING): number[] {
  const chain = [start];
  for (let budget = start; budget < ceiling; ) {
    budget *= 2;
    chain.push(budget);
  }
  return chain;
}

/** One request of a fixed design: expected = answered at once with the canonical response. */
function requestTokens(prompt: number, canonical: number, start: number): Tokens {
  const chain = budgetChain(start);
  const answer = Math.min(canonical, start);
  return {
    calls: { low: 1, expected: 1, high: chain.length },
    promptTokens: { low: prompt, expected: prompt, high: prompt * chain.length },
    outputTokens: { low: answer, expected: answer, high: chain.reduce((a, b) => a + b, 0) },
  };
}

/** Every path the ladder search can take (each tier passes or fails), as its list of tiers. */
export function ladderPaths(settings = DEFAULT_SCC_CONFIG): LadderStep[][] {
  const paths: LadderStep[][] = [];
  const walk = (verdicts: boolean[]): void => {
    const search = new LadderSearch(settings);
    const steps: LadderStep[] = [];
    for (const passed of verdicts) {
      steps.push(search.next() as LadderStep);
      search.record(passed);
    }
    if (search.next() === null) {
      paths.push(steps);
      return;
    }
    walk([...verdicts, true]);
    walk([...verdicts, false]);
  };
  walk([]);
  return paths;
}

/**
 * Prompt tokens of the counting prompt at n items. The stimulus repeats one item and delimiter, which a byte-pair
 * tokenizer splits into the same pieces each time, so the count grows by the same step per item: measured once and
 * checked at a far point (exact counting otherwise, for a tokenizer where that does not hold).
 */
function countingPromptTokens(subject: PlanSubject, promptAt: (n: number) => Prompt): (n: number) => number {
  const memo = new Map<number, number>();
  const exact = (n: number): number => {
    let tokens = memo.get(n);
    if (tokens === undefined) {
      tokens = subject.promptTokens(promptAt(n));
      memo.set(n, tokens);
    }
    return tokens;
  };
  const base = 64;
  const step = exact(base + 1) - exact(base);
  const linear = exact(2048) === exact(base) + (2048 - base) * step;
  return (n) => (n <= base || !linear ? exact(n) : exact(base) + (n - base) * step);
}

/** A ladder task's instance of n items, as a tier centred at n asks it (what its prompt and answer are). */
const instanceAt = (task: AnyTaskPlugin, n: number) =>
  ladderInstance(task, 0, { phase: 'expansion', evaluationIndex: 0 }, n, 0, n);

/** One counting ladder (its preflight, then its tiers): prompts of n items, the answer at the preflight. */
function ladderTokens(
  subject: PlanSubject,
  promptAt: (n: number) => Prompt,
  preflightAnswer: string,
  paths: readonly LadderStep[][],
): Tokens {
  const config = DEFAULT_SCC_CONFIG;
  const tokensAt = countingPromptTokens(subject, promptAt);
  const chain = budgetChain(config.maxOutputTokens, config.retryMaxOutputTokens);
  const chainOutput = chain.reduce((a, b) => a + b, 0);
  const preflightPrompt = tokensAt(config.preflightLength);
  let mostTiers = 0;
  let mostPrompt = 0;
  for (const path of paths) {
    mostTiers = Math.max(mostTiers, path.length);
    const prompt = path.reduce((sum, step) => sum + tokensAt(targetRange(step.center, config.jitterFraction).high), 0);
    mostPrompt = Math.max(mostPrompt, prompt);
  }
  const perTier = config.samplesPerLength * chain.length;
  const firstTierPrompt = tokensAt(targetRange(paths[0][0].center, config.jitterFraction).low);
  return {
    calls: { low: 2, expected: null, high: chain.length * (1 + config.samplesPerLength * mostTiers) },
    promptTokens: {
      low: preflightPrompt + firstTierPrompt,
      expected: null,
      high: chain.length * preflightPrompt + perTier * mostPrompt,
    },
    outputTokens: {
      low: 2 * subject.textTokens(preflightAnswer),
      expected: null,
      high: chainOutput * (1 + config.samplesPerLength * mostTiers),
    },
  };
}

const ladderNote = (paths: readonly LadderStep[][]) =>
  `its tiers follow its answers: a preflight, then up to ${Math.max(...paths.map((p) => p.length))} tiers of ${DEFAULT_SCC_CONFIG.samplesPerLength} trials; no expected value`;

function rangeUnit(
  name: string,
  kind: PlanUnit['kind'],
  tokens: Tokens,
  subject: PlanSubject,
  extra: { trials: number | null; cached: number | null; note: string },
): PlanUnit {
  return {
    name,
    kind,
    isRange: true,
    trials: extra.trials,
    cached: extra.cached,
    cells: [],
    amount: priced(tokens, subject.price),
    note: extra.note,
  };
}

/** `testCountingCapacity({ task })`: the ladder on the task's default variant, as its plugin renders it. */
export function planCounting(subject: PlanSubject, task: AnyTaskPlugin): PlanUnit {
  const paths = ladderPaths();
  const variant = task.variants[0];
  const tokens = ladderTokens(
    subject,
    (n) => task.render(instanceAt(task, n), variant),
    task.canonicalResponse(instanceAt(task, DEFAULT_SCC_CONFIG.preflightLength)),
    paths,
  );
  return rangeUnit(`${task.project} · counting capacity`, 'ladder', tokens, subject, {
    trials: null,
    cached: null,
    note: ladderNote(paths),
  });
}

/** `testMotifAblation()`: the default ladder once per variant (count: the motifs of Table S11), as its plugin renders it. */
export function planMotif(subject: PlanSubject): PlanUnit {
  const task = ladderTaskOf();
  const paths = ladderPaths();
  const preflightAnswer = task.canonicalResponse(instanceAt(task, DEFAULT_SCC_CONFIG.preflightLength));
  const tokens = sumTokens(
    task.variants.map((variant) =>
      ladderTokens(subject, (n) => task.render(instanceAt(task, n), variant), preflightAnswer, paths),
    ),
  );
  return rangeUnit('scc · motif ablation', 'ladder', tokens, subject, {
    trials: null,
    cached: null,
    note: `${task.variants.length} ladders, one per motif; each: ${ladderNote(paths)}`,
  });
}

interface DesignRequest {
  taskId: string;
  instance: TaskInstance;
  prompt: Prompt;
  budget: number;
  canonical: string;
}

async function designUnit(
  name: string,
  requests: readonly DesignRequest[],
  subject: PlanSubject,
  note: string,
): Promise<PlanUnit> {
  let tokens = NO_TOKENS;
  let cached = 0;
  for (const [trialIndex, r] of requests.entries()) {
    const request = { taskId: r.taskId, instance: r.instance, prompt: r.prompt, trialIndex, maxOutputTokens: r.budget };
    // the first request of the trial; a trial whose answer was cut also holds its doubled requests
    if (await subject.isCached(request)) {
      cached++;
      continue;
    }
    tokens = addTokens(
      tokens,
      requestTokens(subject.promptTokens(r.prompt), subject.textTokens(r.canonical), r.budget),
    );
  }
  return rangeUnit(name, 'design', tokens, subject, {
    trials: requests.length,
    cached,
    note: `${requests.length} trials; ${note}`,
  });
}

/**
 * `testDualTask()`: seed 23 + the run seed, round(trials / 40) trials per count and condition, at least 1
 * (src/vitest/scc.ts SECONDARY_ASSAYS).
 */
export function planDual(subject: PlanSubject, runSeed: number, trials: number): Promise<PlanUnit> {
  const seed = 23 + runSeed;
  const samples = Math.max(1, Math.round(trials / 40));
  const requests = dualDesign(seed, DEFAULT_DUAL_COUNTS, samples, DUAL_CONDITIONS).map((data) => {
    const instance = dualInstance(data, seed);
    return {
      taskId: dualPlugin.id,
      instance,
      prompt: dualPlugin.render(instance),
      budget: dualPlugin.maxOutputTokens(data.count),
      canonical: dualPlugin.canonicalResponse(instance),
    };
  });
  return designUnit('scc · dual-task interference', requests, subject, 'a fixed design');
}

/**
 * `testAgentOperation()`: seed 17 + the run seed, round(6 · trials / 40) agent tasks between 1 and 6
 * (src/vitest/scc.ts SECONDARY_ASSAYS), ladders salted with the subject's model.
 */
export function planAgent(subject: PlanSubject, runSeed: number, trials: number): Promise<PlanUnit> {
  const seed = 17 + runSeed;
  const taskSamples = Math.min(6, Math.max(1, Math.round((6 * trials) / 40)));
  const tasks = Array.from({ length: taskSamples }, (_, i) => buildAgentTask(seed, i));
  const design = agentDesign(
    tasks,
    agentLadder(seed, subject.ladderModel, 'agent'),
    agentLadder(seed, subject.ladderModel, 'copy'),
    AGENT_CONDITIONS,
  );
  const requests = design.map((spec) => {
    const instance = agentInstance(spec.condition, spec.task, spec.markers, seed);
    return {
      taskId: agentPlugin.id,
      instance,
      prompt: agentPlugin.render(instance),
      budget: agentPlugin.maxOutputTokens(spec.markers),
      canonical: agentPlugin.canonicalResponse(instance),
    };
  });
  return designUnit('scc · agent operation', requests, subject, 'a fixed design');
}
