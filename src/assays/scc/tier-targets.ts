import type { PyRandom } from '../../rng/index.js';
import { drawTarget, targetRange } from '../../tasks/ladder-targets.js';
import type { DrawMode, LaunchOrder } from './config.js';

/**
 * The targets of one tier (docs/spec/scc.md §4): K draws from the run's RNG in [floor(0.8L), ceil(1.2L)], all up
 * front (`upfront`), or one per started trial (`lazy`, the old `o1` runner). Trial i always gets target i.
 */
export class TierTargets {
  readonly low: number;
  readonly high: number;
  /** Every target drawn so far (K up front, or one per started trial). */
  readonly drawn: number[] = [];

  constructor(
    private readonly rng: PyRandom,
    private readonly center: number,
    private readonly jitter: number,
    private readonly mode: DrawMode,
    planned: number,
  ) {
    ({ low: this.low, high: this.high } = targetRange(center, jitter));
    if (mode === 'upfront') for (let i = 0; i < planned; i++) this.drawn.push(rng.randint(this.low, this.high));
  }

  /** Trial `index`'s target (a lazy tier draws it now, so trials must ask in launch order). */
  for(index: number): number {
    if (this.mode === 'upfront') return this.drawn[index];
    const target = drawTarget(this.rng, this.center, this.jitter);
    this.drawn.push(target);
    return target;
  }

  /**
   * Trial indices in launch order: `index`, or `largest-first` by decreasing target (a stable sort keeps equal
   * targets by index), which needs every target before the first trial, so only the `upfront` draw mode allows it.
   */
  launchSequence(order: LaunchOrder, planned: number): number[] {
    if (order === 'largest-first' && this.mode !== 'upfront')
      throw new RangeError("launch order 'largest-first' needs the 'upfront' draw mode");
    const sequence = Array.from({ length: planned }, (_, i) => i);
    if (order === 'largest-first') sequence.sort((a, b) => this.drawn[b] - this.drawn[a]);
    return sequence;
  }
}
