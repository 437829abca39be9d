import { describe, expect, it } from 'vitest';
import { apiKeyIdKey, apiKeyKey, apiKeysOfContactIndex, apiKeysOfContactQuery, oauthClientKey, sessionKey } from '../../shared/auth/keys.js';

describe('auth key builders', () => {
  it('finds an API key by the digest of the presented key, and by its public id', () => {
    expect(apiKeyKey('ab12')).toEqual({ pk: 'APIKEY#ab12', sk: 'APIKEY' });
    expect(apiKeyIdKey('key-1')).toEqual({ pk: 'APIKEYID#key-1', sk: 'APIKEYID' });
  });

  it("files a key under its contact on gsi1, in creation order", () => {
    expect(apiKeysOfContactIndex('c-1', '2026-03-01T10:00:00.000Z', 'key-1')).toEqual({
      gsi1pk: 'CONTACT#c-1',
      gsi1sk: 'APIKEY#2026-03-01T10:00:00.000Z#key-1',
    });
    expect(apiKeysOfContactQuery('c-1')).toEqual({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'CONTACT#c-1', ':prefix': 'APIKEY#' },
    });
  });

  it("keys OAuth clients by client id and sessions by the digest of the cookie's token", () => {
    expect(oauthClientKey('client-9')).toEqual({ pk: 'OAUTHCLIENT#client-9', sk: 'OAUTHCLIENT' });
    expect(sessionKey('ff00')).toEqual({ pk: 'SESSION#ff00', sk: 'SESSION' });
  });
});
