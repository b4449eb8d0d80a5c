import type { CellResult } from '../../schema/cell.js';
import type { CollapseFit, RetentionFit } from '../../schema/fit.js';
import type { MissingRule } from '../../tasks/outcome.js';
import type { Analysis } from '../../tasks/task.js';
import { fitCollapseSweep } from './fit-collapse.js';
import { fitRetentionSweep } from './fit-retention.js';

export interface SweepFitOptions {
  project: string;
  missing: MissingRule;
  seed: number;
}

/**
 * The fit of a finished sweep, by the analysis its plugin declares: retention sweeps fit p_d over depths;
 * collapse and counting sweeps report accuracy per level and λ*.
 */
export const SWEEP_FITS: {
  readonly [A in Analysis]: (cells: readonly CellResult[], options: SweepFitOptions) => RetentionFit | CollapseFit;
} = {
  retention: fitRetentionSweep,
  collapse: fitCollapseSweep,
  counting: fitCollapseSweep,
};

export const fitSweep = (
  analysis: Analysis,
  cells: readonly CellResult[],
  options: SweepFitOptions,
): RetentionFit | CollapseFit => SWEEP_FITS[analysis](cells, options);
