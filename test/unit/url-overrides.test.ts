import { describe, expect, it } from 'vitest';
import { urlOverrideRecord } from '../../shared/url-overrides/records.js';
import { createUrlOverrideInput } from '../../functions/v1/custom_ui/createURLOverride.js';
import { updateUrlOverrideInput } from '../../functions/v1/custom_ui/updateURLOverride.js';
import { decryptSecret, encryptSecret } from '../../shared/url-overrides/secrets.js';
import { toView } from '../../shared/url-overrides/service.js';

describe('URL override keys', () => {
  it('keeps every override in one partition, by path', () => {
    expect(urlOverrideRecord.key({ url: '/policies/view' })).toEqual({ pk: 'URLOVERRIDES', sk: 'URL#/policies/view' });
    expect(urlOverrideRecord.query({})).toEqual({
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': 'URLOVERRIDES', ':sk': 'URL#' },
    });
  });
});

describe('URL override requests', () => {
  it('defaults the method to GET and enabled to true', () => {
    expect(createUrlOverrideInput().parse({ url: '/a', override: 'https://example.com/a' })).toEqual({
      url: '/a', override: 'https://example.com/a', http_method: 'GET', enabled: true,
    });
    expect(createUrlOverrideInput().parse({ url: '/a', override: 'http://example.com', http_method: 'post' }).http_method).toBe('POST');
  });

  it('wants an internal path and an absolute http(s) URL', () => {
    for (const url of ['policies', '//evil.example/x', 'https://example.com/a', '/with space']) {
      expect(createUrlOverrideInput().safeParse({ url, override: 'https://example.com' }).success).toBe(false);
    }
    for (const override of ['/internal', 'ftp://example.com', 'javascript:alert(1)', 'example.com']) {
      expect(createUrlOverrideInput().safeParse({ url: '/a', override }).success).toBe(false);
    }
    expect(createUrlOverrideInput().safeParse({ url: '/a', override: 'https://example.com', http_method: 'PUT' }).success).toBe(false);
  });

  it('reads an empty secret or category on update as clearing it', () => {
    expect(updateUrlOverrideInput().parse({ url: '/a', shared_secret: '', category: null })).toEqual({ url: '/a', shared_secret: null, category: null });
    expect(updateUrlOverrideInput().parse({ url: '/a' })).toEqual({ url: '/a' });
  });
});

describe('shared secrets', () => {
  it('are encrypted, recoverable only for the same path', () => {
    const sealed = encryptSecret('s3cret-value', '/a');
    expect(sealed).not.toContain('s3cret-value');
    expect(encryptSecret('s3cret-value', '/a')).not.toBe(sealed);
    expect(decryptSecret(sealed, '/a')).toBe('s3cret-value');
    expect(decryptSecret(sealed, '/b')).toBeUndefined();
  });

  it('are shown in clear to administrators only', () => {
    const record = { url: '/a', override: 'https://x.example', httpMethod: 'GET' as const, enabled: true, sharedSecretCipher: encryptSecret('k', '/a'), createdAt: '', updatedAt: '', version: 1 };
    expect(toView(record, { isAdministrator: true }).shared_secret).toBe('k');
    expect(toView(record, { isAdministrator: false })).toEqual({ url: '/a', override: 'https://x.example', http_method: 'GET', enabled: true, shared_secret: null, category: null });
  });
});
