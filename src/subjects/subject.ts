import type { Usage } from '../schema/trial';
import type { FinishReason, Prompt, TaskInstance } from '../tasks/task';

/**
 * Whoever answers a prompt. Network and disk I/O of answering live behind this interface only.
 * `instance` is given so that subjects with known truth (sim, oracle) can answer; an API subject
 * must use `prompt` alone.
 */
export interface TrialRequest {
  taskId: string;
  instance: TaskInstance;
  prompt: Prompt;
  /** Replicate index within the cell: repeated trials are distinct requests, never one cached answer. */
  trialIndex: number;
  maxOutputTokens: number;
  signal?: AbortSignal;
}

export type TrialResponse =
  | {
      kind: 'answer';
      text: string;
      finishReason: FinishReason;
      usage: Usage | null;
      latencyMs: number;
      cacheHit: boolean;
      attempts: number;
    }
  | {
      /** Transport/provider failure after bounded retries: missing data (outcome `api`). */
      kind: 'error';
      error: string;
      latencyMs: number;
      attempts: number;
    };

/** What a report may say about a subject: never keys or headers. */
export interface SubjectIdentity {
  spec: string;
  kind: 'sim' | 'oracle' | 'openai' | 'replay';
  model?: string;
  endpoint?: string;
  parameters: Record<string, string | number | boolean>;
}

export interface Subject {
  readonly identity: SubjectIdentity;
  answer(request: TrialRequest): Promise<TrialResponse>;
  close?(): Promise<void>;
}
