/**
 * The URL overrides' stored records, declared once (shared/platform/records.ts). Overrides are few
 * and configured by an administrator, so they share one partition: retrieveURLOverrides is one Query.
 * Only the area's store imports this module.
 */
import { defineRecord } from '../platform/records.js';
import type { UrlOverrideRecord } from './store.js';

/**
 * An internal path sent elsewhere: override, httpMethod, enabled, category, `sharedSecretCipher` (AES-256-GCM,
 * the path as associated data, key `URL_OVERRIDE_ENCRYPTION_KEY`), version.
 */
export const urlOverrideRecord = /* @__PURE__ */ defineRecord<UrlOverrideRecord>({
  entity: 'UrlOverride',
  key: { pk: 'URLOVERRIDES', sk: 'URL#${url}' },
});

/** Every declaration of the area, for docs/data-model.md. */
export const URL_OVERRIDES_RECORDS = [urlOverrideRecord] as const;
