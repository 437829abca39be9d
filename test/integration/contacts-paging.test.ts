/**
 * retrieveContactList over 1,000 contacts of a role: pages of 7 cover every contact once,
 * in name order, and one page of 10000 answers them all.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../shared/auth/store.js';
import { importContacts, plainContactRecords } from '../../shared/contacts/store.js';
import { startTestService, type TestService } from '../support/service.js';

const NAMED_INSURED = '8626b373-c54d-498a-82bf-fd2d2f32b746';
const AGENCY = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';
const AGENT = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const COUNT = 1000;

let service: TestService;
const expectedOrder: string[] = [];

beforeAll(async () => {
  service = await startTestService();
  const seeded = Array.from({ length: COUNT }, (_, index) => {
    const id = randomUUID();
    expectedOrder.push(id);
    return plainContactRecords({
      id,
      // Zero-padded so that name order is seeding order; the word case differs on purpose.
      name: `${index % 2 ? 'Holder' : 'holder'} ${String(index).padStart(4, '0')}`,
      type: 'individual',
      roleIds: [NAMED_INSURED],
      agencyIds: [],
      addresses: [{ id: randomUUID(), addressLine1: `${index} Main St`, addressCity: 'Springfield', addressState: 'IL', addressZip: '62701', addressCountry: 'USA' }],
    });
  });
  await importContacts(seeded);
});

afterAll(async () => {
  await service?.stop();
});

const list = (body: Record<string, unknown>, apiKey?: string) => service.call('/api/v1/contacts/retrieveContactList', body, apiKey ? { apiKey } : {});

describe('retrieveContactList paging', () => {
  it('pages through 1,000 contacts in pages of 7, each once and in name order', async () => {
    const pages = Math.ceil(COUNT / 7);
    const answers = [];
    for (let start = 1; start <= pages; start += 8) {
      const batch = Array.from({ length: Math.min(8, pages - start + 1) }, (_, offset) =>
        list({ searchString: '', filter: 'Named Insured', currentPage: String(start + offset), pageSize: '7' }),
      );
      answers.push(...(await Promise.all(batch)));
    }
    for (const [index, answer] of answers.entries()) {
      expect(answer.body).toMatchObject({ success: true, activePage: index + 1, maxPages: 143, maxRecords: COUNT });
    }
    expect(answers.at(-1)?.body.records).toHaveLength(COUNT - 142 * 7);
    const ids = answers.flatMap((answer) => answer.body.records.map((record: { id: string }) => record.id));
    expect(ids).toEqual(expectedOrder);
    const first = answers[0].body.records[0];
    expect(first).toMatchObject({ type: 'individual', details: { name: 'holder 0000', role: 'Named Insured', address: '0 Main St, Springfield, IL 62701', is_approved_vendor: false } });
    expect(first.details.raw_addresses).toHaveLength(1);
  }, 120_000); // 143 calls: a budget for a loaded machine, not a performance bound

  it('answers all 1,000 in one page of 10000', async () => {
    const answer = await list({ searchString: '', filter: 'Named Insured', currentPage: 1, pageSize: 10000 });
    expect(answer.body).toMatchObject({ success: true, activePage: 1, maxPages: 1, maxRecords: COUNT });
    expect(answer.body.records.map((record: { id: string }) => record.id)).toEqual(expectedOrder);
  });

  it('answers an empty page past the end, and counts every contact without a role filter', async () => {
    const past = await list({ searchString: '', filter: 'Named Insured', currentPage: 200, pageSize: 7 });
    expect(past.body).toMatchObject({ success: true, activePage: 200, maxPages: 143, maxRecords: COUNT, records: [] });
    const everyone = await list({ searchString: '', filter: '', currentPage: 1, pageSize: 1 });
    // The bootstrap Administrator is a contact too.
    expect(everyone.body.maxRecords).toBe(COUNT + 1);
  });

  it('pages a name search over many matches', async () => {
    const answer = await list({ searchString: 'HOLDER 00', filter: 'Named Insured', currentPage: 2, pageSize: 50 });
    expect(answer.body).toMatchObject({ maxRecords: 100, maxPages: 2 });
    expect(answer.body.records.map((record: { id: string }) => record.id)).toEqual(expectedOrder.slice(50, 100));
  });

  it("pages an agent's own agency only", async () => {
    const agencyId = randomUUID();
    const agentId = randomUUID();
    const members = Array.from({ length: 20 }, (_, index) =>
      plainContactRecords({ id: randomUUID(), name: `Member ${String(index).padStart(2, '0')}`, type: 'individual', roleIds: [NAMED_INSURED], agencyIds: [agencyId] }),
    );
    await importContacts([
      plainContactRecords({ id: agencyId, name: 'Paging Agency', type: 'organization', roleIds: [AGENCY], agencyIds: [agencyId] }),
      plainContactRecords({ id: agentId, name: 'Paging Agent', type: 'individual', roleIds: [AGENT], agencyIds: [agencyId] }),
      ...members,
    ]);
    const { apiKey } = await createApiKey(agentId, 'paging agent');
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const answer = await list({ searchString: '', filter: 'Named Insured', currentPage: page, pageSize: 7 }, apiKey);
      expect(answer.body).toMatchObject({ success: true, maxRecords: 20, maxPages: 3 });
      seen.push(...answer.body.records.map((record: { id: string }) => record.id));
    }
    expect(seen).toEqual(members.map((member) => member.contact.id));
  });
});
