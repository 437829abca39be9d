/**
 * Contact searches must cost the same whatever the table holds. Seeds 1,000 and then
 * 20,000 contacts straight through the contacts store (BatchWrite, not 20,000 requests),
 * and after each step meters the DynamoDB read capacity of one call of:
 *
 * - lookupContactByName for a surname five contacts carry;
 * - retrieveContactList, first page of 25 of a role (no search) as an administrator,
 *   and as an agent of one agency (its agency's partition);
 * - retrieveContactList searching that surname;
 * - retrieveContactList, page 40 of 25 (a fixed offset: skipping costs what is skipped).
 *
 * Seeded names are made of letters a-p only, so they never match the searched surname.
 */
import { randomUUID } from 'node:crypto';
import { createApiKey } from '../../../shared/auth/store.js';
import { importContacts, plainContactRecords, type NewContactRecords } from '../../../shared/contacts/store.js';
import { benchSurname } from '../scenario-helpers.js';
import type { BenchContext, BenchRow, BenchScenario } from '../types.js';

const NAMED_INSURED = '8626b373-c54d-498a-82bf-fd2d2f32b746';
const AGENCY = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';
const AGENT = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const AGENCIES = 20;
const SEARCHED = 'Quartermaine';
const FIRST_NAMES = ['Ada', 'Bea', 'Cal', 'Dee', 'Eli', 'Fae', 'Gia', 'Hal', 'Ian', 'Jo', 'Kai', 'Lea', 'Max', 'Ned', 'Ole', 'Pam'];

const surname = benchSurname;

async function seed(from: number, to: number, agencyIds: string[]): Promise<void> {
  const records: NewContactRecords[] = [];
  for (let index = from; index < to; index += 1) {
    records.push(
      plainContactRecords({
        id: randomUUID(),
        name: `${FIRST_NAMES[index % FIRST_NAMES.length]} ${surname(index)}`,
        type: 'individual',
        roleIds: [NAMED_INSURED],
        agencyIds: [agencyIds[index % agencyIds.length]],
        addresses: [{ id: randomUUID(), addressLine1: `${index} Main St`, addressCity: 'Springfield', addressState: 'IL', addressZip: '62701', addressCountry: 'USA' }],
        phoneNumbers: [{ id: randomUUID(), phone: '555-0100', phoneType: 'Home' }],
        emailAddresses: [{ id: randomUUID(), email: `holder${index}@example.com`, emailType: 'Home' }],
      }),
    );
    if (records.length === 2000) await importContacts(records.splice(0));
  }
  await importContacts(records);
}

async function measure(context: BenchContext, contacts: number, agentKey: string): Promise<BenchRow[]> {
  const calls: Array<[string, string, Record<string, unknown>, string?]> = [
    ['lookupContactByName', '/api/v1/contacts/lookupContactByName', { name: SEARCHED.toLowerCase(), role: 'Named Insured', role_type: 'individual' }],
    ['retrieveContactList page 1 of 25', '/api/v1/contacts/retrieveContactList', { searchString: '', filter: 'Named Insured', currentPage: '1', pageSize: '25' }],
    ['retrieveContactList page 1 of 25 (agent)', '/api/v1/contacts/retrieveContactList', { searchString: '', filter: 'Named Insured', currentPage: '1', pageSize: '25' }, agentKey],
    ['retrieveContactList search', '/api/v1/contacts/retrieveContactList', { searchString: SEARCHED, filter: 'Named Insured', currentPage: '1', pageSize: '25' }],
    ['retrieveContactList page 40 of 25', '/api/v1/contacts/retrieveContactList', { searchString: '', filter: 'Named Insured', currentPage: '40', pageSize: '25' }],
  ];
  const rows: BenchRow[] = [];
  for (const [name, path, body, apiKey] of calls) {
    await context.call(path, body, apiKey ? { apiKey } : {}); // warm: catalog cache, module load
    const measured = await context.call(path, body, apiKey ? { apiKey } : {});
    if (measured.status !== 200 || measured.body?.success !== true) throw new Error(`${name} failed: ${JSON.stringify(measured.body).slice(0, 300)}`);
    const answered = Array.isArray(measured.body.data) ? measured.body.data.length : measured.body.records?.length;
    rows.push({ name: `${name} @ ${contacts} contacts`, readUnits: measured.readUnits, answered, ms: Math.round(measured.ms) });
  }
  return rows;
}

export const scenario: BenchScenario = {
  name: 'contacts',
  async run(context) {
    const agencyIds = Array.from({ length: AGENCIES }, () => randomUUID());
    const agentId = randomUUID();
    await importContacts([
      ...agencyIds.map((id, index) => plainContactRecords({ id, name: `Agency ${surname(index)}`, type: 'organization', roleIds: [AGENCY], agencyIds: [id] })),
      plainContactRecords({ id: agentId, name: 'Bench Agent', type: 'individual', roleIds: [AGENT], agencyIds: [agencyIds[0]] }),
      ...Array.from({ length: 5 }, (_, index) =>
        plainContactRecords({ id: randomUUID(), name: `${FIRST_NAMES[index]} ${SEARCHED}`, type: 'individual', roleIds: [NAMED_INSURED], agencyIds: [agencyIds[0]] }),
      ),
    ]);
    const { apiKey: agentKey } = await createApiKey(agentId, 'contacts bench agent');

    const rows: BenchRow[] = [];
    await seed(0, 1000 - 5, agencyIds);
    rows.push(...(await measure(context, 1000, agentKey)));
    await seed(1000 - 5, 20_000 - 5, agencyIds);
    rows.push(...(await measure(context, 20_000, agentKey)));
    return rows;
  },
};
