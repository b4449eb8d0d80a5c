import { type Comparison, compareRuns, loadRunRecord } from '../../compare/index.js';
import { fixed } from '../../report/format.js';
import type { RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';

function table(comparison: Comparison): string {
  const lines = [
    `baseline ${comparison.baseline} → candidate ${comparison.candidate}`,
    '',
    '| metric | task | where | baseline | candidate | change | 95% CI / p | verdict |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const m of comparison.metrics) {
    const evidence = m.ci95
      ? `[${fixed(m.ci95[0])}, ${fixed(m.ci95[1])}]`
      : m.p !== null
        ? `p=${m.p.toPrecision(3)}`
        : '–';
    lines.push(
      `| ${m.metric} | ${m.task} | ${m.where || '–'} | ${fixed(m.baseline)} | ${fixed(m.candidate)} | ${fixed(m.difference)} | ${evidence} | ${m.regression ? `**REGRESSION**: ${m.reason}` : m.reason} |`,
    );
  }
  lines.push(
    '',
    comparison.regressions.length === 0 ? 'no regression' : `${comparison.regressions.length} regression(s):`,
  );
  for (const r of comparison.regressions)
    lines.push(`- ${r.project} ${r.task} ${r.metric}${r.where ? ` (${r.where})` : ''}: ${r.reason}`);
  if (comparison.notCompared.length > 0) {
    lines.push('', `${comparison.notCompared.length} not compared (the gate fails on them):`);
    for (const n of comparison.notCompared) lines.push(`- ${n.project} ${n.task} ${n.metric}: ${n.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

function tolerance(name: string, value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name}: '${value}' is not a non-negative number`);
  return n;
}

/** `ceilingbench compare <baseline> <candidate>`: statistical regression gate; exit 1 on a regression. */
export const registerCompare: RegisterCommand = (cli, io) => {
  cli
    .command(
      'compare <baseline> <candidate>',
      'Compare two runs (ceilingbench.json or baselines/*.json); exit 1 on a regression or a metric it could not compare',
    )
    .option('--json', 'Machine-readable output')
    .option('--tolerance-pd <x>', 'p_d drop tolerated (default 0.01)')
    .option('--tolerance-accuracy <x>', 'Cell accuracy drop tolerated (default 0.05)')
    .option('--tolerance-cc <x>', 'Relative CC drop tolerated (default 0.05)')
    .option('--alpha <x>', 'Family-wise significance level (default 0.05)')
    .action((basePath: string, candPath: string, flags: Record<string, string | number | boolean | undefined>) => {
      const load = (path: string) => {
        try {
          return loadRunRecord(path);
        } catch (error) {
          throw new UsageError((error as Error).message);
        }
      };
      const tolerances = Object.fromEntries(
        Object.entries({
          retention: tolerance('tolerance-pd', flags.tolerancePd as string | undefined),
          accuracy: tolerance('tolerance-accuracy', flags.toleranceAccuracy as string | undefined),
          countingCapacity: tolerance('tolerance-cc', flags.toleranceCc as string | undefined),
          alpha: tolerance('alpha', flags.alpha as string | undefined),
        }).filter(([, v]) => v !== undefined),
      );
      const comparison = compareRuns(load(basePath), load(candPath), { tolerances });
      io.stdout(flags.json ? `${JSON.stringify(comparison, null, 2)}\n` : table(comparison));
      // a comparison that could not look at a metric both runs have never passes on it
      return comparison.regressions.length > 0 || comparison.notCompared.length > 0 ? 1 : 0;
    });
};
