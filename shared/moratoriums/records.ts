/**
 * The moratoriums area's stored records, declared once (shared/platform/records.ts). Only the
 * area's store imports this module.
 *
 * - Every moratorium shares one partition (`MORATORIUMS`), sorted by id: a carrier declares a
 *   handful a season, and every check reads them all, strongly consistent, in one query.
 * - A moratorium's releases (one per policy) and refusals (one per refused call, sorted by
 *   when) share its own partition `MORATORIUM#<id>`.
 */
import { defineRecord } from '../platform/records.js';
import type { Moratorium, MoratoriumRefusal, MoratoriumRelease } from './model.js';

/**
 * A binding hold: name, kind (`underwriting`, `regulatory`), states, counties (5-digit FIPS), zips, products (policy type names;
 * empty: all), blocks, startsAt, endsAt (null: until lifted), declaredBy/At, liftedBy/At, version. Created `attribute_not_exists(pk)`
 * in one transaction with its `moratorium.declared` event; lifted by a Put conditioned on `version`, with its `moratorium.lifted` event.
 */
export const moratoriumRecord = /* @__PURE__ */ defineRecord<Moratorium>({
  entity: 'Moratorium',
  key: { pk: 'MORATORIUMS', sk: 'MORATORIUM#${moratoriumId}' },
});

/** A policy released from a moratorium: reason, releasedBy, releasedAt. `attribute_not_exists(pk)`: a second release keeps the first. */
export const moratoriumReleaseRecord = /* @__PURE__ */ defineRecord<MoratoriumRelease>({
  entity: 'MoratoriumRelease',
  key: { pk: 'MORATORIUM#${moratoriumId}', sk: 'RELEASE#${policyId}' },
});

/**
 * A call the moratorium refused: refused (the block), operation, policyId, policyNumber, agencyId, by, at. One per moratorium
 * that refused a call, written when the move is refused (the move itself writes nothing).
 */
export const moratoriumRefusalRecord = /* @__PURE__ */ defineRecord<MoratoriumRefusal>({
  entity: 'MoratoriumRefusal',
  key: { pk: 'MORATORIUM#${moratoriumId}', sk: 'REFUSAL#${at}#${refusalId}' },
});

/** Every declaration of the area, for docs/data-model.md. */
export const MORATORIUMS_RECORDS = [moratoriumRecord, moratoriumReleaseRecord, moratoriumRefusalRecord] as const;
