/** Request schemas of the custom_ui URL override operations (spec 4.2). */
import { z } from 'zod';
import { looseBoolean } from '../contacts/schemas.js';

/** The path is part of a sort key (at most 1024 bytes); real paths are far shorter. */
export const MAX_URL_LENGTH = 512;
export const MAX_OVERRIDE_LENGTH = 2048;

/** An internal page path of the service: starts with one `/` (a `//` would name another host). */
export const internalPath = z
  .string()
  .trim()
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .refine((value) => value.startsWith('/') && !value.startsWith('//') && !/\s/.test(value), 'must be an internal path starting with / (without spaces)');

/** The external page shown instead: an absolute http(s) URL. */
export const externalUrl = z
  .string()
  .trim()
  .max(MAX_OVERRIDE_LENGTH, `must be at most ${MAX_OVERRIDE_LENGTH} characters`)
  .refine((value) => {
    try {
      const parsed = new URL(value);
      return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'must be an absolute http:// or https:// URL');

export const httpMethod = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(['GET', 'POST'], { message: 'must be GET or POST' }));

/** null or an empty string clears it. */
const secret = z
  .string()
  .max(1024, 'must be at most 1024 characters')
  .nullish()
  .transform((value) => (value === '' ? null : value));
const category = z
  .string()
  .trim()
  .max(200, 'must be at most 200 characters')
  .nullish()
  .transform((value) => (value === '' ? null : value));

export const createUrlOverrideSchema = z.object({
  url: internalPath,
  override: externalUrl,
  http_method: httpMethod.nullish().transform((value) => value ?? 'GET'),
  enabled: looseBoolean.nullish().transform((value) => value ?? true),
  shared_secret: secret,
  category,
});

export const updateUrlOverrideSchema = z.object({
  url: internalPath,
  override: externalUrl.optional(),
  enabled: looseBoolean.optional(),
  http_method: httpMethod.optional(),
  shared_secret: secret,
  category,
});

export const deleteUrlOverrideSchema = z.object({ url: internalPath });

export type CreateUrlOverrideInput = z.output<typeof createUrlOverrideSchema>;
export type UpdateUrlOverrideInput = z.output<typeof updateUrlOverrideSchema>;
