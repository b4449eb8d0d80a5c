import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Ports this process has listened on, kept on globalThis: the unit project shares workers between files
 * (`isolate: false`), and a module reload (`vi.resetModules()`) must not forget them.
 */
const PORTS_KEY = Symbol.for('ceilingbench.test.loopbackPorts');
const store = globalThis as { [PORTS_KEY]?: Set<number> };
store[PORTS_KEY] ??= new Set<number>();
const portsUsed = store[PORTS_KEY];

const listen = (server: Server) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * Listens on a port of 127.0.0.1 that no earlier server of this process had. What a subject learns about an
 * endpoint (a provider's adaptations) is keyed by its address for the process's life, as it should be in a run;
 * in a worker shared by many test files, a port the OS hands out again would carry one file's lessons into
 * another's server. Returns the port.
 */
export async function listenOnFreshPort(server: Server): Promise<number> {
  for (;;) {
    const port = await listen(server);
    if (!portsUsed.has(port)) {
      portsUsed.add(port);
      return port;
    }
    await close(server);
  }
}

/**
 * An HTTP server on a fresh port of 127.0.0.1 (listenOnFreshPort) whose handler's errors are answered 500, and whose
 * `close` ends every open connection too (a keep-alive socket would hold the server open).
 */
export async function serveOnLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listenOnFreshPort(server);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
