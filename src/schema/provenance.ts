import { z } from 'zod';
import { MISSING_RULES, type MissingRule } from '../tasks/outcome.js';
import { count } from './common.js';
import { SUBJECT_KINDS, type SubjectIdentity } from './subject.js';

/**
 * Provenance: what produced a report's numbers — who answered (the subject as configured, the model asked for and
 * the model(s) that served, the endpoint's host), under which settings (seed, trials, design, missing-data rule,
 * prompt and reading profiles) and with which tools (ceilingbench's and Vitest's versions). One schema, one builder
 * (`buildProvenance`): ceilingbench.json, summary.md, index.html, junit.xml and `compare` (both sides) read it, and
 * a baseline keeps it. Never a key, a header value or a full URL with its query: the endpoint is its host only.
 */

/** Subjects whose answers come from no live model: the simulator, the oracle, a recording replayed. */
export const OFFLINE_KINDS = ['sim', 'oracle', 'replay'] as const satisfies ReadonlyArray<
  (typeof SUBJECT_KINDS)[number]
>;

export const isOfflineKind = (kind: (typeof SUBJECT_KINDS)[number]): boolean =>
  (OFFLINE_KINDS as readonly string[]).includes(kind);

export const servedModelCountSchema = z.object({ model: z.string(), trials: count });

export const provenanceSubjectSchema = z.object({
  /** The subject as configured (its spec: `openai:gpt-4o`, `sim:default`, `module:./subject.mjs`). */
  label: z.string(),
  kind: z.enum(SUBJECT_KINDS),
  /** sim, oracle or replay: no live model answered. */
  offline: z.boolean(),
  /** The model asked for (null: the subject names none, e.g. the simulator). */
  requestedModel: z.string().nullable(),
  /**
   * The models the provider said served the cells' trials (`response.model`), most trials first, with their trial
   * counts; `servedUnreported` counts the answered trials whose provider named none. Empty: none said.
   */
  servedModels: z.array(servedModelCountSchema),
  servedUnreported: count,
  /** Answered trials a provider's batch answered (`run --batch`: `batch` on the trial); absent when none. */
  batched: count.optional(),
  /** The endpoint's host (`api.openai.com`, `127.0.0.1:8000`); null: no endpoint (sim, oracle, replay, function). */
  endpointHost: z.string().nullable(),
  /**
   * A function (`module:`/`defineSubject`) subject's version: the one the user pinned (`pinned: true`), else the
   * hash of its code (the module and what it imports from the repository). Absent for other kinds.
   */
  code: z.object({ version: z.string(), pinned: z.boolean() }).optional(),
});
export type ProvenanceSubject = z.infer<typeof provenanceSubjectSchema>;

export const provenanceSchema = z.object({
  subjects: z.array(provenanceSubjectSchema),
  /** The run seed (null: the report's records come from runs with different seeds). */
  seed: z.number().int().nullable(),
  /** Trials per cell as configured (null: not known, a report or baseline written before it was kept). */
  trials: z.number().int().positive().nullable(),
  /** The CCB depth design: `grid`, or `adaptive` with its settings (null: not known). */
  design: z.string().nullable(),
  /** Which trials count toward p_d ('paper' or 'release'; null: not known). */
  missingRule: z.enum(MISSING_RULES).nullable(),
  /** A cell with more than this share of its trials missing is insufficient (null: not known). */
  maxMissingFraction: z.number().min(0).max(1).nullable(),
  /**
   * How answers were read (the config's `reading`: 'final', the symmetric rule, or 'authors'; docs/outputs.md);
   * absent in a report written before the option existed. `reasoningDelimiters` counts the configured delimiters
   * beside the built-in ones.
   */
  readingProfile: z.string().optional(),
  reasoningDelimiters: count.nullable(),
  /** The prompt (generation) profiles of the cells and fits, e.g. CCB's `official`. */
  promptProfiles: z.array(z.string()),
  /** ceilingbench's version (null: not known, a baseline written before provenance was kept). */
  packageVersion: z.string().nullable(),
  /** The Vitest that ran it (null: not known). */
  vitestVersion: z.string().nullable(),
});
export type Provenance = z.infer<typeof provenanceSchema>;

/** What only the run's configuration knows: absent in a report or baseline written before provenance was kept. */
export interface ProvenanceSettings {
  trials: number;
  design: string;
  missingRule: MissingRule;
  maxMissingFraction: number;
  reasoningDelimiters: number;
  vitestVersion: string | null;
  readingProfile?: string;
}

/** The records the builder reads: cells with their trials (served models), fits (profile, missing rule). */
export interface ProvenanceInput {
  subjects: readonly SubjectIdentity[];
  seed: number | null;
  packageVersion: string | null;
  cells?: ReadonlyArray<{
    subject?: string;
    profile: string;
    trials: ReadonlyArray<{ servedModel?: string; batch?: string; outcome: { kind: string } }>;
  }>;
  fits?: ReadonlyArray<{ profile: string; missing: MissingRule }>;
  settings?: ProvenanceSettings;
}

/** Outcomes with no response to have served them (missing data: the provider failed, or nothing was sent). */
const UNANSWERED = new Set(['api', 'budget']);

function hostOf(endpoint: string | undefined): string | null {
  if (!endpoint) return null;
  try {
    return new URL(endpoint).host || null;
  } catch {
    return null;
  }
}

/** A function subject's code identity: `version` pinned by the user, or `codeHash` computed from its code. */
function codeOf(subject: SubjectIdentity): ProvenanceSubject['code'] {
  if (subject.kind !== 'function') return undefined;
  const { codeHash, version, pinned } = subject.parameters;
  if (typeof codeHash === 'string') return { version: codeHash, pinned: false };
  if (version !== undefined) return { version: String(version), pinned: pinned === true };
  return undefined;
}

function subjectOf(
  subject: SubjectIdentity,
  cells: NonNullable<ProvenanceInput['cells']>,
  only: boolean,
): ProvenanceSubject {
  const served = new Map<string, number>();
  let unreported = 0;
  let batched = 0;
  for (const cell of cells) {
    if (!(cell.subject === subject.spec || (only && cell.subject === undefined))) continue;
    for (const trial of cell.trials) {
      if (UNANSWERED.has(trial.outcome.kind)) continue;
      if (trial.batch !== undefined) batched += 1;
      if (trial.servedModel === undefined) unreported += 1;
      else served.set(trial.servedModel, (served.get(trial.servedModel) ?? 0) + 1);
    }
  }
  const code = codeOf(subject);
  return {
    label: subject.spec,
    kind: subject.kind,
    offline: isOfflineKind(subject.kind),
    requestedModel: subject.model ?? null,
    servedModels: [...served]
      .map(([model, trials]) => ({ model, trials }))
      .sort((a, b) => b.trials - a.trials || a.model.localeCompare(b.model)),
    servedUnreported: unreported,
    ...(batched > 0 ? { batched } : {}),
    endpointHost: hostOf(subject.endpoint),
    ...(code ? { code } : {}),
  };
}

/** The one builder: a report's (or a baseline's) provenance from its subjects, records and the run's settings. */
export function buildProvenance(input: ProvenanceInput): Provenance {
  const cells = input.cells ?? [];
  const only = input.subjects.length === 1;
  const s = input.settings;
  const fitRules = [...new Set((input.fits ?? []).map((f) => f.missing))];
  return {
    subjects: [...input.subjects].sort((a, b) => a.spec.localeCompare(b.spec)).map((x) => subjectOf(x, cells, only)),
    seed: input.seed,
    trials: s?.trials ?? null,
    design: s?.design ?? null,
    // without the settings, the rule the fits were counted under, when they agree
    missingRule: s?.missingRule ?? (fitRules.length === 1 ? fitRules[0] : null),
    maxMissingFraction: s?.maxMissingFraction ?? null,
    ...(s?.readingProfile !== undefined ? { readingProfile: s.readingProfile } : {}),
    reasoningDelimiters: s?.reasoningDelimiters ?? null,
    promptProfiles: [...new Set([...cells.map((c) => c.profile), ...(input.fits ?? []).map((f) => f.profile)])].sort(),
    packageVersion: input.packageVersion,
    vitestVersion: s?.vitestVersion ?? null,
  };
}

const known = (value: string | number | null | undefined): string =>
  value === null || value === undefined ? 'not recorded' : String(value);

/** `gpt-4o-2024-08-06 ×38, gpt-4o-mini ×2` (and the trials whose provider named none). */
export function servedText(s: ProvenanceSubject): string {
  const parts = s.servedModels.map((m) => `${m.model} ×${m.trials}`);
  if (s.servedUnreported > 0) parts.push(`not reported ×${s.servedUnreported}`);
  return parts.length > 0 ? parts.join(', ') : 'not reported';
}

/** One subject in a line: label, kind, requested → served, host, code version. */
export function provenanceSubjectText(s: ProvenanceSubject): string {
  const parts = [`${s.label} (${s.kind}${s.offline ? ', offline: no live model' : ''})`];
  if (s.requestedModel !== null || s.servedModels.length > 0)
    parts.push(`model requested ${s.requestedModel ?? '–'}, served ${servedText(s)}`);
  if (s.batched) parts.push(`${s.batched} trial(s) answered through the provider's batch API`);
  if (s.endpointHost) parts.push(`endpoint ${s.endpointHost}`);
  if (s.code)
    parts.push(
      s.code.pinned
        ? `version ${s.code.version} (pinned by the user)`
        : s.code.version.startsWith('sha256:')
          ? `code ${s.code.version}`
          : `version ${s.code.version} (the default: neither pinned nor hashed)`,
    );
  return parts.join(' · ');
}

/** The settings in a line: seed, trials, design, rule, profiles, versions. */
export function provenanceSettingsText(p: Provenance): string {
  return [
    `seed ${p.seed ?? 'mixed'}`,
    `trials ${known(p.trials)}`,
    `design ${known(p.design)}`,
    `missing-data rule ${known(p.missingRule)}${p.maxMissingFraction !== null ? ` (insufficient above ${p.maxMissingFraction})` : ''}`,
    `reading profile ${p.readingProfile ?? 'not recorded'}${p.reasoningDelimiters ? ` + ${p.reasoningDelimiters} reasoning delimiter(s)` : ''}`,
    `prompt profile ${p.promptProfiles.join(', ') || '–'}`,
    `ceilingbench ${known(p.packageVersion)}`,
    `vitest ${known(p.vitestVersion)}`,
  ].join(' · ');
}

/**
 * How strictly the served model must match the requested one (the `servedModel` gate, docs/providers.md):
 * - exact: the same name;
 * - prefix (the default): the served name starts with the requested one, after any `provider/` prefix on either
 *   side — OpenAI answers `gpt-4o` with the dated snapshot `gpt-4o-2024-08-06`, a router names `openai/gpt-4o`;
 *   a gateway falling back to another model, or an alias moved to another family, still fails;
 * - any: not checked.
 */
export const SERVED_MODEL_RULES = ['exact', 'prefix', 'any'] as const;
export type ServedModelRule = (typeof SERVED_MODEL_RULES)[number];
export const DEFAULT_SERVED_MODEL_RULE: ServedModelRule = 'prefix';

const lastSegment = (name: string) => name.slice(name.lastIndexOf('/') + 1).toLowerCase();

export function servedModelMatches(rule: ServedModelRule, requested: string, served: string): boolean {
  if (rule === 'any') return true;
  if (rule === 'exact') return served === requested;
  return (
    served.toLowerCase().startsWith(requested.toLowerCase()) || lastSegment(served).startsWith(lastSegment(requested))
  );
}

/**
 * What a reader must be told about the served models (console and summary.md): a subject served by another model
 * than the one it asked for (any difference, a dated snapshot included: it is said, and the gate decides), or by
 * several models within the run.
 */
export function servedModelNotes(p: Provenance): string[] {
  const notes: string[] = [];
  for (const s of p.subjects) {
    if (s.servedModels.length === 0) continue;
    const answered = s.servedModels.reduce((n, m) => n + m.trials, 0) + s.servedUnreported;
    const other = s.requestedModel === null ? [] : s.servedModels.filter((m) => m.model !== s.requestedModel);
    if (other.length > 0)
      notes.push(
        `served model differs: ${s.label} asked for ${s.requestedModel}, served by ` +
          `${other.map((m) => `${m.model} in ${m.trials} of ${answered} answered trials`).join(', ')}`,
      );
    if (s.servedModels.length > 1)
      notes.push(`served model changed within the run: ${s.label} was served by ${servedText(s)}`);
  }
  return notes;
}
