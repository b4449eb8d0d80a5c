import { z } from 'zod';
import { SPEND_STOPS, type SpendAmount } from '../schema/spend.js';
import type { Admission, SpendGate, TrialClaim } from './ledger.js';

const admissionSchema = z.union([
  z.object({ admitted: z.literal(true), id: z.number().int().positive() }),
  z.object({ admitted: z.literal(false), stoppedBy: z.enum(SPEND_STOPS), reason: z.string() }),
]);

/** How long a worker waits for the ledger before it gives up on a trial (the main process answers in ~1 ms). */
const LEDGER_TIMEOUT_MS = 30_000;

/**
 * A worker's gate to the run's ledger (./ledger-server.ts) over loopback HTTP. It fails closed: a ledger that
 * cannot be reached (the main process has exited) admits nothing, so a worker orphaned by a second Ctrl-C
 * sends no new request.
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
  return {
    async admit(claim: TrialClaim): Promise<Admission> {
      try {
        return admissionSchema.parse(await post('admit', claim));
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return {
          admitted: false,
          stoppedBy: 'interrupt',
          reason: `not sent: the run's spend ledger is unreachable (${why.slice(0, 120)})`,
        };
      }
    },
    async settle(id: number, actual: SpendAmount): Promise<void> {
      try {
        await post('settle', { id, actual });
      } catch {
        // the run is over (its main process is gone): there is no one left to tell
      }
    },
  };
}
