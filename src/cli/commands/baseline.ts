import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { fixed, interval } from '../../../reporters/projections/format.js';
import { baselineFromReport, loadBaselineDir } from '../../compare/index.js';
import { type Baseline, baselineSchema } from '../../schema/baseline.js';
import { readReport } from '../../schema/read-report.js';
import type { RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { readJsonFile } from './read-json.js';
import { COMMAND_HELP } from './table.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function historyTable(baselines: Baseline[]): string {
  const series = new Set<string>();
  for (const b of baselines) {
    for (const f of b.fits) series.add(`p_d ${f.task}${f.variant !== 'standard' ? ` ${f.variant}` : ''}`);
    for (const s of b.scc) series.add(`CC ${s.task}`);
  }
  const columns = [...series].sort();
  const lines = [`| release | run | ${columns.join(' | ')} |`, `|---|---|${columns.map(() => '---|').join('')}`];
  for (const b of baselines) {
    const cells = columns.map((column) => {
      const fit = b.fits.find((f) => `p_d ${f.task}${f.variant !== 'standard' ? ` ${f.variant}` : ''}` === column);
      if (fit) return `${fixed(fit.pd)} ${interval(fit.ci95)}`;
      const scc = b.scc.find((s) => `CC ${s.task}` === column);
      if (!scc) return '–';
      return scc.stopped ? `stopped (≥ ${scc.ccLower})` : `${scc.cc} (${scc.ccLower}–${scc.ccUpper ?? '∞'})`;
    });
    lines.push(`| ${b.name} | ${b.runStartedAt.slice(0, 10)} | ${cells.join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** `ceilingbench baseline save <name>` and `ceilingbench baseline history`. */
export const registerBaseline: RegisterCommand = (cli, io) => {
  cli
    .command(COMMAND_HELP.baseline.usage, COMMAND_HELP.baseline.description)
    .option('--from <file>', 'Report to save', { default: 'reports/ceilingbench.json' })
    .option('--dir <dir>', 'Baseline directory', { default: 'baselines' })
    .option('--json', 'Machine-readable output')
    .action((action: string, name: string | undefined, flags: { from: string; dir: string; json?: boolean }) => {
      const dir = resolve(flags.dir);
      if (action === 'save') {
        if (!name || !NAME.test(name)) {
          throw new UsageError(
            `baseline save: give a release name of letters, digits, '.', '_' or '-' (got '${name ?? ''}')`,
          );
        }
        const fix = "run 'ceilingbench run' first or pass --from <ceilingbench.json>";
        const read = readReport(readJsonFile(flags.from, z.unknown(), fix));
        for (const line of read.setAside) io.stderr(`ceilingbench: warning: ${flags.from}: ${line}\n`);
        if (!read.success) {
          const issue = read.error.issues[0];
          throw new UsageError(`${flags.from}: ${issue.path.join('.') || '(root)'}: ${issue.message} — ${fix}`);
        }
        const report = read.data;
        const baseline = baselineSchema.parse(baselineFromReport(report, name));
        mkdirSync(dir, { recursive: true });
        const path = join(dir, `${name}.json`);
        writeFileSync(path, `${JSON.stringify(baseline, null, 2)}\n`);
        io.stdout(flags.json ? `${JSON.stringify({ saved: path })}\n` : `saved baseline '${name}' to ${path}\n`);
        return 0;
      }
      if (action === 'history') {
        const baselines = loadBaselineDir(dir, (line) => io.stderr(`ceilingbench: warning: ${line}\n`));
        if (flags.json) io.stdout(`${JSON.stringify(baselines, null, 2)}\n`);
        else io.stdout(baselines.length === 0 ? `no baselines in ${dir}\n` : historyTable(baselines));
        return 0;
      }
      throw new UsageError(`baseline: unknown action '${action}'; use 'baseline save <name>' or 'baseline history'`);
    });
};
