import { createHash, randomBytes } from 'node:crypto';

/**
 * API keys and session tokens are long random strings, so a fast digest is a
 * safe way to store them and still look them up by equality. (Passwords, which are
 * not, are hashed by shared/platform/passwords.ts.)
 */
export function digestToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function newToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}
