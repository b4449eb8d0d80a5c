import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { type SpendLimitReport, type SpendLimits, spendAmountSchema } from '../schema/spend.js';
import { SpendLedger } from './ledger.js';

/**
 * The run's spend ledger (./ledger.ts) served to the workers on 127.0.0.1 at an ephemeral port, under a path
 * with a random token (so nothing else on the machine can spend or stop for the run by chance). Routes, JSON:
 *   POST <url>/admit  {floor, cap}    → Admission
 *   POST <url>/settle {id, actual}    → {}
 * The server is unref'd (it never keeps the main process alive) and closed with Vitest. The ledger itself stays
 * reachable in this process by its URL (`ledgerAt`), for the reporter and the CLI, after the server closed.
 */

export const admitBodySchema = z.object({ floor: spendAmountSchema, cap: spendAmountSchema });
export const settleBodySchema = z.object({ id: z.number().int().positive(), actual: spendAmountSchema });

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

const MAX_BODY = 64 * 1024;

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
    const route = req.method === 'POST' && req.url?.startsWith(`${base}/`) ? req.url.slice(base.length + 1) : '';
    if (route !== 'admit' && route !== 'settle') {
      reply(res, 404, { error: 'not found' });
      return;
    }
    readJson(req).then(
      (body) => {
        if (route === 'admit') {
          const claim = admitBodySchema.safeParse(body);
          if (!claim.success) return reply(res, 400, { error: 'bad admit body' });
          return reply(res, 200, ledger.admit(claim.data));
        }
        const settle = settleBodySchema.safeParse(body);
        if (!settle.success) return reply(res, 400, { error: 'bad settle body' });
        ledger.settle(settle.data.id, settle.data.actual);
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
