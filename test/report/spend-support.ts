import fc from 'fast-check';
import type { TestEntry } from '../../reporters/projections/build.js';
import { addSpend, noSpend } from '../../reporters/projections/spend.js';
import { summarizeCell } from '../../src/assays/sweep/summarize-cell.js';
import type { CellResult } from '../../src/schema/cell.js';
import type { CeilingbenchRecord } from '../../src/schema/meta.js';
import type { SpendTotals } from '../../src/schema/report.js';
import type { Prices } from '../../src/schema/spend.js';
import type { SubjectIdentity } from '../../src/schema/subject.js';
import type { TrialRecord, Usage } from '../../src/schema/trial.js';
import { apiOutcome, budgetOutcome } from '../../src/tasks/outcome.js';
import { resolveTask } from '../../src/tasks/registry.js';

/** Records and arbitraries of the spend tests (./spend.test.ts, ./assay-spend.test.ts). */
export const d2 = resolveTask('d2');
export const MINI: SubjectIdentity = {
  spec: 'openai:gpt-4o-mini',
  kind: 'openai',
  model: 'gpt-4o-mini',
  parameters: {},
};
export const ROUTER: SubjectIdentity = {
  spec: 'openai:anthropic/claude',
  kind: 'openai',
  model: 'anthropic/claude',
  parameters: {},
};
export const PRICE = { input: 0.15, cachedInput: 0.075, output: 0.6, reasoning: 0.9 };
export const PRICES: Prices = { 'gpt-4o-mini': PRICE };
export const run = {
  version: '0.1.0',
  gitSha: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
};

export type Kind = 'paid' | 'cached' | 'api' | 'budget' | 'silent';

/** A D2 trial: answered by a request sent now (paid), from the response cache, an api failure, never sent, or silent. */
export function trial(kind: Kind, index: number, usage: Usage | null = null): TrialRecord {
  const base = {
    task: 'd2',
    level: 5,
    seed: index,
    trialIndex: index,
    profile: 'official',
    variant: 'standard',
    finishReason: 'stop' as const,
    latencyMs: 0,
  };
  const correct = {
    family: 'ccb' as const,
    kind: 'correct' as const,
    answerCorrect: true,
    kStar: -1,
    tfbc: false,
    issues: [],
  };
  switch (kind) {
    case 'paid':
      return { ...base, outcome: correct, usage, cacheHit: false, attempts: 1 + (index % 2) };
    case 'cached':
      return { ...base, outcome: correct, usage, cacheHit: true, attempts: 0 };
    case 'silent':
      return { ...base, outcome: correct, usage: null, cacheHit: false, attempts: 1 };
    case 'api':
      return { ...base, outcome: apiOutcome('ccb', '503'), usage: null, cacheHit: false, attempts: 3 };
    case 'budget':
      return { ...base, outcome: budgetOutcome('ccb', 'maxCalls'), usage: null, cacheHit: false, attempts: 0 };
  }
}

export const cellOf = (project: string, level: number, trials: TrialRecord[]): CellResult =>
  summarizeCell(
    { project, task: d2, level, profile: 'official', variant: 'standard', seedOffset: 0, maxMissingFraction: 1 },
    trials.map((t) => ({ ...t, level })),
  );

export const entry = (record: CeilingbenchRecord, subject = MINI) =>
  ({
    project: record.project,
    name: `${record.project} > ${record.task} · ${'level' in record ? record.level : record.kind}`,
    file: `specs/${record.project}.spec.ts`,
    state: 'passed',
    errors: [],
    durationMs: 1,
    meta: { record, gates: [], subject, seed: 0 },
  }) satisfies TestEntry;

export const u = (promptTokens: number, completionTokens: number, extra: Partial<Usage> = {}): Usage => ({
  promptTokens,
  completionTokens,
  ...extra,
});

export const usageArb = fc
  .record({
    prompt: fc.integer({ min: 0, max: 50_000 }),
    completion: fc.integer({ min: 0, max: 20_000 }),
    cached: fc.option(fc.integer({ min: 0, max: 60_000 }), { nil: undefined }),
    reasoning: fc.option(fc.integer({ min: 0, max: 30_000 }), { nil: undefined }),
  })
  .map(
    (x): Usage => ({
      promptTokens: x.prompt,
      completionTokens: x.completion,
      ...(x.cached !== undefined ? { cachedPromptTokens: x.cached } : {}),
      ...(x.reasoning !== undefined ? { reasoningTokens: x.reasoning } : {}),
    }),
  );
export const trialArb = fc
  .tuple(fc.constantFrom<Kind>('paid', 'paid', 'cached', 'api', 'budget', 'silent'), usageArb)
  .map(([kind, usage]) => ({ kind, usage }));
export const cellArb = fc.record({
  project: fc.constantFrom('d1', 'd2', 'd3'),
  trials: fc.array(trialArb, { maxLength: 12 }),
});

export const sumTotals = (xs: readonly SpendTotals[]): SpendTotals =>
  xs.reduce((a, b) => addSpend(a, b), noSpend(true));
export const totalsOf = (t: SpendTotals): SpendTotals => ({
  calls: t.calls,
  paid: t.paid,
  fromCache: t.fromCache,
  unknownUsage: t.unknownUsage,
});
