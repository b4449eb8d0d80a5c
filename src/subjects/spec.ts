import { z } from 'zod';
import { UsageError } from '../errors.js';

/**
 * The subject grammar: `sim:<profile>[?k=v&…]`, `oracle`, `openai:<model>`, `replay:<path>[#model]`,
 * `module:<path>[#export]` (a subject that is a function, src/subjects/function).
 * Parsing is linear (string splitting only) and validated with zod; anything else is a SubjectSpecError,
 * a UsageError with code CB_SUBJECT_SPEC (exit 2).
 */

const FORMS: readonly [form: string, meaning: string][] = [
  ['sim:default[?seed=S&format=F&trunc=T&faultsFrom=L]', 'the documented default mix (README: Subjects)'],
  ['sim:retention?p=P[&recover=R&format=F&trunc=T&faultsFrom=L&seed=S]', 'per-step retention P in [0,1]'],
  ['sim:counting?cc=C[&format=F&trunc=T&faultsFrom=L&seed=S]', 'counting capacity C (a positive integer)'],
  ['oracle', "the task's canonical response (exact)"],
  ['openai:<model>', 'any OpenAI-compatible endpoint (OPENAI_BASE_URL, OPENAI_API_KEY)'],
  ['replay:<path>[#model]', 'a ceilingbench cache dir or JSONL, or an SCC log (.jsonl)'],
  ['module:<path>[#export]', 'a defineSubject() export of a module (path from the project root)'],
  ['function:<id>', 'the defineSubject() subject with this id in ceilingbench.config.ts'],
];
const FORM_WIDTH = Math.max(...FORMS.map(([form]) => form.length)) + 2;

/** The valid subject forms with their meaning, one per line, as the error message lists them. */
export const VALID_SUBJECT_FORMS: readonly string[] = FORMS.map(
  ([form, meaning]) => `${form.padEnd(FORM_WIDTH)}${meaning}`,
);

export class SubjectSpecError extends UsageError {
  constructor(spec: string, problem: string) {
    super(
      `invalid subject '${spec}': ${problem}. Pass --subject or CEILINGBENCH_SUBJECT in one of these forms:\n` +
        VALID_SUBJECT_FORMS.map((form) => `  ${form}`).join('\n'),
      'CB_SUBJECT_SPEC',
    );
    this.name = 'SubjectSpecError';
  }
}

/** A query value: a non-empty decimal string, coerced to a number. */
const numeric = (inner: z.ZodNumber) => z.string().trim().min(1, 'needs a value').transform(Number).pipe(inner);
const rate = numeric(z.number().min(0).max(1));
const seed = numeric(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));
/**
 * `seed` stays undefined when absent so that a run-level seed can fill it (see createSubject). `faultsFrom`: the
 * format and truncation faults apply only at levels ≥ L (a model whose output falls apart at depth); absent, at every
 * level.
 */
const faultRates = {
  format: rate.default(0),
  trunc: rate.default(0),
  faultsFrom: numeric(z.number().finite()).optional(),
  seed: seed.optional(),
};

export const simDefaultParamsSchema = z.strictObject({ ...faultRates });
export const simRetentionParamsSchema = z.strictObject({ p: rate, recover: rate.default(0), ...faultRates });
export const simCountingParamsSchema = z.strictObject({ cc: numeric(z.number().int().positive()), ...faultRates });

export type SimSpec =
  | { kind: 'sim'; profile: 'default'; params: z.infer<typeof simDefaultParamsSchema> }
  | { kind: 'sim'; profile: 'retention'; params: z.infer<typeof simRetentionParamsSchema> }
  | { kind: 'sim'; profile: 'counting'; params: z.infer<typeof simCountingParamsSchema> };

export type SubjectSpec =
  | SimSpec
  | { kind: 'oracle' }
  | { kind: 'openai'; model: string }
  | { kind: 'replay'; path: string; model?: string }
  /** `module:<path>[#export]`: a `defineSubject` export (default `default`), its path relative to the project root. */
  | { kind: 'function'; source: 'module'; path: string; exportName: string }
  /** `function:<id>`: the `defineSubject` subject of that id in the configuration file's `subject`/`subjects`. */
  | { kind: 'function'; source: 'config'; id: string };

const simParamSchemas = {
  default: simDefaultParamsSchema,
  retention: simRetentionParamsSchema,
  counting: simCountingParamsSchema,
} as const;

function parseQuery(spec: string, query: string): Record<string, string> {
  const params: Record<string, string> = {};
  if (query === '') return params;
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new SubjectSpecError(spec, `'${pair}' is not a key=value pair`);
    const key = pair.slice(0, eq);
    if (key in params) throw new SubjectSpecError(spec, `parameter '${key}' is given twice`);
    params[key] = pair.slice(eq + 1);
  }
  return params;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? `'${issue.path.join('.')}'` : 'parameters';
      return issue.code === 'unrecognized_keys'
        ? `unknown parameter(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`
        : `${where}: ${issue.message}`;
    })
    .join('; ');
}

function parseSim(spec: string, rest: string): SimSpec {
  const q = rest.indexOf('?');
  const profile = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 ? '' : rest.slice(q + 1);
  if (!(profile in simParamSchemas)) {
    throw new SubjectSpecError(spec, `unknown sim profile '${profile}' (use default, retention or counting)`);
  }
  const name = profile as keyof typeof simParamSchemas;
  const result = simParamSchemas[name].safeParse(parseQuery(spec, query));
  if (!result.success) throw new SubjectSpecError(spec, describeIssues(result.error));
  return { kind: 'sim', profile: name, params: result.data } as SimSpec;
}

/** Parses a subject string; throws SubjectSpecError (a UsageError: exit 2) listing the valid forms. */
export function parseSubjectSpec(spec: string): SubjectSpec {
  const text = spec.trim();
  if (text === 'oracle') return { kind: 'oracle' };
  const colon = text.indexOf(':');
  if (colon < 0) throw new SubjectSpecError(spec, 'unknown form');
  const scheme = text.slice(0, colon);
  const rest = text.slice(colon + 1);
  switch (scheme) {
    case 'sim':
      return parseSim(spec, rest);
    case 'openai': {
      if (rest === '' || /\s/.test(rest)) throw new SubjectSpecError(spec, 'the model name is empty or has spaces');
      return { kind: 'openai', model: rest };
    }
    case 'replay': {
      const hash = rest.lastIndexOf('#');
      const path = hash < 0 ? rest : rest.slice(0, hash);
      const model = hash < 0 ? undefined : rest.slice(hash + 1);
      if (path === '') throw new SubjectSpecError(spec, 'the replay path is empty');
      if (model === '') throw new SubjectSpecError(spec, "the model after '#' is empty");
      return model === undefined ? { kind: 'replay', path } : { kind: 'replay', path, model };
    }
    case 'module': {
      const hash = rest.lastIndexOf('#');
      const path = (hash < 0 ? rest : rest.slice(0, hash)).trim();
      const exportName = hash < 0 ? 'default' : rest.slice(hash + 1);
      if (path === '') throw new SubjectSpecError(spec, 'the module path is empty');
      if (!/^[A-Za-z_$][\w$]*$/.test(exportName)) {
        throw new SubjectSpecError(spec, `'${exportName}' after '#' is not an export name`);
      }
      return { kind: 'function', source: 'module', path, exportName };
    }
    case 'function': {
      if (!/^[A-Za-z0-9._:/@+-]+$/.test(rest)) {
        throw new SubjectSpecError(spec, 'the id is empty or holds characters other than letters, digits and ._:/@+-');
      }
      return { kind: 'function', source: 'config', id: rest };
    }
    default:
      throw new SubjectSpecError(spec, `unknown kind '${scheme}'`);
  }
}
