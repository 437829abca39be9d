/** Reading policies: retrieve_policy, retrieve_policy_terms, retrieve_revision_details. */
import { getProductCatalog } from '../catalog/index.js';
import { getContactSummaries } from '../contacts/index.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { policyWithinReach, revisionWithinReach, type Principal } from './access.js';
import type { ContactNames, PolicyRecord, RevisionRecord, RevisionSnapshot, RevisionState } from './model.js';
import { contactIdsOf } from './new-policy.js';
import { getRevisionHeaders, loadRevision } from './store.js';
import { termWithRevisionPeriods } from './revision-timeline.js';
import { policyContactsToWire, policyToWire, revisionDetailsToWire } from './wire.js';

async function names(ids: readonly string[]): Promise<ContactNames> {
  return ids.length ? getContactSummaries(ids) : new Map();
}

async function policyTypeName(policyTypeId: string): Promise<string> {
  const product = await getProductCatalog();
  return product.policyTypes.find((type) => type.id === policyTypeId)?.name ?? '';
}

export async function retrieveRevisionDetails(principal: Principal, revisionId: string, includeContactDetails: boolean) {
  const snapshot = await revisionWithinReach(principal, revisionId);
  const contactNames = await names([...contactIdsOf(snapshot.header.contacts), ...snapshot.mortgagees.map((mortgagee) => mortgagee.contactId)]);
  return revisionDetailsToWire(snapshot, { policyTypeName: await policyTypeName(snapshot.header.policyTypeId), names: contactNames, detailed: includeContactDetails });
}

/** The revision retrieve_policy answers: the one named, the latest in the state asked, else the active one. */
function chosenRevision(policy: PolicyRecord, revisions: readonly RevisionRecord[], input: { revision_state?: RevisionState; revision_id?: string }): RevisionRecord | undefined {
  if (input.revision_id) {
    const named = revisions.find((revision) => revision.id === input.revision_id);
    if (!named) throw new NotFoundError(`Revision ${input.revision_id} of policy ${policy.policyNumber}`);
    return named;
  }
  if (input.revision_state) {
    // The most recent revision in that state: the latest term first, then the latest revision date.
    const latest = [...revisions]
      .filter((revision) => revision.revisionState === input.revision_state)
      .sort((a, b) => b.termStart.localeCompare(a.termStart) || b.revisionDate.localeCompare(a.revisionDate) || b.createDate.localeCompare(a.createDate))[0];
    if (!latest) throw new BusinessRuleError(`revision_state: policy ${policy.policyNumber} has no ${input.revision_state} revision`);
    return latest;
  }
  return revisions.find((revision) => revision.id === policy.activeRevisionId) ?? revisions[revisions.length - 1];
}

export async function retrievePolicy(
  principal: Principal,
  input: { policy_id?: string; policy_number?: string; revision_state?: RevisionState; revision_id?: string },
) {
  const { policy, terms } = await policyWithinReach(principal, { policyId: input.policy_id, policyNumber: input.policy_number });
  const revisions = await getRevisionHeaders(terms.flatMap((term) => term.revisionIds));
  const chosen = chosenRevision(policy, revisions, input);
  const snapshot: RevisionSnapshot | undefined = chosen ? await loadRevision(chosen.id) : undefined;
  const term = terms.find((candidate) => candidate.id === (chosen?.policyTermId ?? policy.activeTermId));
  const contactNames = await names([...policy.contactIds, ...(snapshot?.mortgagees.map((mortgagee) => mortgagee.contactId) ?? [])]);
  const typeName = await policyTypeName(chosen?.policyTypeId ?? policy.policyTypeId);
  return policyToWire(policy, {
    activeRevision: snapshot ? revisionDetailsToWire(snapshot, { policyTypeName: typeName, names: contactNames }) : null,
    activeTerm: term ? termWithRevisionPeriods(term, revisions.filter((revision) => revision.policyTermId === term.id)) : null,
    policyContacts: policyContactsToWire(policy.contacts, contactNames),
  });
}

export async function retrievePolicyTerms(principal: Principal, input: { policy_id?: string; policy_number?: string }) {
  const { terms } = await policyWithinReach(principal, { policyId: input.policy_id, policyNumber: input.policy_number });
  const revisions = await getRevisionHeaders(terms.flatMap((term) => term.revisionIds));
  return terms.map((term) => termWithRevisionPeriods(term, revisions.filter((revision) => revision.policyTermId === term.id)));
}
