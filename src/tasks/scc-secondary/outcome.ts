import type { CountOutcome } from '../outcome.js';

/**
 * Both secondary plugins report a `count`-family outcome (the family the SCC project and the sim's counting
 * knobs key on). Their rich per-field scores live in the assay records; the outcome condenses them:
 * `exact` = every graded field right, `inexact` = a JSON object with at least one wrong field, `unparsed` =
 * no JSON object (or no count where one is required). `format` is `strict-json` | `json-in-text` | `no-json`.
 */
export function fieldOutcome(args: {
  expected: number;
  parsed: number | null;
  parseable: boolean;
  strictJson: boolean;
  failures: string[];
}): CountOutcome {
  const { expected, parsed, parseable, strictJson, failures } = args;
  const format = !parseable ? 'no-json' : strictJson ? 'strict-json' : 'json-in-text';
  const relativeError = parsed === null || expected <= 0 ? null : Math.abs(parsed - expected) / expected;
  const kind = !parseable ? 'unparsed' : failures.length === 0 ? 'exact' : 'inexact';
  return {
    family: 'count',
    kind,
    expected,
    parsed,
    relativeError,
    format,
    kStar: -1,
    tfbc: false,
    issues: parseable ? failures : ['no JSON object in the response', ...failures],
  };
}
