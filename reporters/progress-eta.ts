/**
 * The progress line's clock: how long the run has left, from the trials its cells still have to ask and the time a
 * request has taken so far. A test that sends nothing (a fit, a cached cell, a test a filter skipped) moves no
 * figure: the time per request is measured on requests sent, and before one is, the ETA is unknown ("–"), never
 * "0s" while the first requests are still out.
 */

/** `45s`, `3m00s`, `1h05m`: seconds rounded once, so 179.6 s is 3m00s, never 2m60s. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

export class EtaClock {
  private readonly planned = new Map<string, number>();
  private readonly started: number;
  /** Trials the collected cells have still to ask. */
  remaining = 0;
  /** Trials sent to the subject so far (not answered from the response cache). */
  sent = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.started = now();
  }

  /** A collected test and the trials it will ask (0 for one that asks none). */
  plan(id: string, trials: number): void {
    if (this.planned.has(id)) return;
    this.planned.set(id, trials);
    this.remaining += trials;
  }

  /** A plan withdrawn unasked: a spec file's estimate, once its collected tests are planned instead. */
  forget(id: string): void {
    this.remaining -= this.planned.get(id) ?? 0;
    this.planned.delete(id);
  }

  /** A finished (or skipped) test: its planned trials are asked, `sent` of them sent. */
  finish(id: string, sent: number): void {
    this.remaining -= this.planned.get(id) ?? 0;
    this.planned.delete(id);
    this.sent += sent;
  }

  /** The time left: trials still to ask × the time per request measured so far. */
  eta(): string {
    if (this.remaining <= 0) return 'ETA 0s';
    if (this.sent === 0) return 'ETA –';
    return `ETA ${formatDuration((this.remaining * (this.now() - this.started)) / this.sent)}`;
  }
}
