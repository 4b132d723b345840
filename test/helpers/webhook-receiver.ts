import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Date.now() when it arrived. */
  at: number;
}

/** What the receiver answers its `n`-th request (0-based): a status, a body, or no answer at all (`hang`). */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string> } | { hang: true };

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `n` requests arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A local HTTP server standing in for a webhook endpoint (on 127.0.0.1: the tests allow private addresses). */
export async function startReceiver(answer: (n: number, req: Received) => ReceiverAnswer = () => ({ status: 204 })): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const a = answer(received.length, r);
      received.push(r);
      for (const w of waiters.splice(0)) w();
      if ('hang' in a) return; // never answers; the sender's timeout ends it
      res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    async waitFor(n, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} of ${n} requests within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received.slice(0, n);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
