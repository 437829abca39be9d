/**
 * Where a subscriber may be: on the public internet. A subscription is created by a caller, and
 * the service then POSTs to its URL from inside the carrier's network: a URL naming a private,
 * loopback or link-local address (the Lambda runtime's own API on 127.0.0.1, an instance
 * metadata address, another service of the VPC) would let a caller make the service call it.
 * So such URLs are refused when the subscription is stored, and every delivery resolves the
 * host itself and connects to the address it checked (a name that resolved to a public address
 * yesterday and to a private one today is refused then, not connected to).
 *
 * Where the service runs locally (allowsHttpLocalhost), this machine's own addresses are allowed:
 * the tests' and a developer's receivers listen there.
 */
import { lookup as resolveHost, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { allowsHttpLocalhost } from './settings.js';

const NOT_PUBLIC = /* @__PURE__ */ (() => {
  const list = new BlockList();
  for (const [network, prefix] of [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
    ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
    ['224.0.0.0', 4], ['240.0.0.0', 4],
  ] as const) list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of [
    ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
  ] as const) list.addSubnet(network, prefix, 'ipv6');
  return list;
})();

const LOOPBACK = /* @__PURE__ */ (() => {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  return list;
})();

/** An IPv6 form of an IPv4 address (`::ffff:10.0.0.1`) is judged as that IPv4 address. */
function normalized(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Whether the service may send to `address` (an IP literal): a public one, or this machine's own where the service runs locally. */
export function isReachableSubscriberAddress(address: string): boolean {
  const { address: ip, family } = normalized(address);
  if (!NOT_PUBLIC.check(ip, family)) return true;
  return allowsHttpLocalhost() && LOOPBACK.check(ip, family);
}

/** A URL's hostname as a lookup or isIP reads it: an IPv6 literal without its brackets. */
export const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/** Whether a URL's host may be stored: a name (judged at each delivery), or a reachable IP literal. */
export function isReachableSubscriberHost(hostname: string): boolean {
  const host = bareHost(hostname);
  if (isIP(host)) return isReachableSubscriberAddress(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return allowsHttpLocalhost();
  return true;
}

export class UnreachableSubscriberError extends Error {
  constructor(readonly host: string) {
    super(`${host} resolves to a private, loopback or link-local address`);
    this.name = 'UnreachableSubscriberError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request: resolves the host as the system would and hands the socket the
 * first address, refusing the connection when any address is not reachable (a name with one
 * private address among public ones is not trusted either).
 */
export function subscriberLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  resolveHost(hostname, { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || addresses.some((found) => !isReachableSubscriberAddress(found.address))) {
      return callback(Object.assign(new UnreachableSubscriberError(hostname), { code: 'EUNREACHABLESUBSCRIBER' }), []);
    }
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
}
