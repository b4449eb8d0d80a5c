import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  type BootstrapMethod,
  CountInputError,
  estimateRetention,
  parseCountInput,
  type RetentionEstimate,
} from '../../stats/index.js';
import type { RegisterCommand } from '../command.js';
import { EXIT, UsageError } from '../errors.js';
import { COMMAND_HELP } from './table.js';

const optionsSchema = z.object({
  input: z.string({ error: 'missing --input <file>; pass a JSON or CSV file of per-depth counts' }).min(1),
  json: z.boolean().optional(),
  seed: z.coerce
    .number({ error: '--seed must be a non-negative integer, e.g. --seed 0' })
    .int('--seed must be a non-negative integer, e.g. --seed 0')
    .min(0, '--seed must be a non-negative integer, e.g. --seed 0')
    .max(Number.MAX_SAFE_INTEGER, '--seed is too large; use an integer below 2^53'),
  resamples: z.coerce
    .number({ error: '--resamples must be an integer between 100 and 100000' })
    .int('--resamples must be an integer between 100 and 100000')
    .min(100, '--resamples must be at least 100 for a 95% interval')
    .max(100_000, '--resamples must be at most 100000'),
  ci: z.enum(['bca', 'percentile'], { error: "--ci must be 'bca' (default) or 'percentile' (the released code's)" }),
});

function readInput(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read --input '${path}' (${code}); check the path and permissions`);
  }
}

const fixed = (v: number, digits = 4) => (Number.isFinite(v) ? v.toFixed(digits) : '∞');
const interval = ([lo, hi]: [number, number], digits = 4) => `[${fixed(lo, digits)}, ${fixed(hi, digits)}]`;

/** JSON result: Infinity (a horizon at p_d = 1) is written as null. */
export function fitResultJson(estimate: RetentionEstimate): string {
  return `${JSON.stringify(estimate, (_key, value) => (value === Number.POSITIVE_INFINITY ? null : value), 2)}\n`;
}

export function fitResultText(e: RetentionEstimate): string {
  const lines = [
    `p_d = ${fixed(e.pd, 6)}${e.atLowerBound ? '  (at the 0.5 lower bound: no identifiable step retention)' : ''}`,
    `  95% CI ${interval(e.ci95)} (parametric bootstrap, ${e.ciMethod}, ${e.resamples} resamples, seed ${e.seed})`,
    `  95% profile-likelihood CI ${interval(e.profileCi95)}`,
    `  log-likelihood ${e.logLik.toFixed(3)}, AIC ${e.aic.toFixed(3)}, BIC ${e.bic.toFixed(3)}, ${e.nTrials} trials`,
    '',
    'horizon H_s = ln s / ln p_d:',
  ];
  for (const [s, h] of Object.entries(e.horizon)) {
    const observed = e.firstDepthBelow[s];
    lines.push(
      `  s = ${s}: H = ${fixed(h.value, 2)} ${interval(h.ci95, 2)}; observed accuracy first below ${s} at ${observed === null ? 'no depth' : `N = ${observed}`}`,
    );
  }
  lines.push('', 'depth  correct/n  accuracy  95% Clopper–Pearson');
  for (const d of e.depths) {
    lines.push(
      `${String(d.depth).padStart(5)}  ${`${d.correct}/${d.n}`.padStart(9)}  ${d.accuracy.toFixed(3).padStart(8)}  ${interval(d.ci95, 3)}`,
    );
  }
  const { accelerating, linear } = e.alternatives;
  lines.push(
    '',
    'alternative decay forms (full binomial log-likelihoods):',
    `  geometric     p_d^N               logLik ${e.logLik.toFixed(3)}  AIC ${e.aic.toFixed(3)}  BIC ${e.bic.toFixed(3)}`,
    `  accelerating  p^(N^γ), p=${fixed(accelerating.p)}, γ=${fixed(accelerating.gamma, 3)}${accelerating.gammaAtBound ? ' (γ at search bound)' : ''}  logLik ${accelerating.logLik.toFixed(3)}  AIC ${accelerating.aic.toFixed(3)}  BIC ${accelerating.bic.toFixed(3)}`,
    `  linear        1 − λN, λ=${fixed(linear.lambda, 5)}  logLik ${linear.logLik.toFixed(3)}  AIC ${linear.aic.toFixed(3)}  BIC ${linear.bic.toFixed(3)}`,
    `  preferred: ${e.alternatives.preferredByAic} by AIC, ${e.alternatives.preferredByBic} by BIC`,
  );
  return `${lines.join('\n')}\n`;
}

/** `ceilingbench fit`: p_d with intervals, horizons and alternative decay forms from per-depth counts. */
export const registerFit: RegisterCommand = (cli, io) => {
  cli
    .command(COMMAND_HELP.fit.usage, COMMAND_HELP.fit.description)
    .option('--input <file>', 'JSON [{"depth":5,"correct":39,"n":40}, …] or CSV rows depth,correct,n (header optional)')
    .option('--json', 'Print the full result as JSON (an infinite horizon is written as null)')
    .option('--seed <n>', 'Seed of the parametric bootstrap', { default: 0 })
    .option('--resamples <n>', 'Bootstrap resamples', { default: 2000 })
    .option('--ci <method>', "Bootstrap interval: 'bca' or 'percentile' (as released)", { default: 'bca' })
    .action((rawOptions: Record<string, unknown>) => {
      const parsed = optionsSchema.safeParse(rawOptions);
      if (!parsed.success) throw new UsageError(parsed.error.issues[0].message);
      const options = parsed.data;
      let counts: ReturnType<typeof parseCountInput>;
      try {
        counts = parseCountInput(readInput(options.input));
      } catch (error) {
        if (error instanceof CountInputError) throw new UsageError(`--input '${options.input}': ${error.message}`);
        throw error;
      }
      const estimate = estimateRetention(counts, {
        seed: options.seed,
        resamples: options.resamples,
        method: options.ci as BootstrapMethod,
      });
      io.stdout(options.json ? fitResultJson(estimate) : fitResultText(estimate));
      return EXIT.ok;
    });
};
