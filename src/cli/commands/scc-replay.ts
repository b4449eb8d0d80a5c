import { access, mkdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { plainTable } from '../../assays/scc/plain-table.js';
import { replaySccLogs, type SccReplayRow } from '../../assays/scc/replay.js';
import {
  sccLeaderboardMarkdown,
  sccLeaderboardText,
  sccReplayLeaderboard,
} from '../../assays/scc/replay-leaderboard.js';
import { auditTable, FORMAT_TITLES } from '../../tasks/count/audit.js';
import type { RegisterCommand } from '../command.js';
import { EXIT, UsageError } from '../errors.js';
import { COMMAND_HELP } from './table.js';

interface SccReplayFlags {
  trials?: string;
  summary?: string;
  model?: string;
  json?: boolean;
  out?: string;
  concurrency?: string | number;
}

async function requireFile(flag: string, path: string | undefined): Promise<string> {
  if (typeof path !== 'string' || path === '') {
    throw new UsageError(
      `--${flag} is required: pass the path of the run's ${flag === 'trials' ? 'trial log (.jsonl)' : 'summary (.json)'}`,
    );
  }
  try {
    await access(path);
  } catch {
    throw new UsageError(`--${flag}: cannot read '${path}'; check the path`);
  }
  return path;
}

const show = (value: number | boolean | null) => (value === null ? '—' : String(value));

const ourCc = (r: SccReplayRow) => (r.cc === null ? '—' : r.skipped ? `${r.cc} (skipped)` : String(r.cc));

const publishedCell = (p: SccReplayRow['published']) =>
  p === null ? '—' : `${p.cc}/${show(p.ccUpper)}/${show(p.bounded)}${p.skipped ? ' (skipped)' : ''}`;

function table(rows: SccReplayRow[]): string {
  const header = ['model', 'cc', 'upper', 'bounded', 'published cc/upper/bounded', 'match', 'calls', 'full tiers'];
  const lines = rows.map((r) => [
    r.model,
    ourCc(r),
    show(r.ccUpper),
    show(r.bounded),
    publishedCell(r.published),
    r.error !== null ? 'ERROR' : r.match ? 'yes' : 'NO',
    String(r.calls),
    String(r.callsFullTiers),
  ]);
  return plainTable(header, lines).join('\n');
}

function auditSummary(rows: SccReplayRow[]): string {
  const table = auditTable(
    rows.flatMap((r) =>
      r.formatAudit.flatMap((row) =>
        Array.from({ length: row.cases }, (_, i) => ({
          model: r.model,
          category: row.category,
          parsed: i < row.parsed,
        })),
      ),
    ),
  );
  const total = table.reduce((s, r) => s + r.cases, 0);
  const flagged = table.filter((r) => r.category !== 'single-integer');
  const lines = table.map(
    (r) => `  ${FORMAT_TITLES[r.category]}: ${r.cases} cases, ${r.models} models, ${r.parsed} parsed`,
  );
  const cases = flagged.reduce((s, r) => s + r.cases, 0);
  const parsed = flagged.reduce((s, r) => s + r.parsed, 0);
  return [...lines, `  outside the strict single-integer form: ${cases} of ${total}, ${parsed} still parsed`].join(
    '\n',
  );
}

/** `ceilingbench scc-replay`: runs our SCC ladder on released logs and checks it against the published CCs. */
export const registerSccReplay: RegisterCommand = (cli, io) => {
  cli
    .command(COMMAND_HELP['scc-replay'].usage, COMMAND_HELP['scc-replay'].description)
    .option('--trials <jsonl>', 'Trial log, one JSON object per trial (closed.jsonl format)')
    .option('--summary <json>', 'Per-model summary with inferred_seed and published CC (closed.summary.json format)')
    .option('--model <model>', 'Replay only this model')
    .option('--concurrency <n>', 'Trials in flight per tier in our early-decision run (default 4)')
    .option('--json', 'Print the rows as JSON')
    .option('--out <dir>', 'Write scc-replay.json (rows and CC leaderboard) and scc-leaderboard.md into this folder')
    .action(async (flags: SccReplayFlags) => {
      const trials = await requireFile('trials', flags.trials);
      const summary = await requireFile('summary', flags.summary);
      let concurrency: number | undefined;
      if (flags.concurrency !== undefined) {
        concurrency = Number(flags.concurrency);
        if (!Number.isInteger(concurrency) || concurrency < 1) {
          throw new UsageError(`--concurrency: '${flags.concurrency}' is not an integer ≥ 1`);
        }
      }
      let rows: SccReplayRow[];
      try {
        rows = await replaySccLogs(trials, summary, flags.model === undefined ? undefined : String(flags.model), {
          concurrency,
        });
      } catch (error) {
        throw new UsageError(error instanceof Error ? error.message : String(error));
      }
      const matched = rows.filter((r) => r.match).length;
      const failed = rows.filter((r) => r.error !== null);
      const calls = rows.reduce((sum, r) => sum + r.calls, 0);
      const full = rows.reduce((sum, r) => sum + r.callsFullTiers, 0);
      const leaderboard = sccReplayLeaderboard(rows, basename(trials));
      const written: string[] = [];
      if (flags.out !== undefined) {
        const dir = resolve(String(flags.out));
        await mkdir(dir, { recursive: true });
        const json = join(dir, 'scc-replay.json');
        const md = join(dir, 'scc-leaderboard.md');
        await writeFile(json, `${JSON.stringify({ trials, summary, rows, leaderboard }, null, 2)}\n`);
        await writeFile(md, sccLeaderboardMarkdown(leaderboard, `SCC leaderboard: ${basename(trials)}`));
        written.push(json, md);
      }
      if (flags.json) {
        io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
      } else {
        io.stdout(`${table(rows)}\n\n`);
        io.stdout(
          `CC leaderboard (ranked by our ladder's CC, beside the published CC):\n${sccLeaderboardText(leaderboard)}\n\n`,
        );
        io.stdout(`match: ${matched}/${rows.length} models (cc, upper bound, bounded, skipped)\n`);
        if (failed.length > 0) io.stdout(`not replayed: ${failed.length} of ${rows.length} models (errors below)\n`);
        const saved = full - calls;
        const share = full > 0 ? ((100 * saved) / full).toFixed(1) : '0.0';
        io.stdout(
          `calls: ${calls} with our schedule (early decision, largest first, preflight when needed), ${full} with full tiers — ${saved} saved (${share}%)\n`,
        );
        const tokens = rows.reduce((sum, r) => sum + r.tokensSaved, 0);
        io.stdout(`output tokens of the trials not run: ${tokens}\n`);
        io.stdout(`\nformat audit (Table S2 categories), all responses:\n${auditSummary(rows)}\n`);
        for (const r of rows.filter((row) => row.discrepancies.length > 0)) {
          io.stdout(`${r.model}: ${r.discrepancies.join('; ')}\n`);
        }
        for (const r of failed) io.stdout(`${r.model}: ERROR ${r.error}\n`);
        for (const file of written) io.stdout(`wrote ${file}\n`);
      }
      // Every row is printed first; then a model that could not be replayed is malformed input (2), a
      // replayed model that departs from the published values is a failed check (1).
      if (failed.length > 0) {
        io.stderr(
          `ceilingbench: scc-replay: ${failed.length} of ${rows.length} models could not be replayed: ${failed.map((r) => r.model).join(', ')}\n`,
        );
        return EXIT.usage;
      }
      return matched === rows.length ? EXIT.ok : EXIT.gateFailed;
    });
};
