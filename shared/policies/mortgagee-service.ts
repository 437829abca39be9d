/** Mortgagees of a property: attaching a mortgagee contact, update_mortgagee_information. */
import { randomUUID } from 'node:crypto';
import { getContactSummaries } from '../contacts/index.js';
import { NotFoundError } from '../platform/errors.js';
import { partWithinReach, type Principal } from './access.js';
import type { MortgageeRecord, RevisionSnapshot } from './model.js';
import { changeRevision } from './store.js';
import { mortgageeToWire } from './wire.js';

type MortgageeInfo = Partial<Pick<MortgageeRecord, 'description' | 'loanNum' | 'type' | 'decMortStatement'>>;

/** Connects a mortgagee contact to a property; answers its x_contact_reference. */
export async function attachMortgagee(snapshot: RevisionSnapshot, riskId: string, contactId: string, info: MortgageeInfo = {}) {
  const mortgagee: MortgageeRecord = {
    entity: 'Mortgagee',
    id: randomUUID(),
    revisionId: snapshot.header.id,
    riskId,
    contactId,
    description: info.description ?? '',
    loanNum: info.loanNum ?? '',
    type: info.type ?? '',
    decMortStatement: info.decMortStatement ?? '',
  };
  await changeRevision(snapshot.header, { create: [mortgagee] });
  return mortgagee;
}

export async function updateMortgageeInformation(
  principal: Principal,
  input: { x_contact_reference: string; mortgagee_info: { description?: string | null; loan_num?: string | null; type?: string | null; dec_mort_statement?: string | null } },
) {
  const snapshot = await partWithinReach(principal, input.x_contact_reference, 'mortgagee', 'Mortgagee reference');
  const mortgagee = snapshot.mortgagees.find((candidate) => candidate.id === input.x_contact_reference);
  if (!mortgagee) throw new NotFoundError(`Mortgagee reference ${input.x_contact_reference}`);
  const info = input.mortgagee_info;
  // An omitted key keeps its value; null or empty clears it.
  const pick = (given: string | null | undefined, current: string) => (given === undefined ? current : (given ?? ''));
  const updated: MortgageeRecord = {
    ...mortgagee,
    description: pick(info.description, mortgagee.description),
    loanNum: pick(info.loan_num, mortgagee.loanNum),
    type: pick(info.type, mortgagee.type),
    decMortStatement: pick(info.dec_mort_statement, mortgagee.decMortStatement),
  };
  await changeRevision(snapshot.header, { replace: [updated] });
  return mortgageeToWire(updated, await getContactSummaries([updated.contactId]));
}
