import { z } from 'zod';
import { CountInputError } from '../errors.js';
import type { DepthCount } from './depth-counts.js';

export { CountInputError };

const EXAMPLE_JSON = '[{"depth":5,"correct":39,"n":40}, …]';
const EXAMPLE_CSV = 'depth,correct,n';

const depthCountSchema = z
  .object({
    depth: z.number().int().min(1),
    correct: z.number().int().min(0),
    n: z.number().int().min(0),
  })
  .strict()
  .refine((c) => c.correct <= c.n, { message: 'correct must not exceed n', path: ['correct'] });

function describeIssue(where: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const field = issue.path.length > 0 ? `field '${issue.path.join('.')}'` : 'value';
  return `${where}, ${field}: ${issue.message}`;
}

function checkUniqueDepths(rows: { count: DepthCount; where: string }[]): DepthCount[] {
  if (rows.length === 0) throw new CountInputError(`no counts found; give one row per depth, e.g. ${EXAMPLE_JSON}`);
  const seen = new Map<number, string>();
  for (const { count, where } of rows) {
    const earlier = seen.get(count.depth);
    if (earlier) {
      throw new CountInputError(`depth ${count.depth} appears twice (${earlier} and ${where}); give one row per depth`);
    }
    seen.set(count.depth, where);
  }
  return rows.map((r) => r.count);
}

function parseJson(text: string): DepthCount[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CountInputError(`input is not valid JSON (${(error as Error).message}); expected ${EXAMPLE_JSON}`);
  }
  if (!Array.isArray(value)) throw new CountInputError(`JSON input must be an array like ${EXAMPLE_JSON}`);
  const rows = value.map((entry, index) => {
    const where = `entry ${index + 1}`;
    const parsed = depthCountSchema.safeParse(entry);
    if (!parsed.success) {
      throw new CountInputError(
        `${describeIssue(where, parsed.error)}; each entry must be {"depth": integer ≥ 1, "correct": integer, "n": integer ≥ correct}`,
      );
    }
    return { count: parsed.data, where };
  });
  return checkUniqueDepths(rows);
}

const DIGITS = /^[0-9]+$/;

function parseCsv(text: string): DepthCount[] {
  const rows: { count: DepthCount; where: string }[] = [];
  let sawContent = false;
  text.split('\n').forEach((rawLine, index) => {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `line ${index + 1}`;
    const cells = line.split(',').map((cell) => cell.trim());
    const isFirst = !sawContent;
    sawContent = true;
    if (isFirst && cells.map((c) => c.toLowerCase()).join(',') === EXAMPLE_CSV) return; // optional header
    if (cells.length !== 3) {
      throw new CountInputError(`${where}: expected 3 comma-separated values (${EXAMPLE_CSV}), found ${cells.length}`);
    }
    const names = ['depth', 'correct', 'n'] as const;
    cells.forEach((cell, i) => {
      if (!DIGITS.test(cell)) {
        throw new CountInputError(
          `${where}, field '${names[i]}': '${cell.slice(0, 40)}' is not a non-negative integer`,
        );
      }
    });
    const parsed = depthCountSchema.safeParse({
      depth: Number(cells[0]),
      correct: Number(cells[1]),
      n: Number(cells[2]),
    });
    if (!parsed.success) throw new CountInputError(`${describeIssue(where, parsed.error)}; rows are ${EXAMPLE_CSV}`);
    rows.push({ count: parsed.data, where });
  });
  return checkUniqueDepths(rows);
}

/**
 * Reads per-depth counts from JSON (an array of {depth, correct, n}) or CSV (`depth,correct,n`, header optional,
 * blank and `#` lines ignored). The format is chosen by the first non-blank character: `[` or `{` means JSON.
 * Runs in linear time; throws CountInputError naming the line or entry, the field and the fix.
 */
export function parseCountInput(text: string): DepthCount[] {
  const body = text.replace(/^\uFEFF/, '');
  const first = body.trimStart()[0];
  return first === '[' || first === '{' ? parseJson(body) : parseCsv(body);
}
