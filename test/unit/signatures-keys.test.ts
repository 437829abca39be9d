import { describe, expect, it } from 'vitest';
import { isSigningToken, signingToken, signingUrl } from '../../shared/signatures/builtin-vendor.js';
import {
  appliedEventKey,
  policyFilesQuery,
  policyRequestsQuery,
  signableFileKey,
  signatureLocatorKey,
  signatureRequestKey,
  vendorRequestKey,
} from '../../shared/signatures/keys.js';

describe('keys of the signatures area', () => {
  it("keeps a policy's requests, signed files and applied events in one partition", () => {
    expect(signatureRequestKey('p-1', 'sr-1')).toEqual({ pk: 'SIGNATURES#p-1', sk: 'REQUEST#sr-1' });
    expect(signableFileKey('p-1', 'f-1')).toEqual({ pk: 'SIGNATURES#p-1', sk: 'FILE#f-1' });
    expect(appliedEventKey('p-1', 'sr-1#signed#jordan avery')).toEqual({ pk: 'SIGNATURES#p-1', sk: 'EVENT#sr-1#signed#jordan avery' });
    expect(signatureLocatorKey('s-1')).toEqual({ pk: 'SIGNLOC#s-1', sk: 'SIGNLOC' });
    expect(vendorRequestKey('sr-1')).toEqual({ pk: 'ESIGNVENDOR#sr-1', sk: 'REQUEST' });
  });

  it('reads requests and files of a policy with consistent, kind-bounded queries', () => {
    expect(policyRequestsQuery('T', 'p-1')).toEqual({
      TableName: 'T',
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :kind)',
      ExpressionAttributeValues: { ':pk': 'SIGNATURES#p-1', ':kind': 'REQUEST#' },
      ConsistentRead: true,
    });
    expect(policyFilesQuery('T', 'p-1').ExpressionAttributeValues).toEqual({ ':pk': 'SIGNATURES#p-1', ':kind': 'FILE#' });
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
