import { describe, expect, it } from 'vitest';
import { isSigningToken, signingToken, signingUrl } from '../../shared/signatures/builtin-vendor.js';
import {
  appliedSignatureEventRecord,
  signableFileRecord,
  signatureLocatorRecord,
  signatureRequestRecord,
  vendorRequestRecord,
} from '../../shared/signatures/records.js';

describe('keys of the signatures area', () => {
  it("keeps a policy's requests, signed files and applied events in one partition", () => {
    expect(signatureRequestRecord.key({ policyId: 'p-1', requestId: 'sr-1' })).toEqual({ pk: 'SIGNATURES#p-1', sk: 'REQUEST#sr-1' });
    expect(signableFileRecord.key({ policyId: 'p-1', fileId: 'f-1' })).toEqual({ pk: 'SIGNATURES#p-1', sk: 'FILE#f-1' });
    expect(appliedSignatureEventRecord.key({ policyId: 'p-1', eventKey: 'sr-1#signed#jordan avery' })).toEqual({ pk: 'SIGNATURES#p-1', sk: 'EVENT#sr-1#signed#jordan avery' });
    expect(signatureLocatorRecord.key({ id: 's-1' })).toEqual({ pk: 'SIGNLOC#s-1', sk: 'SIGNLOC' });
    expect(vendorRequestRecord.key({ requestId: 'sr-1' })).toEqual({ pk: 'ESIGNVENDOR#sr-1', sk: 'REQUEST' });
  });

  it('stores a request under its own id without storing the id twice', () => {
    const stored = { request: { id: 'sr-1' } as never, policyId: 'p-1', vendor: 'built-in', createdAt: '2026-01-01T00:00:00Z', version: 1 };
    expect(signatureRequestRecord.item(stored, { requestId: 'sr-1' })).toEqual({ pk: 'SIGNATURES#p-1', sk: 'REQUEST#sr-1', entity: 'SignatureRequest', ...stored });
  });

  it('reads requests and files of a policy with consistent, kind-bounded queries', () => {
    expect(signatureRequestRecord.query({ policyId: 'p-1' }, { consistent: true })).toEqual({
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': 'SIGNATURES#p-1', ':sk': 'REQUEST#' },
      ConsistentRead: true,
    });
    expect(signableFileRecord.query({ policyId: 'p-1' }, { consistent: true }).ExpressionAttributeValues).toEqual({ ':pk': 'SIGNATURES#p-1', ':sk': 'FILE#' });
  });
});

describe('signing links of the built-in vendor', () => {
  it('carry a token only the vendor secret makes, accepted under the current or a previous secret', () => {
    const token = signingToken('secret-a', 'sig-1');
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(isSigningToken(['secret-a'], 'sig-1', token)).toBe(true);
    expect(isSigningToken(['secret-b', 'secret-a'], 'sig-1', token)).toBe(true);
    expect(isSigningToken(['secret-b'], 'sig-1', token)).toBe(false);
    expect(isSigningToken(['secret-a'], 'sig-2', token)).toBe(false);
    expect(isSigningToken(['secret-a'], 'sig-1', token.slice(1))).toBe(false);
    expect(signingUrl('https://api.example', 'sig-1', token)).toBe(`https://api.example/esign/sign?signature=sig-1&token=${token}`);
  });
});
