/** A webhook subscriber for tests: a local HTTP server keeping every request, answering the status it is told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; policy_id: string; [field: string]: unknown };
}

export interface Subscriber {
  url: string;
  received: Received[];
  /** The status every request is answered with from now on. */
  answer(status: number): void;
  /** Waits until `count` requests matching `accept` arrived; answers them. */
  waitFor(count: number, accept?: (received: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startSubscriber(): Promise<Subscriber> {
  const received: Received[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, body, event: JSON.parse(body) });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'subscriber is down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: (next) => {
      status = next;
    },
    waitFor: async (count, accept = () => true, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter(accept);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) throw new Error(`${matching.length} of ${count} deliveries arrived within ${timeoutMs} ms: ${received.map((r) => r.event.type).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A subscriber's `post` (publishEvent's dependency) that answers 200 at once, except to `first`,
 * which it holds until `answerFirst()`: a walk stays in the middle of sending it. `sent` lists the
 * event ids in the order they were sent; `firstSent()` resolves once `first` went out.
 */
export function holdingFirstAnswer(first: string) {
  const sent: string[] = [];
  let answerFirst!: () => void;
  const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
  const post = async (_url: string, _headers: Record<string, string>, body: string) => {
    const id = JSON.parse(body).id as string;
    sent.push(id);
    if (id === first) await firstAnswered;
    return { status: 200, body: 'ok' };
  };
  const firstSent = async () => {
    while (!sent.includes(first)) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return { sent, post, answerFirst: () => answerFirst(), firstSent };
}
