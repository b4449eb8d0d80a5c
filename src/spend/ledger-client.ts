import { z } from 'zod';
import { SPEND_STOPS, type SpendAmount } from '../schema/spend.js';
import { type Admission, MAX_LEDGER_BATCH, type SpendGate, type TrialClaim } from './ledger.js';

const admissionSchema = z.union([
  z.object({ admitted: z.literal(true), id: z.number().int().positive() }),
  z.object({ admitted: z.literal(false), stoppedBy: z.enum(SPEND_STOPS), reason: z.string() }),
]);
const admissionsSchema = z.object({ admissions: z.array(admissionSchema) });

/** How long a worker waits for the ledger before it gives up on a trial (the main process answers in ~1 ms). */
const LEDGER_TIMEOUT_MS = 30_000;

/**
 * Sends the items asked for while no request is out at once, and the ones asked for meanwhile together once it is
 * back: at most one request out per route, however many trials ask. Every item gets the answer at its position,
 * or `failed(error)` when its batch failed.
 */
function batcher<I, O>(send: (items: I[]) => Promise<O[]>, failed: (error: unknown) => O): (item: I) => Promise<O> {
  const queue: Array<{ item: I; resolve: (answer: O) => void }> = [];
  let draining = false;
  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_LEDGER_BATCH);
      let answers: O[];
      try {
        answers = await send(batch.map((b) => b.item));
        if (answers.length !== batch.length) throw new Error(`${answers.length} answers to ${batch.length} asks`);
      } catch (error) {
        answers = batch.map(() => failed(error));
      }
      for (const [i, b] of batch.entries()) b.resolve(answers[i] as O);
    }
    draining = false;
  };
  return (item) =>
    new Promise<O>((resolve) => {
      queue.push({ item, resolve });
      if (draining) return;
      draining = true;
      // the trials asking in this turn of the event loop go in the first batch
      queueMicrotask(() => void drain());
    });
}

/**
 * A worker's gate to the run's ledger (./ledger-server.ts) over loopback HTTP. Trials that ask while a request is
 * out are sent together in the next one (./ledger-server.ts applies them in order, one by one: the same
 * accounting as one request per trial), so at 64 trials in flight a trial waits on one short round trip, not on
 * a queue of 64 at the main process. It fails closed: a ledger that cannot be reached (the main process has
 * exited) admits nothing, so a worker orphaned by a second Ctrl-C sends no new request.
 */
export function createLedgerClient(url: string): SpendGate {
  const post = async (route: string, body: unknown): Promise<unknown> => {
    const response = await fetch(`${url}/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(LEDGER_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`spend ledger answered HTTP ${response.status}`);
    return response.json();
  };
  const admit = batcher<TrialClaim, Admission>(
    async (claims) => admissionsSchema.parse(await post('admit', { claims })).admissions,
    (error) => {
      const why = error instanceof Error ? error.message : String(error);
      return {
        admitted: false,
        stoppedBy: 'interrupt',
        reason: `not sent: the run's spend ledger is unreachable (${why.slice(0, 120)})`,
      };
    },
  );
  const settle = batcher<{ id: number; actual: SpendAmount }, undefined>(
    async (settles) => {
      await post('settle', { settles });
      return settles.map(() => undefined);
    },
    // the run is over (its main process is gone): there is no one left to tell
    () => undefined,
  );
  return { admit, settle: async (id, actual) => settle({ id, actual }) };
}
