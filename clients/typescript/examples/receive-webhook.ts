import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createInsuranceClient } from '@insurance-admin/client';

/** Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">` under the decoded `whsec_` secret. */
export function verifyWebhook(secret: string, headers: IncomingHttpHeaders, rawBody: string): boolean {
  const id = headers['webhook-id'], timestamp = headers['webhook-timestamp'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(`${id}.${timestamp}.${rawBody}`).digest();
  return String(headers['webhook-signature'] ?? '').split(' ').some((signature) => {
    const given = Buffer.from(signature.replace(/^v1,/, ''), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** Listens on a local port, subscribes it to policy and payment events, and hands each verified event to `onEvent`. */
export async function receiveWebhooks(baseUrl: string, apiKey: string, onEvent: (event: { id: string; type: string; policy_id: string }) => void) {
  let secret = '';
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk)).on('end', () => {
      if (!verifyWebhook(secret, request.headers, body)) return void response.writeHead(401).end();
      onEvent(JSON.parse(body));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const client = createInsuranceClient({ baseUrl, credential: apiKey });
  const subscription = await client.call('/api/v2/events/create', { url: `http://127.0.0.1:${port}/hooks`, event_types: ['policy.*', 'payment.*'], description: 'example receiver' });
  secret = subscription.secret; // shown once: keep it in your secret store
  return { subscriptionId: subscription.subscription_id as string, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
