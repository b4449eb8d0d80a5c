import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { CeilingbenchError } from '../../src/errors.js';
import { RUN_STATES, runBlockSchema } from '../../src/schema/report.js';
import { redact } from '../../src/subjects/redact.js';

/**
 * The report set's manifest, `ceilingbench.set.json` beside the reports: which run wrote the set, whether that run
 * finished, and the files it wrote with their sha256. It is what makes two promises checkable:
 * - only ceilingbench's own files are removed: a new run removes the files the manifest lists (and only while their
 *   bytes are what ceilingbench wrote); a folder holding files of the set's names that no manifest lists — the
 *   user's own `index.html` or `summary.md` in `--out docs` — is refused, unless they are a set written before
 *   the manifest existed (its ceilingbench.json is a ceilingbench report);
 * - a run that did not finish is visible: the manifest says `state: 'running'` from the start of a benchmark run
 *   until its reports are written, so a run killed in between (an OOM kill, a cancelled CI job) leaves a set whose
 *   manifest names a run that never finished; `report` and `compare` flag it, and so does a CI upload of the folder.
 */
export const REPORT_SET_MANIFEST = 'ceilingbench.set.json';

/** Every file a run's report set may hold: writeReportSet's and the HTML report's (reporters/projections/html). */
export const REPORT_SET_FILES = [
  'ceilingbench.json',
  'ceilingbench.schema.json',
  'junit.xml',
  'summary.md',
  'index.html',
  'charts.vl.json',
] as const;

export { RUN_STATES };

export const reportSetManifestSchema = z.object({
  format: z.literal('ceilingbench-report-set/1'),
  /** The run that wrote (or is writing) the set: its start time and process id. */
  run: z.object({ id: z.string(), state: z.enum(RUN_STATES), startedAt: z.string() }),
  /** The files of the set and their sha256, as ceilingbench wrote them; while running, the previous run's. */
  files: z.array(z.object({ name: z.string(), sha256: z.string() })),
});
export type ReportSetManifest = z.infer<typeof reportSetManifestSchema>;

/** `--out` holds files of the report set's names that ceilingbench did not write: nothing is written or removed. */
export class ForeignReportFilesError extends CeilingbenchError {
  constructor(outDir: string, names: readonly string[]) {
    super(
      'CB_REPORT_FOLDER',
      `the report folder ${outDir} holds ${names.join(', ')}, which ceilingbench did not write (no ${REPORT_SET_MANIFEST} lists ` +
        `them, or they changed since) — nothing was removed or overwritten; choose another folder (--out, 'out' in ` +
        'ceilingbench.config.ts) or move those files',
    );
    this.name = 'ForeignReportFilesError';
  }
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The manifest in `outDir`, or undefined when there is none or it cannot be read (then nothing is trusted). */
export function readReportSetManifest(outDir: string): ReportSetManifest | undefined {
  try {
    const parsed = reportSetManifestSchema.safeParse(
      JSON.parse(readFileSync(join(outDir, REPORT_SET_MANIFEST), 'utf8')),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function writeManifest(outDir: string, manifest: ReportSetManifest): void {
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, REPORT_SET_MANIFEST);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(reportSetManifestSchema.parse(manifest), null, 2)}\n`);
  renameSync(tmp, path);
}

/** A set written before the manifest existed: its ceilingbench.json is a ceilingbench report. */
function isLegacySet(outDir: string): boolean {
  try {
    const json = JSON.parse(readFileSync(join(outDir, 'ceilingbench.json'), 'utf8')) as { tool?: { name?: unknown } };
    return json?.tool?.name === 'ceilingbench';
  } catch {
    return false;
  }
}

const present = (outDir: string, name: string): boolean => {
  try {
    lstatSync(join(outDir, name));
    return true;
  } catch {
    return false;
  }
};

/**
 * The files of the set's names in `outDir` that ceilingbench may replace: those the manifest lists with the bytes
 * it wrote, or a legacy set's. Throws ForeignReportFilesError, changing nothing, when any other is there.
 */
export function ownReportFiles(outDir: string): string[] {
  const names = REPORT_SET_FILES.filter((name) => present(outDir, name));
  if (names.length === 0) return [];
  const manifest = readReportSetManifest(outDir);
  if (!manifest) {
    if (isLegacySet(outDir)) return names;
    throw new ForeignReportFilesError(outDir, names);
  }
  const listed = new Map(manifest.files.map((f) => [f.name, f.sha256]));
  const foreign = names.filter((name) => {
    const path = join(outDir, name);
    return listed.get(name) === undefined || !lstatSync(path).isFile() || sha256(path) !== listed.get(name);
  });
  if (foreign.length > 0) throw new ForeignReportFilesError(outDir, foreign);
  return names;
}

/**
 * Marks the folder's set as superseded by a run that has started: `state: 'running'`, the previous files still
 * listed (they are what the folder holds). A folder with foreign files is left alone (the write refuses it later).
 */
export function markRunStarted(outDir: string, run: { id: string; startedAt: string }): void {
  let files: ReportSetManifest['files'];
  try {
    files = ownReportFiles(outDir).map((name) => ({ name, sha256: sha256(join(outDir, name)) }));
  } catch (error) {
    if (error instanceof ForeignReportFilesError) return;
    throw error;
  }
  // an empty folder holds no earlier report to be taken for this run's: nothing to mark
  if (files.length === 0 && !readReportSetManifest(outDir)) return;
  writeManifest(outDir, { format: 'ceilingbench-report-set/1', run: { ...run, state: 'running' }, files });
}

/**
 * Puts back the manifest a run replaced at its start when it writes no report set after all (no benchmark ran):
 * the folder's set is the previous one, finished as it was.
 */
export function restoreManifest(outDir: string, previous: ReportSetManifest | undefined): void {
  if (previous) writeManifest(outDir, previous);
  else rmSync(join(outDir, REPORT_SET_MANIFEST), { force: true });
}

/** Removes the previous set's own files (throws, removing nothing, when the folder holds foreign ones). */
export function clearReportSet(outDir: string): void {
  for (const name of ownReportFiles(outDir)) rmSync(join(outDir, name), { force: true });
}

/**
 * The last line of defence of "never a key in a report": every file of the set rewritten without the run's secrets
 * (src/subjects/redact.ts: whole secrets in any case and JSON/URL/HTML escaping; partial echoes were redacted where
 * a provider's text entered) before the set is sealed.
 */
export function scrubReportSet(outDir: string, secrets: readonly string[]): void {
  if (secrets.length === 0) return;
  for (const name of REPORT_SET_FILES) {
    const path = join(outDir, name);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    const clean = redact(text, secrets, { partial: false });
    if (clean !== text) {
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, clean);
      renameSync(tmp, path);
    }
  }
}

/** Records the set as written: the run, its state, and each file present with its sha256. */
export function sealReportSet(
  outDir: string,
  run: { id: string; startedAt: string },
  state: 'finished' | 'interrupted' = 'finished',
): void {
  const files = REPORT_SET_FILES.filter((name) => existsSync(join(outDir, name))).map((name) => ({
    name,
    sha256: sha256(join(outDir, name)),
  }));
  writeManifest(outDir, { format: 'ceilingbench-report-set/1', run: { ...run, state }, files });
}

/** The run block of the ceilingbench.json at `path` (undefined: none, or the file cannot be read). */
function runBlockAt(path: string): z.infer<typeof runBlockSchema> | undefined {
  try {
    const parsed = runBlockSchema.safeParse((JSON.parse(readFileSync(path, 'utf8')) as { run?: unknown }).run);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a reader of the report at `reportPath` must be told about the run that wrote it: undefined when that run
 * finished (or the report and its set predate the run state), else a sentence naming the run and its state. The
 * report's own run block says whether its run was interrupted (also in a copy outside its folder); the set's
 * manifest beside it says whether a later run started there and did not finish (killed, or still running).
 */
export function unfinishedRunNote(reportPath: string): string | undefined {
  const outDir = dirname(reportPath);
  const run = runBlockAt(reportPath);
  const manifest = readReportSetManifest(outDir);
  if (manifest?.run.state === 'running' && manifest.run.id !== run?.id)
    return (
      `the run ${manifest.run.id} (started ${manifest.run.startedAt}) that last used ${outDir} did not finish ` +
      `(state: running — killed, or still running): the reports there are an earlier run's, or none`
    );
  const interrupted =
    run?.state === 'interrupted' ? run : manifest?.run.state === 'interrupted' ? manifest.run : undefined;
  if (!interrupted) return undefined;
  const cut = run?.cut ? `; ${run.cut.inFlight + run.cut.notSent} trial(s) were cut (\`budget\`, missing data)` : '';
  return `the run ${interrupted.id} that wrote ${reportPath} was interrupted: its report holds the trials that finished${cut}`;
}
