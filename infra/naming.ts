/** `signature-events` → `SignatureEvents`, `v2-policies-create_policy` → `V2PoliciesCreatePolicy`: construct ids. */
export const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
