import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { EncryptionKeyMissingError } from '../../shared/platform/sealing.js';
import { decryptSecret, encryptSecret } from '../../shared/url-overrides/secrets.js';

const saved = { key: process.env.URL_OVERRIDE_ENCRYPTION_KEY, lambda: process.env.AWS_LAMBDA_FUNCTION_NAME };
afterEach(() => {
  for (const [name, value] of [['URL_OVERRIDE_ENCRYPTION_KEY', saved.key], ['AWS_LAMBDA_FUNCTION_NAME', saved.lambda]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('the URL override encryption key', () => {
  it('is the same 32 bytes whether configured as base64 or as 64 hex digits (the form AWS generates)', () => {
    const key = randomBytes(32);
    process.env.URL_OVERRIDE_ENCRYPTION_KEY = key.toString('hex');
    const sealed = encryptSecret('vendor-secret', '/a');
    process.env.URL_OVERRIDE_ENCRYPTION_KEY = key.toString('hex').toUpperCase();
    expect(decryptSecret(sealed, '/a')).toBe('vendor-secret');
    process.env.URL_OVERRIDE_ENCRYPTION_KEY = key.toString('base64');
    expect(decryptSecret(sealed, '/a')).toBe('vendor-secret');
  });

  it('cannot read a secret sealed under another key', () => {
    process.env.URL_OVERRIDE_ENCRYPTION_KEY = randomBytes(32).toString('hex');
    const sealed = encryptSecret('vendor-secret', '/a');
    process.env.URL_OVERRIDE_ENCRYPTION_KEY = randomBytes(32).toString('hex');
    expect(decryptSecret(sealed, '/a')).toBeUndefined();
  });

  it('refuses a key of the wrong length rather than sealing with it', () => {
    for (const wrong of [randomBytes(16).toString('base64'), 'ab'.repeat(31), 'not a key']) {
      process.env.URL_OVERRIDE_ENCRYPTION_KEY = wrong;
      expect(() => encryptSecret('vendor-secret', '/a')).toThrow(/32 bytes, base64-encoded or as 64 hex digits/);
    }
  });

  it('is required in Lambda', () => {
    delete process.env.URL_OVERRIDE_ENCRYPTION_KEY;
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'createURLOverride';
    expect(() => encryptSecret('vendor-secret', '/a')).toThrow(EncryptionKeyMissingError);
  });
});
