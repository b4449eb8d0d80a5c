import type { SweepDesign } from '../config/design.js';
import { CROSS_SUBJECT_GATE_KEYS, type GateValue, type NotWorseThanGate, type ProjectGates } from '../config/schema.js';
import { gatesFor, normalizeThreshold } from '../gates/index.js';
import { normalizeNotWorseThan } from '../gates/normalize.js';
import { notWorseShortfall } from '../leaderboard/not-worse.js';
import { DEFAULT_GATE_ALPHA, DEFAULT_GATE_MARGIN } from '../schema/gate.js';
import type { PlanCell, PlanProject, PlanRange } from '../schema/plan.js';
import { boundTestPower, rateTestTrials } from '../stats/rate-test.js';
import {
  COLLAPSE_STEP,
  rateTrials,
  retentionInformation,
  retentionTrialsPerCell,
  twoRateTrials,
} from '../stats/sample-size.js';
import {
  formatGateErrors,
  retentionGateErrors,
  SEQUENTIAL_BATCH,
  SEQUENTIAL_MAX_FACTOR,
  type TokensPerCall,
  tokenCount,
} from './gate-errors.js';

/**
 * Per configured threshold gate of a planned project: how many trials tell its threshold from a stated margin at
 * 95% confidence and 80% power (src/stats/sample-size.ts; docs/gates.md#sample-size), beside the trials planned. A
 * gate planned with fewer can pass or fail by luck; the gate line then says "undecided at this sample size".
 */

/** The margin `plan` states when none is given: in p_d (and in the TFBC rate). */
export { DEFAULT_GATE_MARGIN } from '../schema/gate.js';

const range = (levels: readonly number[]) =>
  levels.length === 1 ? `N=${levels[0]}` : `N=${levels[0]}…${levels[levels.length - 1]}`;

/**
 * The depths and the trials per cell of a project's sweep grids (retention analyses only hold depths), and the
 * tokens of one call averaged over the depths (null when a depth has no call left to send: all cached).
 */
function gridOf(project: PlanProject): {
  levels: number[];
  trials: number | null;
  tokensPerCall: TokensPerCall | null;
} {
  const cells = project.units.filter((u) => u.kind === 'grid' || u.kind === 'adaptive').flatMap((u) => u.cells);
  const levels = [...new Set(cells.map((c) => c.level))].sort((a, b) => a - b);
  const perCell = [...new Set(cells.map((c) => c.trials))];
  return { levels, trials: perCell.length === 1 ? (perCell[0] ?? null) : null, tokensPerCall: perCallTokens(cells) };
}

function perCallTokens(cells: readonly PlanCell[]): TokensPerCall | null {
  const levels = [...new Set(cells.map((c) => c.level))];
  if (levels.length === 0) return null;
  let expected = 0;
  let high = 0;
  for (const level of levels) {
    const at = cells.filter((c) => c.level === level);
    const calls = at.reduce((sum, c) => sum + c.amount.calls.high, 0);
    const tokens = (pick: (r: PlanRange) => number | null) =>
      at.reduce((sum, c) => sum + (pick(c.amount.promptTokens) ?? 0) + (pick(c.amount.outputTokens) ?? 0), 0);
    if (calls === 0 || at.some((c) => c.amount.outputTokens.expected === null)) return null;
    expected += tokens((r) => r.expected) / calls;
    high += tokens((r) => r.high) / calls;
  }
  return { expected: expected / levels.length, high: high / levels.length };
}

function planned(trials: number | null, unit: string): string {
  return trials === null ? '' : ` (planned: ${trials} ${unit})`;
}

/** The sequential design `plan` states: the configured one, else the defaults (src/config/design.ts). */
function sequentialOf(design: SweepDesign | undefined, perCell: number): { batch: number; maxPerCell: number } {
  const own = design?.kind === 'sequential' ? design : undefined;
  return {
    batch: own?.batch ?? SEQUENTIAL_BATCH,
    maxPerCell: own?.maxPerCell ?? SEQUENTIAL_MAX_FACTOR * perCell,
  };
}

/**
 * Per design: the false-alarm rate, the power a margin short, the calls and the tokens (docs/gates.md#error-controlled-gates);
 * none when the grid's trials differ between cells or the margin leaves no alternative.
 */
function designLines(
  grid: ReturnType<typeof gridOf>,
  p0: number,
  margin: number,
  alpha: number,
  design: SweepDesign | undefined,
): string[] {
  if (grid.trials === null || !(p0 - margin > 0 && p0 < 1)) return [];
  const errors = retentionGateErrors(
    grid.levels,
    grid.trials,
    { threshold: p0, margin, alpha },
    sequentialOf(design, grid.trials),
    grid.tokensPerCall,
  );
  return formatGateErrors(errors);
}

function line(
  project: PlanProject,
  gate: string,
  value: number,
  margin: number,
  alpha: number,
  design?: SweepDesign,
): string {
  const head = `${project.name}.${gate} ${value}`;
  if (!project.estimated) return `${head}: your spec files set the depths and trials — the formula needs them`;
  const grid = gridOf(project);
  switch (gate) {
    case 'minRetention': {
      const n = retentionTrialsPerCell(value, margin, grid.levels);
      if (n === null) return `${head}: no figure (threshold outside (0, 1) or no depth planned)`;
      const first = `${head}: about ${n} trials per cell at ${range(grid.levels)} tell p_d ${value} from ${value} ± ${margin}${planned(grid.trials, 'per cell')}`;
      return [first, ...designLines(grid, value, margin, alpha, design)].join('\n  ');
    }
    case 'minHorizon': {
      const p0 = 0.5 ** (1 / value);
      const n = retentionTrialsPerCell(p0, margin, grid.levels);
      if (n === null) return `${head}: no figure (no depth planned)`;
      const first = `${head}: H_0.5 = ${value} is p_d ${p0.toFixed(3)}; about ${n} trials per cell at ${range(grid.levels)} tell it from ± ${margin}${planned(grid.trials, 'per cell')}`;
      return [first, ...designLines(grid, p0, margin, alpha, design)].join('\n  ');
    }
    case 'maxTfbcRate': {
      const n = rateTrials(value, margin);
      if (n === null) return `${head}: no figure`;
      const first = `${head}: about ${n} correct answers tell a TFBC rate of ${value} from ${value} ± ${margin}`;
      const test = { threshold: value, margin, alpha };
      if (!(value + margin < 1)) return first;
      // the test's own count: the fewest correct answers at which it fails an excess of the margin 80% of the time
      const needed = rateTestTrials(test, 0.8);
      return `${first}\n    test (alpha ${alpha}): false alarm at most ${alpha} at the threshold whatever the count; power 0.8 at ${Number((value + margin).toPrecision(6))} from ${needed === null ? 'over 100,000' : `about ${needed}`} correct answers (the run's correct answers decide it; the gate line states it)`;
    }
    case 'collapseNoEarlierThan':
      return `${head}: about ${twoRateTrials(COLLAPSE_STEP)} trials per level see an accuracy step of ${COLLAPSE_STEP} between adjacent levels (λ* is the steepest step)${planned(grid.trials, 'per level')}; no test with stated errors (λ* is an argmax)`;
    case 'minCountingCapacity':
      return `${head}: an adaptive ladder (its answers set its tiers): no trials-per-cell figure; no test with stated errors`;
    default:
      return `${head}: no figure`;
  }
}

/** One line per (planned project, threshold gate), in the plan's project order; none without gates. */
export function gatePowerLines(
  gates: Readonly<Record<string, ProjectGates>>,
  projects: readonly PlanProject[],
  margin = DEFAULT_GATE_MARGIN,
  design?: SweepDesign,
): string[] {
  const lines: string[] = [];
  for (const project of projects) {
    const own = gatesFor(gates, project.name);
    if (own === undefined) continue;
    for (const [gate, raw] of Object.entries(own)) {
      if (raw === undefined || CROSS_SUBJECT_GATE_KEYS.includes(gate)) continue;
      const threshold = normalizeThreshold(raw as GateValue);
      // a gate with evidence 'test' is planned at its own margin; the others at --gate-margin
      const gateMargin = threshold.margin ?? margin;
      lines.push(line(project, gate, threshold.value, gateMargin, threshold.alpha ?? DEFAULT_GATE_ALPHA, design));
    }
    if (own.notWorseThan !== undefined) lines.push(notWorseLine(project, own));
  }
  return lines;
}

/**
 * notWorseThan's errors on the planned grid (docs/gates.md#notworsethan-as-a-test): the false alarm at Δ = −margin is
 * about alpha (the bootstrap bound's coverage); the power one shortfall further is Φ(shortfall/se − z₁₋α) with se
 * the unpaired standard error of Δp̂ for a baseline at p = the project's minRetention threshold (else 0.9, said) and
 * a candidate at p − margin − shortfall: √(1/(n·I(p)) + 1/(n·I(p − …))), I the geometric model's Fisher
 * information per trial at the grid's depths.
 */
function notWorseLine(project: PlanProject, gates: ProjectGates): string {
  const setting = normalizeNotWorseThan(gates.notWorseThan as NotWorseThanGate, gates.margin);
  const head = `${project.name}.notWorseThan ${setting.subject} (margin ${setting.margin}, alpha ${setting.alpha})`;
  const grid = gridOf(project);
  if (!project.estimated || grid.trials === null || grid.levels.length === 0)
    return `${head}: no figure (your spec files set the depths and trials)`;
  const retention = gates.minRetention === undefined ? undefined : normalizeThreshold(gates.minRetention).value;
  const p = retention !== undefined && retention > 0 && retention < 1 ? retention : 0.9;
  const where = retention === p ? 'the minRetention threshold' : 'assumed: no minRetention threshold';
  const shortfall = notWorseShortfall(setting.margin);
  const worse = p - setting.margin - shortfall;
  if (!(worse > 0)) return `${head}: no figure (p_d ${p} minus twice the margin leaves no candidate)`;
  const variance = (q: number) => 1 / (grid.trials as number) / retentionInformation(q, grid.levels);
  const se = Math.sqrt(variance(p) + variance(worse));
  const power = boundTestPower(se, shortfall, setting.alpha);
  const calls = grid.trials * grid.levels.length;
  const tokens =
    grid.tokensPerCall === null ? '' : `, ${tokenCount(calls * grid.tokensPerCall.expected)} tokens expected`;
  return `${head}: false alarm about ${setting.alpha} at Δp_d = −${setting.margin} (the one-sided bootstrap bound); power about ${power.toFixed(3)} at Δp_d = −${Number((setting.margin + shortfall).toPrecision(6))} with ${grid.trials} per cell at ${range(grid.levels)}, the baseline at p_d ${p} (${where}); each subject asks its own grid: ${calls} calls${tokens} here`;
}

/** The plan's section on its gates, '' without any. */
export function formatGatePower(lines: readonly string[], margin: number): string {
  if (lines.length === 0) return '';
  return [
    '',
    `gates: trials needed to decide each one at 95% confidence / 80% power, margin ${margin} (--gate-margin; a gate with evidence 'test' at its own margin; docs/gates.md#sample-size)`,
    ...lines.map((l) => `  ${l}`),
    '',
  ].join('\n');
}
