/**
 * Request building blocks of the custom_ui URL override operations (spec 4.2) and what
 * the service takes; each operation's schema is in its entry file under functions/v1/custom_ui/.
 */
import * as z from 'zod/mini';
import { boundedString, builtOnFirstUse, clearable, LIMITS } from '../platform/request-fields.js';

/** The path is part of a sort key (at most 1024 bytes); real paths are far shorter. */
export const MAX_URL_LENGTH = 512;
export const MAX_OVERRIDE_LENGTH = 2048;

/** An internal page path of the service: starts with one `/` (a `//` would name another host). */
export const internalPath = builtOnFirstUse(() => boundedString(MAX_URL_LENGTH).check(
  z.refine((value: string) => value.startsWith('/') && !value.startsWith('//') && !/\s/.test(value), 'must be an internal path starting with / (without spaces)'),
  z.meta({ examples: ['/policies/view'] }),
));

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const parsed = new URL(value);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname.length > 0;
  } catch {
    return false;
  }
}

/** The external page shown instead: an absolute http(s) URL. */
export const externalUrl = builtOnFirstUse(() => boundedString(MAX_OVERRIDE_LENGTH).check(
  z.refine(isAbsoluteHttpUrl, 'must be an absolute http:// or https:// URL'),
  z.meta({ examples: ['https://portal.example.com/policies/view'] }),
));

export const httpMethod = builtOnFirstUse(() => z.pipe(z.string().check(z.trim(), z.maxLength(16), z.toUpperCase()), z.enum(['GET', 'POST'], { error: 'must be GET or POST' })));

/** The secret sent back to the override URL; null or an empty string clears it. */
export const sharedSecret = () => clearable(boundedString(1024, { trim: false }));

/** A grouping label; null or an empty string clears it. */
export const category = () => clearable(boundedString(LIMITS.nameLength));

export interface CreateUrlOverrideInput {
  url: string;
  override: string;
  http_method: 'GET' | 'POST';
  enabled: boolean;
  shared_secret?: string | null;
  category?: string | null;
}

/** Only the fields given change; `null` clears the secret or the category. */
export interface UpdateUrlOverrideInput {
  url: string;
  override?: string;
  enabled?: boolean;
  http_method?: 'GET' | 'POST';
  shared_secret?: string | null;
  category?: string | null;
}
