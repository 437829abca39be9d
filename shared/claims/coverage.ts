/**
 * What covered a loss: the revision in force on the loss date (as retrieve_policy_snapshot answers
 * it: an endorsement effective later does not apply, one effective earlier does), its coverages with
 * their limits and deductibles, the term, and the property. A claim reads the policy as it stood
 * then and never changes it.
 */
import type { ClaimsRules } from '../catalog/index.js';
import { committedAtOf, inForceOn, loadRevision, revisionHeaders, type PolicyRecord, type RevisionRecord, type RevisionSnapshot, type RiskRecord, type TermRecord } from '../policies/index.js';
import type { ClaimCoverage, CoverageAtLoss, LossAddress } from './model.js';
import { ClaimRuleError } from './model.js';
import { termAtLoss } from './rules.js';

export interface LossCover {
  coverage: CoverageAtLoss;
  /** The revision at loss (the policy's active one when nothing was in force: its property and people still name the claim). */
  snapshot: RevisionSnapshot | undefined;
}

const NONE = (reason: string): CoverageAtLoss => ({
  status: 'none_in_force', reason, termId: null, termEffectiveDate: null, termExpirationDate: null, revisionId: null, revisionDate: null, coverages: [], deductibleCents: null,
});

/** How the cover reads the policy's revisions: from the table, unless the caller has some at hand. */
export interface RevisionReads {
  revision(id: string): Promise<RevisionSnapshot | undefined>;
  headers(ids: readonly string[]): Promise<RevisionRecord[]>;
}

export async function coverOnLossDate(policy: PolicyRecord, terms: readonly TermRecord[], lossDate: string, rules: Pick<ClaimsRules, 'deductibleItem'>, { revision, headers: headersOf }: RevisionReads = { revision: loadRevision, headers: revisionHeaders }): Promise<LossCover> {
  const found = termAtLoss(terms, policy.inceptionDate, lossDate);
  if ('reason' in found) return { coverage: NONE(found.reason), snapshot: await revision(policy.activeRevisionId) };
  const { term } = found;
  const headers = (await headersOf(term.revisionIds)).filter((header) => header.revisionState === 'committed');
  const inForce = inForceOn(headers.map((header) => ({ header, revisionDate: header.revisionDate, committedAt: committedAtOf(header) })), lossDate);
  if (!inForce) return { coverage: NONE(`no revision of the policy was in force on ${lossDate}`), snapshot: await revision(policy.activeRevisionId) };
  const snapshot = await revision(inForce.header.id);
  if (!snapshot) return { coverage: NONE(`no revision of the policy was in force on ${lossDate}`), snapshot: undefined };
  const coverages: ClaimCoverage[] = snapshot.items
    .filter((item) => item.persistStatus !== 'rejected' && item.limitCents !== null && item.limitCents > 0)
    .map((item) => ({ itemId: item.itemId, name: item.name, limitCents: item.limitCents, deductibleCents: item.deductibleCents, riskId: item.riskId }));
  const deductible = snapshot.items.find((item) => item.name === rules.deductibleItem && item.deductibleCents !== null);
  return {
    coverage: {
      status: 'in_force',
      reason: null,
      termId: term.id,
      termEffectiveDate: term.effectiveDate,
      termExpirationDate: term.expirationDate,
      revisionId: snapshot.header.id,
      revisionDate: snapshot.header.revisionDate,
      coverages,
      deductibleCents: deductible?.deductibleCents ?? null,
    },
    snapshot,
  };
}

/** The property of the loss: the one `propertyId` names (a risk's id or its lineage), else the primary one. */
export function propertyOfLoss(snapshot: RevisionSnapshot | undefined, propertyId: string | undefined): RiskRecord | undefined {
  const risks = snapshot?.risks ?? [];
  if (propertyId) {
    const named = risks.find((risk) => risk.id === propertyId || risk.lineageId === propertyId);
    if (!named) throw new ClaimRuleError(`property_id: ${propertyId.slice(0, 60)} is not a property of the policy at the loss date`);
    return named;
  }
  return risks.find((risk) => risk.primary) ?? risks[0];
}

export function addressOf(risk: RiskRecord | undefined): LossAddress {
  return {
    line1: risk?.address_line1 ?? '',
    line2: risk?.address_line2 ?? '',
    city: risk?.address_city ?? '',
    state: risk?.address_state ?? '',
    zip: risk?.address_zip ?? '',
    county: risk?.county?.name ?? null,
    countyCode: risk?.county?.code ?? null,
  };
}
