import { get } from 'node:http';
import { z } from 'zod';
import { SPEND_STOPS, type SpendAmount } from '../schema/spend.js';
import { type Admission, MAX_LEDGER_BATCH, MAX_RESERVE, type SpendGate, type TrialClaim } from './ledger.js';

const admissionSchema = z.union([
  z.object({ admitted: z.literal(true), id: z.number().int().positive() }),
  z.object({ admitted: z.literal(false), stoppedBy: z.enum(SPEND_STOPS), reason: z.string() }),
]);
const admissionsSchema = z.object({
  admissions: z.array(admissionSchema),
  reserved: z.array(z.number().int().positive()).default([]),
});

/** How long a worker waits for the ledger before it gives up on a trial (the main process answers in ~1 ms). */
const LEDGER_TIMEOUT_MS = 30_000;

/**
 * A reserve unused this long is returned: a worker that has finished does not hold admissions it will not use.
 * Longer than a provider's typical answer, so a worker between two rounds of slow answers keeps it.
 */
const IDLE_RETURN_MS = 5_000;

export interface LedgerClientOptions {
  /**
   * The most admissions held in reserve (default and at most MAX_RESERVE; 0: every trial asks the ledger under its
   * limiter slot). Below it the reserve follows the worker's own peak of trials in flight.
   */
  maxReserve?: number;
  /** A reserve unused this long is returned (default IDLE_RETURN_MS). */
  idleReturnMs?: number;
}

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
 * a queue of 64 at the main process.
 *
 * The reserve: the worker also holds admissions granted in advance (`SpendLedger.reserve`, which grants only while
 * every limit is out of reach even at every trial's cap), as many as its own peak of trials in flight (at most
 * `maxReserve`), so a trial under its limiter slot usually admits at once, with no round trip under the slot; the
 * reserve is topped up in the background at half-empty, and with the next trials' asks when it ran out. What it
 * costs the guarantees, each bounded:
 * - the overshoot bound counts reserved admissions in flight at their cap: with a reserve no larger than the
 *   worker's own peak in flight, it widens by at most that peak per worker (≈ 2× with one worker);
 * - a trial that takes a reserved admission tells the ledger its claim in the background (`use`): within one
 *   loopback transit the launch rule counts it at its floor, as if it had asked;
 * - near a limit nothing is granted, and each trial asks on its own as without a reserve (after one refusal to
 *   grant, this worker no longer asks for a reserve);
 * - a stop (a limit reached, Ctrl-C) reaches the worker on a request held open for it (`GET <url>/stop`): the
 *   reserve is returned unused at once, so after a stop a trial can still be sent only within that one loopback
 *   transit, the window an admission already in transit has without a reserve.
 * - the reserve goes back with the settle of the worker's last trial in flight (and after IDLE_RETURN_MS unused), so
 *   a worker (one per test file) that ends holds none; one that dies holding a reserve leaves it counted in flight
 *   at its cap: the bound stays true, only wider.
 * It fails closed: a ledger that cannot be reached (the main process has exited) admits nothing and its reserve is
 * dropped, so a worker orphaned by a second Ctrl-C sends no new request.
 */
export function createLedgerClient(url: string, options: LedgerClientOptions = {}): SpendGate {
  const maxReserve = Math.max(0, Math.min(options.maxReserve ?? MAX_RESERVE, MAX_RESERVE));
  const idleReturnMs = options.idleReturnMs ?? IDLE_RETURN_MS;
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

  const reserve: number[] = [];
  /** No more reserving: the run stopped, its ledger is gone, or it granted nothing (a limit is near). */
  let closed = maxReserve === 0;
  let refilling = false;
  let watching = false;
  let inFlight = 0;
  let asking = 0;
  let peakInFlight = 0;
  let lastUse = 0;
  let idle: NodeJS.Timeout | undefined;

  const settle = batcher<{ id: number; actual: SpendAmount }, undefined>(
    async (settles) => {
      await post('settle', { settles });
      return settles.map(() => undefined);
    },
    // the run is over (its main process is gone): there is no one left to tell
    () => undefined,
  );
  const use = batcher<{ id: number; claim: TrialClaim }, undefined>(
    async (uses) => {
      await post('use', { uses });
      return uses.map(() => undefined);
    },
    () => undefined,
  );
  const giveBack = (ids: number[]) => {
    for (const id of ids) void settle({ id, actual: { calls: 0, tokens: 0, costUsd: 0 } });
  };
  const close = () => {
    closed = true;
    giveBack(reserve.splice(0));
  };
  const watchStop = () => {
    if (watching) return;
    watching = true;
    // answered once the run stops; closed (an error) when the ledger is gone: either way, no more reserve
    const request = get(`${url}/stop`, (response) => {
      response.resume();
      response.on('close', close);
    });
    request.on('socket', (socket) => socket.unref()); // never keeps a worker alive
    request.on('error', close);
  };
  const returnWhenIdle = () => {
    if (idle !== undefined) return;
    const check = () => {
      const quiet = performance.now() - lastUse;
      if (quiet < idleReturnMs) {
        idle = setTimeout(check, idleReturnMs - quiet).unref();
        return;
      }
      idle = undefined;
      giveBack(reserve.splice(0));
    };
    idle = setTimeout(check, idleReturnMs).unref();
  };
  /** The reserve to ask for with the next request to the ledger (none: 0), marked as being asked for. */
  const shortfall = (): number => {
    const count = Math.min(maxReserve, peakInFlight) - reserve.length;
    if (closed || refilling || count <= 0) return 0;
    refilling = true;
    return count;
  };
  const received = (asked: number, reserved: readonly number[]) => {
    if (asked === 0) return;
    refilling = false;
    if (closed) return giveBack([...reserved]);
    if (reserved.length === 0) return close();
    // no trial left in flight or asking: the worker may be about to exit, so nothing is held
    if (inFlight === 0 && asking === 0) return giveBack([...reserved]);
    reserve.push(...reserved);
    lastUse = performance.now();
    watchStop();
    returnWhenIdle();
  };
  const ask = batcher<TrialClaim, Admission>(
    async (claims) => {
      const count = shortfall();
      try {
        const body = count > 0 ? { claims, reserve: { claim: claims[claims.length - 1], count } } : { claims };
        const answer = admissionsSchema.parse(await post('admit', body));
        received(count, answer.reserved);
        return answer.admissions;
      } catch (error) {
        if (count > 0) close();
        throw error;
      }
    },
    (error) => {
      const why = error instanceof Error ? error.message : String(error);
      return {
        admitted: false,
        stoppedBy: 'interrupt',
        reason: `not sent: the run's spend ledger is unreachable (${why.slice(0, 120)})`,
      };
    },
  );
  /** Tops the reserve up in the background once it is half-empty. */
  const topUp = (claim: TrialClaim) => {
    if (reserve.length > Math.min(maxReserve, peakInFlight) / 2) return;
    const count = shortfall();
    if (count === 0) return;
    post('admit', { claims: [], reserve: { claim, count } })
      .then((body) => received(count, admissionsSchema.parse(body).reserved))
      .catch(close);
  };
  const admitted = (id: number): Admission => {
    inFlight++;
    peakInFlight = Math.max(peakInFlight, inFlight);
    return { admitted: true, id };
  };

  return {
    async admit(claim) {
      const id = reserve.pop();
      if (id !== undefined) {
        lastUse = performance.now();
        void use({ id, claim }); // the ledger counts it at this trial's floor from one transit on
        topUp(claim);
        return admitted(id);
      }
      asking++;
      const answer = await ask(claim).finally(() => asking--);
      if (!answer.admitted) {
        close(); // a refusal is final: the run stopped
        return answer;
      }
      return admitted(answer.id);
    },
    settle: async (id, actual) => {
      inFlight = Math.max(0, inFlight - 1);
      // the worker's last trial in flight has landed: its reserve goes back with this settle (the same request or
      // an earlier one), before the trial is over, so a worker that exits after its last trial holds nothing
      if (inFlight === 0 && asking === 0) giveBack(reserve.splice(0));
      await settle({ id, actual });
    },
  };
}
