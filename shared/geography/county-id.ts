import { createHash } from 'node:crypto';

/**
 * Namespace of the service's county ids. Fixed forever: changing it would change the id of
 * every county already stored on a property.
 */
export const COUNTY_ID_NAMESPACE = '5d0b6f4e-2c7a-4f0e-9a53-8e1c3b7d2a61';

/**
 * The county's stable id: a name-based UUID (version 5, RFC 9562) of its 5-digit FIPS code,
 * so the same county has the same id in every environment without a stored id table.
 */
export function countyId(fips: string): string {
  return uuidV5(fips, COUNTY_ID_NAMESPACE);
}

export function uuidV5(name: string, namespace: string): string {
  const namespaceBytes = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (namespaceBytes.length !== 16) throw new Error(`Not a UUID namespace: ${namespace}`);
  const hash = createHash('sha1').update(namespaceBytes).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
