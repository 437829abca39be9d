/**
 * shared_secret is sent back to the override URL, so it must be recoverable: it is stored
 * encrypted (AES-256-GCM, bound to its override's path), never hashed and never in clear.
 *
 * The key comes from URL_OVERRIDE_ENCRYPTION_KEY: 32 bytes, base64-encoded or as 64 hex
 * digits (the form a Secrets Manager generated password can take, see
 * infra/stacks/data-stack.ts). Outside Lambda, a fixed development key stands in so that
 * `npm start` and the tests work without setup; in Lambda the key is required, and storing
 * a secret without it is refused.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const FORMAT = 'v1';

export class EncryptionKeyMissingError extends Error {
  constructor() {
    super('URL_OVERRIDE_ENCRYPTION_KEY is not configured: shared secrets cannot be stored or read');
    this.name = 'EncryptionKeyMissingError';
  }
}

function encryptionKey(): Buffer {
  const configured = process.env.URL_OVERRIDE_ENCRYPTION_KEY;
  if (configured) {
    const key = /^[0-9a-fA-F]{64}$/.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new Error('URL_OVERRIDE_ENCRYPTION_KEY must be 32 bytes, base64-encoded or as 64 hex digits');
    return key;
  }
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) throw new EncryptionKeyMissingError();
  return createHash('sha256').update('insurance-admin local development url override key').digest();
}

export function encryptSecret(secret: string, url: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(), iv);
  cipher.setAAD(Buffer.from(url, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [FORMAT, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join('.');
}

/** The clear secret, or undefined when the stored value cannot be decrypted with the current key. */
export function decryptSecret(stored: string, url: string): string | undefined {
  const [format, iv, tag, ciphertext] = stored.split('.');
  if (format !== FORMAT || !iv || !tag || ciphertext === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', encryptionKey(), Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(url, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch (error) {
    if (error instanceof EncryptionKeyMissingError) throw error;
    return undefined;
  }
}
