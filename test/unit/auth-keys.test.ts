import { describe, expect, it } from 'vitest';
import { apiKeyIdRecord, apiKeyRecord, contactCredentialRecord, contactCredentialsHeadRecord, oauthClientRecord, sessionRecord } from '../../shared/auth/records.js';

describe('auth records', () => {
  it('finds an API key by the digest of the presented key, and by its public id', () => {
    expect(apiKeyRecord.key({ digest: 'ab12' })).toEqual({ pk: 'APIKEY#ab12', sk: 'APIKEY' });
    expect(apiKeyIdRecord.key({ keyId: 'key-1' })).toEqual({ pk: 'APIKEYID#key-1', sk: 'APIKEYID' });
  });

  it("files a key under its contact on gsi1, in creation order, without storing its digest", () => {
    const key = { keyId: 'key-1', contactId: 'c-1', description: 'd', createdAt: '2026-03-01T10:00:00.000Z' };
    expect(apiKeyRecord.item(key, { digest: 'ab12' })).toEqual({
      pk: 'APIKEY#ab12',
      sk: 'APIKEY',
      gsi1pk: 'CONTACT#c-1',
      gsi1sk: 'APIKEY#2026-03-01T10:00:00.000Z#key-1',
      entity: 'ApiKey',
      ...key,
    });
    expect(apiKeyRecord.query({ contactId: 'c-1' }, { index: 'gsi1' })).toEqual({
      IndexName: 'gsi1',
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
      ExpressionAttributeNames: { '#pk': 'gsi1pk', '#sk': 'gsi1sk' },
      ExpressionAttributeValues: { ':pk': 'CONTACT#c-1', ':sk': 'APIKEY#' },
    });
  });

  it("keys OAuth clients by client id and sessions by the digest of the cookie's token", () => {
    expect(oauthClientRecord.key({ clientId: 'client-9' })).toEqual({ pk: 'OAUTHCLIENT#client-9', sk: 'OAUTHCLIENT' });
    expect(sessionRecord.key({ digest: 'ff00' })).toEqual({ pk: 'SESSION#ff00', sk: 'SESSION' });
  });

  it("lists a contact's credentials in one partition beside its head", () => {
    expect(contactCredentialsHeadRecord.key({ contactId: 'c-1' })).toEqual({ pk: 'CREDENTIALS#c-1', sk: 'HEAD' });
    expect(contactCredentialRecord.item({ kind: 'SESSION', credentialId: 'ff00', apiKeyDigest: 'ab12', expiresAt: 1_800_000_000 }, { contactId: 'c-1' })).toEqual({
      pk: 'CREDENTIALS#c-1', sk: 'SESSION#ff00', entity: 'ContactCredential', kind: 'SESSION', credentialId: 'ff00', apiKeyDigest: 'ab12', expiresAt: 1_800_000_000,
    });
  });
});
