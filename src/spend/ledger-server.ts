import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { type SpendLimitReport, type SpendLimits, spendAmountSchema } from '../schema/spend.js';
import { MAX_LEDGER_BATCH, MAX_RESERVE, SpendLedger } from './ledger.js';

/**
 * The run's spend ledger (./ledger.ts) served to the workers on 127.0.0.1 at an ephemeral port, under a path
 * with a random token (so nothing else on the machine can spend or stop for the run by chance). Routes, JSON, each
 * a batch (a worker sends the trials that asked while its previous request was out together, ./ledger-client.ts):
 *   POST <url>/admit  {claims: [{floor, cap}, …], reserve?: {claim, count}}
 *                                          → {admissions: [Admission, …], reserved: [id, …]}  (in order, one by one;
 *                                            then `ledger.reserve`, which grants only far from every limit)
 *   POST <url>/use    {uses: [{id, claim}, …]}         → {}  (reserved ids taken by trials, and their claims)
 *   POST <url>/settle {settles: [{id, actual}, …]}     → {}  (a reserved id returned unused settles at 0)
 *   GET  <url>/stop                                    → {stoppedBy}, held open until the run stops
 * A batch is the same ledger calls in the same order as one request per trial, so the accounting is unchanged.
 * `stop` is how a worker holding a reserve learns at once that the run stopped, and returns its reserve.
 * The server is unref'd (it never keeps the main process alive) and closed with Vitest. The ledger itself stays
 * reachable in this process by its URL (`ledgerAt`), for the reporter and the CLI, after the server closed.
 */

const claimSchema = z.object({ floor: spendAmountSchema, cap: spendAmountSchema });
const settleSchema = z.object({ id: z.number().int().positive(), actual: spendAmountSchema });
export const admitBodySchema = z
  .object({
    claims: z.array(claimSchema).max(MAX_LEDGER_BATCH),
    reserve: z.object({ claim: claimSchema, count: z.number().int().min(1).max(MAX_RESERVE) }).optional(),
  })
  .refine((body) => body.claims.length > 0 || body.reserve !== undefined, 'nothing asked');
export const useBodySchema = z.object({
  uses: z
    .array(z.object({ id: z.number().int().positive(), claim: claimSchema }))
    .min(1)
    .max(MAX_LEDGER_BATCH),
});
export const settleBodySchema = z.object({ settles: z.array(settleSchema).min(1).max(MAX_LEDGER_BATCH) });

const REGISTRY = Symbol.for('ceilingbench.spend.ledgers');
const INTERRUPTIBLE = Symbol.for('ceilingbench.spend.interruptible');

type Holder = { [REGISTRY]?: Map<string, SpendLedger>; [INTERRUPTIBLE]?: boolean };
const holder = globalThis as Holder;

function registry(): Map<string, SpendLedger> {
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/** The ledger served at `url` by this process, if any (the plugin, the reporter and the CLI share it). */
export const ledgerAt = (url: string | undefined): SpendLedger | undefined =>
  url === undefined ? undefined : registry().get(url);

/**
 * The report's limit record of the ledger at `url`: when the run had a limit, or was interrupted. A run with
 * neither has none (its ledger only stood by for Ctrl-C), so its report keeps the bytes of a run without one.
 */
export function limitRecordAt(url: string | undefined): SpendLimitReport | undefined {
  const ledger = ledgerAt(url);
  if (!ledger) return undefined;
  const limited = Object.values(ledger.limits).some((v) => v !== undefined);
  return limited || ledger.stoppedBy !== null ? ledger.report() : undefined;
}

/**
 * `ceilingbench run` asks for a ledger even without a limit, so that Ctrl-C can stop launching (the plugin,
 * loaded through Vitest's module runner, sees the flag through globalThis).
 */
export function setInterruptible(on: boolean): void {
  holder[INTERRUPTIBLE] = on;
}
export const isInterruptible = (): boolean => holder[INTERRUPTIBLE] === true;

export interface LedgerService {
  readonly url: string;
  readonly ledger: SpendLedger;
  close(): Promise<void>;
}

const MAX_BODY = 256 * 1024;

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startLedgerServer(limits: SpendLimits): Promise<LedgerService> {
  const ledger = new SpendLedger(limits);
  const base = `/ledger/${randomUUID()}`;
  const server = createServer((req, res) => {
    const route = req.url?.startsWith(`${base}/`) ? req.url.slice(base.length + 1) : '';
    if (route === 'stop' && req.method === 'GET') {
      void ledger.whenStopped().then((stoppedBy) => {
        if (!res.destroyed) reply(res, 200, { stoppedBy });
      });
      return;
    }
    if (req.method !== 'POST' || (route !== 'admit' && route !== 'use' && route !== 'settle')) {
      reply(res, 404, { error: 'not found' });
      return;
    }
    readJson(req).then(
      (body) => {
        if (route === 'admit') {
          const admit = admitBodySchema.safeParse(body);
          if (!admit.success) return reply(res, 400, { error: 'bad admit body' });
          const { claims, reserve } = admit.data;
          const admissions = claims.map((claim) => ledger.admit(claim));
          const reserved = reserve ? ledger.reserve(reserve.claim, reserve.count) : [];
          return reply(res, 200, { admissions, reserved });
        }
        if (route === 'use') {
          const use = useBodySchema.safeParse(body);
          if (!use.success) return reply(res, 400, { error: 'bad use body' });
          for (const { id, claim } of use.data.uses) ledger.use(id, claim);
          return reply(res, 200, {});
        }
        const settle = settleBodySchema.safeParse(body);
        if (!settle.success) return reply(res, 400, { error: 'bad settle body' });
        for (const { id, actual } of settle.data.settles) ledger.settle(id, actual);
        return reply(res, 200, {});
      },
      () => reply(res, 400, { error: 'unreadable body' }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${base}`;
  registry().set(url, ledger);
  let closing: Promise<void> | undefined;
  return {
    url,
    ledger,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
