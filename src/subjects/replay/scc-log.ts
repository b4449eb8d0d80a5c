import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { SccFatalError } from '../../errors.js';
import type { Subject, TrialRequest, TrialResponse } from '../subject.js';

/**
 * Replays the authors' released SCC runs (docs/spec/scc.md §15): one JSON line per trial. The subject serves the
 * recorded response for (evaluation index, trial index) of the ladder's request, answering "cut at the
 * budget, no integer" while the requested budget is below the recorded final one (docs/spec/scc.md §15.4), so the
 * ladder's own budget doubling replays as it happened.
 */
export const sccLogTrialSchema = z.object({
  model: z.string().min(1),
  api: z.string(),
  phase: z.enum(['preflight', 'expansion', 'refine']),
  evaluation_index: z.number().int().min(-1),
  trial_index: z.number().int().nonnegative(),
  center_length: z.number().int().positive(),
  sample_low: z.number().int(),
  sample_high: z.number().int(),
  expected: z.number().int(),
  raw_response: z.string(),
  raw_response_truncated: z.boolean().optional().default(false),
  raw_response_tail: z.string().nullable().optional(),
  parsed: z.number().nullable(),
  output_tokens: z.number().int().nullable().optional(),
  input_tokens: z.number().int().nullable().optional(),
  response_status: z.string(),
  response_detail: z.string().nullable().optional(),
  retry_count: z.number().int().nonnegative(),
  requested_max_output_tokens: z.number().int().positive(),
  final_max_output_tokens: z.number().int().positive(),
});
export type SccLogTrial = z.infer<typeof sccLogTrialSchema>;

export interface SccLogModel {
  model: string;
  api: string;
  /** In file order. */
  trials: SccLogTrial[];
  /** The first of this model's lines that did not validate (file:line, field, fix); null when all did. */
  error: string | null;
}

const modelOf = (json: unknown): string | null => {
  const model = typeof json === 'object' && json !== null ? (json as { model?: unknown }).model : undefined;
  return typeof model === 'string' && model !== '' ? model : null;
};

/**
 * Parses a closed.jsonl-style log. A line that is not JSON or names no model is an error for the whole file
 * (naming the file, the line and the fix); a line of a named model that does not validate marks only that
 * model (`error`), so the other models still replay.
 */
export function parseSccLog(text: string, source = 'SCC log'): Map<string, SccLogModel> {
  const models = new Map<string, SccLogModel>();
  const entry = (model: string, api: string) => {
    const found: SccLogModel = models.get(model) ?? { model, api, trials: [], error: null };
    models.set(model, found);
    return found;
  };
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const where = `${source}:${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `${where}: not a complete JSON object (${reason}); the log is truncated or corrupt — re-export it`,
      );
    }
    const parsed = sccLogTrialSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const problem = `${where}: field '${issue.path.join('.')}' ${issue.message}; fix or drop this line`;
      const model = modelOf(json);
      if (model === null) throw new Error(problem);
      const found = entry(model, '');
      found.error ??= problem;
      continue;
    }
    const trial = parsed.data;
    const found = entry(trial.model, trial.api);
    if (found.api === '') found.api = trial.api;
    found.trials.push(trial);
  }
  if (models.size === 0) throw new Error(`${source}: no trials; pass a closed.jsonl-style SCC log`);
  return models;
}

export async function loadSccLog(path: string): Promise<Map<string, SccLogModel>> {
  return parseSccLog(await readFile(path, 'utf8'), path);
}

/** The recorded text: the stored head, plus the stored tail when the response was cut at 2,000 characters. */
export function recordedText(trial: SccLogTrial): string {
  if (trial.raw_response_truncated && trial.raw_response_tail)
    return `${trial.raw_response}\n[…]\n${trial.raw_response_tail}`;
  return trial.raw_response;
}

const key = (evaluationIndex: number, trialIndex: number) => `${evaluationIndex}:${trialIndex}`;

interface LadderPosition {
  phase: string;
  evaluationIndex: number;
}

function ladderPosition(request: TrialRequest): LadderPosition | null {
  const data = request.instance.data as { tier?: LadderPosition } | undefined;
  const tier = data?.tier;
  return tier && typeof tier.evaluationIndex === 'number' ? tier : null;
}

export function sccLogReplaySubject(log: SccLogModel, spec: string): Subject {
  if (log.error !== null) throw new Error(`${spec}: model '${log.model}' has a malformed line: ${log.error}`);
  const byPosition = new Map(log.trials.map((t) => [key(t.evaluation_index, t.trial_index), t]));
  const tierCenters = new Map(log.trials.map((t) => [t.evaluation_index, t.center_length]));
  const answer = async (request: TrialRequest): Promise<TrialResponse> => {
    if (request.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    const position = ladderPosition(request);
    if (!position)
      throw new SccFatalError(
        `${spec}: the request carries no ladder position; SCC logs replay only under the SCC ladder`,
      );
    const trial = byPosition.get(key(position.evaluationIndex, request.trialIndex));
    const where = `${spec}: ${position.phase} evaluation ${position.evaluationIndex} trial ${request.trialIndex}`;
    if (!trial && tierCenters.get(position.evaluationIndex) === request.instance.level) {
      // The logged runner stopped this tier early (its abort rule); a scheduler that issues more trials in
      // parallel gets missing data here, never an invented answer. Such a tier already fails on its records.
      const error = 'not recorded: the logged run stopped this tier before this trial';
      return { kind: 'error', error, latencyMs: 0, attempts: 0 };
    }
    if (!trial)
      throw new SccFatalError(
        `${where} is not in the log: the ladder left the recorded path (wrong seed or draw mode?)`,
      );
    if (trial.center_length !== request.instance.level || trial.expected !== request.instance.answer) {
      throw new SccFatalError(
        `${where}: the ladder asks centre ${request.instance.level}, target ${request.instance.answer}; the log has ` +
          `centre ${trial.center_length}, target ${trial.expected} (wrong seed or draw mode?)`,
      );
    }
    const usage =
      trial.output_tokens != null
        ? { promptTokens: trial.input_tokens ?? 0, completionTokens: trial.output_tokens }
        : null;
    const common = { latencyMs: 0, cacheHit: false, attempts: 1 };
    if (request.maxOutputTokens < trial.final_max_output_tokens) {
      // An earlier attempt of the doubling: cut at the budget without an integer. For an error record the
      // stored text is the attempt just before the failing call (docs/spec/scc.md §6.3), so serve it there.
      const lastBeforeError =
        trial.response_status === 'error' && request.maxOutputTokens * 2 >= trial.final_max_output_tokens;
      return {
        kind: 'answer',
        text: lastBeforeError ? recordedText(trial) : '',
        finishReason: 'length',
        usage: null,
        ...common,
      };
    }
    const detail = trial.response_detail ?? '';
    if (trial.response_status === 'error')
      return { kind: 'error', error: detail || 'error', latencyMs: 0, attempts: 1 };
    const finishReason =
      trial.response_status === 'incomplete'
        ? detail.startsWith('max_output_tokens')
          ? 'length'
          : 'content_filter'
        : 'stop';
    return { kind: 'answer', text: recordedText(trial), finishReason, usage, ...common };
  };
  return {
    identity: { spec, kind: 'replay', model: log.model, parameters: { trials: log.trials.length, api: log.api } },
    answer,
  };
}

/** `replay:<path>#<model>` for SCC logs: the subject of one model of a closed.jsonl-style log. */
export async function createSccLogReplaySubject(path: string, model?: string): Promise<Subject> {
  const models = await loadSccLog(path);
  const names = [...models.keys()];
  const chosen = model ?? (names.length === 1 ? names[0] : undefined);
  if (chosen === undefined) {
    throw new Error(`${path} holds ${names.length} models; name one with '#<model>', e.g. replay:${path}#${names[0]}`);
  }
  const log = models.get(chosen);
  if (!log) throw new Error(`model '${chosen}' is not in ${path}; it has: ${names.join(', ')}`);
  return sccLogReplaySubject(log, `replay:${path}#${chosen}`);
}
