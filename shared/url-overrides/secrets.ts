/**
 * shared_secret is sent back to the override URL, so it must be recoverable: it is stored
 * sealed (shared/platform/sealing.ts), bound to its override's path, never hashed and
 * never in clear.
 */
import { seal, unseal } from '../platform/sealing.js';

export function encryptSecret(secret: string, url: string): string {
  return seal(secret, url);
}

/** The clear secret, or undefined when the stored value cannot be decrypted with the current key. */
export function decryptSecret(stored: string, url: string): string | undefined {
  return unseal(stored, url);
}
