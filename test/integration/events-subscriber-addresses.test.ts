/**
 * A subscriber must be on the public internet: the service POSTs from inside the carrier's
 * network, so a subscription must not make it call the Lambda runtime's API, a metadata address
 * or a private service. Refused when stored (an IP literal, localhost) and at every delivery
 * (a name is resolved and the address checked is the one connected to).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attempt } from '../../shared/events/delivery.js';
import type { Subscription } from '../../shared/events/model.js';
import { checkedUrl } from '../../shared/events/service.js';
import { isReachableSubscriberAddress, isReachableSubscriberHost } from '../../shared/events/subscriber-addresses.js';
import { ValidationError } from '../../shared/platform/errors.js';

const setting = process.env.EVENT_DELIVERY_ALLOW_HTTP_LOCALHOST;
const asInLambda = () => (process.env.EVENT_DELIVERY_ALLOW_HTTP_LOCALHOST = 'false');
const asLocally = () => (process.env.EVENT_DELIVERY_ALLOW_HTTP_LOCALHOST = 'true');
afterEach(() => {
  if (setting === undefined) delete process.env.EVENT_DELIVERY_ALLOW_HTTP_LOCALHOST;
  else process.env.EVENT_DELIVERY_ALLOW_HTTP_LOCALHOST = setting;
});

describe('which addresses a subscriber may have', () => {
  it('refuses private, loopback, link-local, shared and reserved addresses, in IPv4, IPv6 and IPv4-mapped form', () => {
    asInLambda();
    for (const address of ['10.1.2.3', '172.20.0.1', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1']) {
      expect(isReachableSubscriberAddress(address), address).toBe(false);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::6810:85e5', '::ffff:8.8.8.8']) expect(isReachableSubscriberAddress(address), address).toBe(true);
  });

  it("allows this machine's own addresses where the service runs locally, and still no other private one", () => {
    asLocally();
    expect(isReachableSubscriberAddress('127.0.0.1')).toBe(true);
    expect(isReachableSubscriberAddress('::1')).toBe(true);
    expect(isReachableSubscriberHost('localhost')).toBe(true);
    expect(isReachableSubscriberAddress('10.0.0.1')).toBe(false);
    expect(isReachableSubscriberAddress('169.254.169.254')).toBe(false);
  });

  it('refuses to store a URL naming such an address or localhost, naming the field; a public name is stored', () => {
    asInLambda();
    for (const url of ['https://169.254.169.254/latest/meta-data', 'https://127.0.0.1:9001/2018-06-01/runtime/invocation/next', 'https://[::1]/hook', 'https://localhost/hook', 'https://10.0.0.5/hook']) {
      let refused: unknown;
      try {
        checkedUrl(url);
      } catch (error) {
        refused = error;
      }
      expect(refused, url).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).messages.join(' '), url).toMatch(/^url: must name a public host/);
    }
    expect(checkedUrl('https://hooks.example.com/insurance')).toBe('https://hooks.example.com/insurance');
  });
});

describe('a delivery to a name that resolves to a private address', () => {
  let server: Server;
  let port = 0;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      requests += 1;
      request.resume();
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const subscription = (url: string): Subscription => ({
    subscriptionId: 'sub_test', url, eventTypes: ['*'], description: '', agencyId: null, active: true,
    createdBy: 'tester', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', secrets: [], version: 1,
  });

  it('is refused before connecting, and says so on the attempt; where the service runs locally, it is delivered', async () => {
    asInLambda();
    const refused = await attempt(subscription(`http://localhost:${port}/hook`), 'msg_1', '{}');
    expect(refused.statusCode).toBeUndefined();
    expect(refused.responseExcerpt).toMatch(/^refused: the subscriber's address is private/);
    const literal = await attempt(subscription(`http://127.0.0.1:${port}/hook`), 'msg_2', '{}');
    expect(literal.responseExcerpt).toMatch(/^refused/);
    expect(requests).toBe(0);

    asLocally();
    const delivered = await attempt(subscription(`http://localhost:${port}/hook`), 'msg_3', '{}');
    expect(delivered.statusCode).toBe(204);
    expect(requests).toBe(1);
  });
});
