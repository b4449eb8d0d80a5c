/**
 * Abort callbacks on a shared signal with one listener per signal, however many callbacks wait on it. A cell's
 * trials share their test's signal; one listener per trial in backoff draws Node's MaxListenersExceededWarning
 * as soon as more than 10 of them wait at once (CEILINGBENCH_CONCURRENCY above 10 under a storm of 429s).
 */
interface Fanout {
  callbacks: Set<() => void>;
  listener: () => void;
}

const fanouts = new WeakMap<AbortSignal, Fanout>();

/** Calls `callback` once when `signal` aborts; returns the undo, which drops the listener with its last callback. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let fanout = fanouts.get(signal);
  if (!fanout) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      fanouts.delete(signal);
      for (const fn of callbacks) fn();
    };
    fanout = { callbacks, listener };
    fanouts.set(signal, fanout);
    signal.addEventListener('abort', listener, { once: true });
  }
  const entry = fanout;
  const once = () => {
    entry.callbacks.delete(once);
    callback();
  };
  entry.callbacks.add(once);
  return () => {
    if (!entry.callbacks.delete(once) || entry.callbacks.size > 0) return;
    signal.removeEventListener('abort', entry.listener);
    if (fanouts.get(signal) === entry) fanouts.delete(signal);
  };
}
