/**
 * compare_revisions: two revisions of one policy read within the caller's reach (an agent
 * compares his agency's policies only), compared field by field (diff.ts), with who committed
 * each and when. A read: it writes nothing and joins no move.
 */
import { getProductCatalog } from '../catalog/index.js';
import { getContacts } from '../contacts/index.js';
import { listPolicyNotes } from '../notes/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import { toAmount, type Cents } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { revisionWithinReach, type RevisionSnapshot } from '../policies/index.js';
import { compareRevisions, comparisonLines, type FieldDifference, type ItemFigures, type RevisionComparison } from './diff.js';

export interface CompareRequest {
  fromRevisionId: string;
  toRevisionId: string;
  format: 'json' | 'text';
}

const amount = (cents: Cents | null) => (cents === null ? null : toAmount(cents));
const difference = (found: FieldDifference) => ({ field: found.field, from: found.from, to: found.to });
const itemWire = (item: ItemFigures) => ({ name: item.name, property: item.property, limit: amount(item.limitCents), deductible: amount(item.deductibleCents), annual_premium: amount(item.annualPremiumCents) });

/**
 * Who committed a revision: as its move recorded it; for an endorsement committed before moves
 * recorded it, the contact on the note its move left at its commit instant (null when neither says).
 */
function committedBy(snapshot: RevisionSnapshot, notes: ReadonlyArray<{ createdAt: string; createdBy: string }>): string | null {
  if (snapshot.header.committed) return snapshot.header.committed.by;
  const at = snapshot.header.endorsement?.committedAt;
  return at ? (notes.find((note) => note.createdAt === at)?.createdBy ?? null) : null;
}

/** Whether only the note left at its commit can say who committed it. */
const committerOnNote = (snapshot: RevisionSnapshot) => !snapshot.header.committed && !!snapshot.header.endorsement?.committedAt;

function revisionWire(snapshot: RevisionSnapshot, by: string | null, byName: (id: string) => string) {
  const { header } = snapshot;
  return {
    revision_id: header.id,
    policy_term_id: header.policyTermId,
    revision_date: header.revisionDate,
    revision_state: header.revisionState,
    policy_status: header.policyStatus,
    description: header.description,
    committed_on: header.commitDate,
    committed_at: header.committed?.at ?? header.endorsement?.committedAt ?? header.commitDate,
    committed_by: by,
    committed_by_name: by ? byName(by) : null,
    annual_premium: toAmount(header.annualPremiumCents),
  };
}

function comparisonWire(comparison: RevisionComparison) {
  const { premium } = comparison;
  return {
    policy_type: comparison.policyType && difference(comparison.policyType),
    term_dates: comparison.termDates.map(difference),
    rate_version: comparison.rateVersion && difference(comparison.rateVersion),
    answers: comparison.answers.map(difference),
    properties: {
      added: comparison.properties.added,
      removed: comparison.properties.removed,
      changed: comparison.properties.changed.map((property) => ({ name: property.name, changes: property.changes.map(difference) })),
    },
    contacts: comparison.contacts,
    items: {
      added: comparison.items.added.map(itemWire),
      removed: comparison.items.removed.map(itemWire),
      changed: comparison.items.changed.map((item) => ({ name: item.name, property: item.property, changes: item.changes.map(difference) })),
    },
    premium: {
      items: premium.items.map((item) => ({
        name: item.name,
        property: item.property,
        annual_premium_from: toAmount(item.fromAnnualCents),
        annual_premium_to: toAmount(item.toAnnualCents),
        annual_change: toAmount(item.annualChangeCents),
        term_change: amount(item.termChangeCents),
      })),
      annual_premium_from: toAmount(premium.fromAnnualCents),
      annual_premium_to: toAmount(premium.toAnnualCents),
      annual_change: toAmount(premium.annualChangeCents),
      term_change: amount(premium.termChangeCents),
      term_change_from: premium.termChangeFrom,
    },
  };
}

export async function compareRevisionsOf(principal: Principal, request: CompareRequest) {
  const [from, to] = await Promise.all([revisionWithinReach(principal, request.fromRevisionId), revisionWithinReach(principal, request.toRevisionId)]);
  if (from.header.policyId !== to.header.policyId) {
    throw new BusinessRuleError(`to_revision_id: revision ${request.toRevisionId} is of policy ${to.header.policyNumber}, not of ${from.header.policyNumber} (from_revision_id); only revisions of one policy compare`);
  }
  const notes = committerOnNote(from) || committerOnNote(to) ? await listPolicyNotes(from.header.policyId) : [];
  const by = [committedBy(from, notes), committedBy(to, notes)];
  const contactIds = [...new Set([...from.header.contactIds, ...to.header.contactIds, ...from.mortgagees.map((m) => m.contactId), ...to.mortgagees.map((m) => m.contactId), ...by.filter((id): id is string => !!id)])];
  const [contacts, product] = await Promise.all([getContacts(contactIds), getProductCatalog()]);
  const contactName = (id: string) => contacts.get(id)?.name ?? id;
  const comparison = compareRevisions(from, to, {
    contact: (id) => contacts.get(id)?.name,
    question: (id) => product.questions.find((question) => question.id === id)?.name,
    policyType: (id) => product.policyTypes.find((type) => type.id === id)?.name,
  });
  const revisions = { policy_id: from.header.policyId, policy_number: from.header.policyNumber, from: revisionWire(from, by[0], contactName), to: revisionWire(to, by[1], contactName) };
  if (request.format === 'text') {
    const who = (side: ReturnType<typeof revisionWire>) => {
      const committed = side.committed_at ? `committed ${side.committed_at}${side.committed_by_name ? ` by ${side.committed_by_name}` : ''}` : '';
      const standing = side.revision_state === 'committed' && committed ? committed : [side.revision_state, committed].filter(Boolean).join(', ');
      return `revision ${side.revision_id} of ${side.revision_date} (${standing})`;
    };
    return { ...revisions, lines: [`Policy ${revisions.policy_number}: ${who(revisions.from)} → ${who(revisions.to)}`, ...comparisonLines(comparison)] };
  }
  return { ...revisions, ...comparisonWire(comparison) };
}
