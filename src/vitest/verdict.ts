import { hardFailures, VerdictError } from '../gates/index.js';
import type { CeilingbenchMeta } from './meta.js';

/** Why a record says nothing a gate or a reader may use: an insufficient fit, with its reason. */
function insufficiency(record: CeilingbenchMeta['record']): string | undefined {
  if ((record.kind !== 'retention' && record.kind !== 'collapse') || record.status !== 'insufficient') return undefined;
  const reason = record.kind === 'retention' ? record.insufficientReason : undefined;
  return `${record.task} ${record.kind === 'retention' ? 'p_d' : 'λ*'} fit: insufficient data — ${reason ?? 'a cell of the sweep has too many missing trials'}; no estimate is reported`;
}

/**
 * Leaves a test's record on its meta, then fails the test once with every line that makes it fail: each hard
 * gate that failed (its own line), an insufficient fit, an assay that did not finish. Nothing fails: it returns.
 */
export function recordAndJudge(
  task: { meta: { ceilingbench?: CeilingbenchMeta } },
  meta: CeilingbenchMeta,
  incomplete?: string,
): void {
  task.meta.ceilingbench = meta;
  const lines = [
    ...(incomplete ? [incomplete] : []),
    ...[insufficiency(meta.record)].filter((x): x is string => x !== undefined),
    ...hardFailures(meta.gates).map((g) => g.message),
  ];
  if (lines.length > 0) throw new VerdictError(lines);
}
