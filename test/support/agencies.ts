/**
 * An agency as the service keeps one (a contact with the reference product's Agency role), made
 * directly in the store for tests that need an agency to write policies, earn commission or read
 * its statement.
 */
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { clock } from '../../shared/platform/clock.js';

/** The reference product's Agency role. */
export const AGENCY_ROLE = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';

type AgencyProfile = Parameters<typeof createContactProfileIfAbsent>[0];

/** A new agency's contact id, created as of the clock's instant, named `<name> <part of its id>`, with `addresses` when given (a statement prints them). */
export async function newAgency(options: { name?: string; addresses?: AgencyProfile['addresses'] } = {}): Promise<string> {
  const agency = crypto.randomUUID();
  const name = options.name ? `${options.name} ${agency.slice(0, 4)}` : `Agency ${agency.slice(0, 8)}`;
  await createContactProfileIfAbsent({
    id: agency, name, type: 'organization', roleIds: [AGENCY_ROLE], agencyIds: [], createdAt: clock.now().toISOString(), version: 1,
    ...(options.addresses ? { addresses: options.addresses } : {}),
  } as AgencyProfile);
  return agency;
}
