/**
 * Sealing: values that must be recoverable but never stored in clear (a vendor's shared
 * secret, a person's SSN) are encrypted with AES-256-GCM under the service's data key, bound
 * to a context (the record and field they belong to) so that a sealed value copied elsewhere
 * does not open.
 *
 * The data key comes from URL_OVERRIDE_ENCRYPTION_KEY (its first user's name): 32 bytes,
 * base64-encoded or as 64 hex digits (the form a Secrets Manager generated password can
 * take, see infra/stacks/data-stack.ts). Outside Lambda, a fixed development key stands in
 * so that `npm start` and the tests work without setup; in Lambda the key is required, and
 * sealing or opening without it is refused.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const FORMAT = 'v1';

export class EncryptionKeyMissingError extends Error {
  constructor() {
    super('URL_OVERRIDE_ENCRYPTION_KEY is not configured: sealed values cannot be stored or read');
    this.name = 'EncryptionKeyMissingError';
  }
}

function dataKey(): Buffer {
  const configured = process.env.URL_OVERRIDE_ENCRYPTION_KEY;
  if (configured) {
    const key = /^[0-9a-fA-F]{64}$/.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new Error('URL_OVERRIDE_ENCRYPTION_KEY must be 32 bytes, base64-encoded or as 64 hex digits');
    return key;
  }
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) throw new EncryptionKeyMissingError();
  return createHash('sha256').update('insurance-admin local development url override key').digest();
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64 parts; a fresh IV every time. */
export function seal(clear: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', dataKey(), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
  return [FORMAT, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join('.');
}

/** The clear value, or undefined when the stored value cannot be opened with the current key and this context. */
export function unseal(sealed: string, context: string): string | undefined {
  const [format, iv, tag, ciphertext] = sealed.split('.');
  if (format !== FORMAT || !iv || !tag || ciphertext === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', dataKey(), Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch (error) {
    if (error instanceof EncryptionKeyMissingError) throw error;
    return undefined;
  }
}
