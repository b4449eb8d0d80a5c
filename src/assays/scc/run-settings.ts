import { withResponseChannels } from '../../tasks/final-answer.js';
import type { ReasoningDelimiter } from '../../tasks/reasoning-channels.js';
import type { TaskId } from '../../tasks/registry.js';
import type { AnyTaskPlugin } from '../../tasks/task.js';
import {
  DEFAULT_SCC_CONFIG,
  type DrawMode,
  type LaunchOrder,
  type PreflightPolicy,
  type SccConfig,
  type Schedule,
  sccConfigSchema,
} from './config.js';
import { ladderTaskOf, ladderVariantOf, type SccTrialEvent } from './ladder-trials.js';

export interface SccAssayOptions {
  /** Seed of the model's CPython RNG (the authors: 7 + the model's position in the run queue). */
  seed: number;
  /** The user's reasoning delimiters (the run's `reasoningDelimiters`), set aside before a count is read. */
  reasoningDelimiters?: readonly ReasoningDelimiter[];
  /** Caps the doubling (the authors: 20000). */
  maxLength?: number;
  /** Ours: stop and abort a tier's trials once its verdict is settled (default true). */
  earlyDecision?: boolean;
  /**
   * Run every trial the authors' runner would, in their order: earlyDecision false, launchOrder `index`,
   * preflight `first`. Wins over those three options.
   */
  exactPeerCalls?: boolean;
  /** Trials in flight at once under the `pool` schedule (default 4). */
  concurrency?: number;
  /** Default `pool`; `batch-barrier` and `sequential` reproduce the authors' runners. */
  schedule?: Schedule;
  /** Default `largest-first` (ours); `index` is the authors' order. `lazy` draws force `index`. */
  launchOrder?: LaunchOrder;
  /** Default `if-first-tier-fails` (ours); `first` is the authors' (config.ts: PREFLIGHT_POLICIES). */
  preflight?: PreflightPolicy;
  /**
   * Default `upfront`; `lazy` reproduces the old `o1` run: it forces the `sequential` schedule and the `index`
   * order and turns the early decision off, since each would change which targets a tier draws and so every
   * later target.
   */
  drawMode?: DrawMode;
  /**
   * The task plugin the ladder runs on, or a registered task's id: any plugin that declares a `ladder`
   * (src/tasks/ladder.ts). Default: SCC counting.
   */
  task?: TaskId | AnyTaskPlugin;
  /** The plugin's prompt variant (default: its first). */
  variant?: string;
  /** Counting motif id (Table S11): the count task's variant (`variant` wins). */
  motif?: string;
  config?: Partial<SccConfig>;
  signal?: AbortSignal;
  onTrial?: (trial: SccTrialEvent) => void;
}

/** A run's settings once its options are resolved: what the result's head records, and how tiers are run. */
export interface RunSettings {
  config: SccConfig;
  /** The registered plugin, reading the run's own reasoning delimiters too. */
  plugin: AnyTaskPlugin;
  variant: string;
  schedule: Schedule;
  drawMode: DrawMode;
  earlyDecision: boolean;
  launchOrder: LaunchOrder;
  preflightPolicy: PreflightPolicy;
  concurrency: number;
}

export function resolveRunSettings(options: SccAssayOptions): RunSettings {
  const config = sccConfigSchema.parse({
    ...DEFAULT_SCC_CONFIG,
    ...options.config,
    ...(options.maxLength !== undefined ? { maxLength: options.maxLength } : {}),
  });
  const plugin = withResponseChannels(ladderTaskOf(options.task), options.reasoningDelimiters ?? []);
  const variant = ladderVariantOf(plugin, options.variant ?? options.motif);
  const drawMode = options.drawMode ?? 'upfront';
  // Lazy draws follow the trials that start, so only the old one-at-a-time runner reproduces them.
  const schedule = drawMode === 'lazy' ? 'sequential' : (options.schedule ?? 'pool');
  const earlyDecision = !options.exactPeerCalls && (options.earlyDecision ?? true) && drawMode === 'upfront';
  const launchOrder: LaunchOrder =
    options.exactPeerCalls || drawMode === 'lazy' ? 'index' : (options.launchOrder ?? 'largest-first');
  const preflightPolicy: PreflightPolicy = options.exactPeerCalls
    ? 'first'
    : (options.preflight ?? 'if-first-tier-fails');
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  if (!Number.isSafeInteger(options.seed)) throw new RangeError(`seed must be a safe integer, got ${options.seed}`);
  return { config, plugin, variant, schedule, drawMode, earlyDecision, launchOrder, preflightPolicy, concurrency };
}
