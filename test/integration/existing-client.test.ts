/**
 * A third-party client library's session, replayed as it sends it (issue 8): every call a
 * POST whose body is the parameters as JSON with `api_key` added last, with no Content-Type
 * and no Authorization header; an answer counts only when the status is 200 and `success`
 * is true, and the caller then gets `data`, never top-level fields. Its wrappers drop every
 * falsy argument, so false and null never reach the service. (Its 5 s and 50 s timeouts are
 * not replayed: a test must not depend on this machine's speed.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ITEM } from '../support/reference-product.js';
import { startTestService, type TestService } from '../support/service.js';

const year = new Date().getUTCFullYear();
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

/** The error the client raises: `message` read first, then `messages`, lists joined with "; ". */
class ClientError extends Error {}

function messageOf(answer: Record<string, unknown>): string {
  const text = answer.message ?? answer.messages;
  return Array.isArray(text) ? text.join('; ') : String(text ?? '');
}

/** One call, as the client makes it. */
async function client(path: string, params: Record<string, unknown>): Promise<any> {
  // A byte body, as `requests` sends `data=json.dumps(...)`: fetch then adds no Content-Type.
  const body = new TextEncoder().encode(JSON.stringify({ ...params, api_key: service.administratorApiKey }));
  const response = await fetch(`${service.url}${path}`, { method: 'POST', body });
  const text = await response.text();
  if (response.status !== 200) throw new ClientError(`HTTP ${response.status}: ${text.slice(0, 200)}`);
  const answer = JSON.parse(text);
  if (answer.success !== true) throw new ClientError(messageOf(answer));
  return answer.data;
}

const v2 = (operation: string) => `/api/v2/policies/${operation}`;
/** What the client's create_policy wrapper sends when given no number. */
const CREATE_DEFAULTS = { manual_policy_number: true, term_type: '1 Year', renewal_term_type: '1 Year' };

describe('numbering, as the client sees it', () => {
  it('a manual 10-YYYY-1, then system creates get 2, 3, and never 1', async () => {
    const manual = await client(v2('create_policy'), { ...CREATE_DEFAULTS, policy_number: `10-${year}-1` });
    expect(manual.policy_number).toBe(`10-${year}-1`);
    expect((await client(v2('new_policy_information'), {})).next_policy_number).toBe(`10-${year}-2`);
    expect((await client(v2('create_policy'), CREATE_DEFAULTS)).policy_number).toBe(`10-${year}-2`);
    expect((await client(v2('create_policy'), CREATE_DEFAULTS)).policy_number).toBe(`10-${year}-3`);
  });
});

describe("the client's session", () => {
  const session: { nextNumber?: string; policyNumber?: string; revisionId?: string; propertyId?: string; waterBackupId?: string } = {};

  it('new_policy_information answers the next number', async () => {
    const data = await client(v2('new_policy_information'), {});
    expect(data.next_policy_number).toBe(`10-${year}-4`);
    session.nextNumber = data.next_policy_number;
  });

  it('create_policy with its defaults gets that number', async () => {
    const data = await client(v2('create_policy'), CREATE_DEFAULTS);
    expect(data.policy_number).toBe(session.nextNumber);
    expect(data.revision_data).toMatchObject({ revision_state: 'open', primary_property_id: null, agents: [], named_insureds: [] });
    session.policyNumber = data.policy_number;
  });

  it('retrieve_policy by number gives the active revision id and its primary property, none yet', async () => {
    const data = await client(v2('retrieve_policy'), { policy_number: session.policyNumber });
    expect(data.active_revision.id).toEqual(expect.any(String));
    expect(data.active_revision.primary_property_id).toBeNull();
    session.revisionId = data.active_revision.id;
  });

  it('create_risk adds Property #1', async () => {
    const data = await client(v2('create_risk'), { revision_id: session.revisionId });
    expect(data).toMatchObject({ revision_id: session.revisionId, name: 'Property #1' });
    session.propertyId = data.id;
  });

  it('update_property_location with the location wrapped twice', async () => {
    const data = await client(v2('update_property_location'), {
      location: { location: { id: session.propertyId, address_line1: '1 Main Street', address_zip: '90210', year_built: '1990' } },
    });
    expect(data).toMatchObject({ id: session.propertyId, address_line1: '1 Main Street', address_zip: '90210', address_state: 'CA' });
  });

  it('add_line_item with check_for_subline adds Water Backup to the primary property', async () => {
    const data = await client(v2('add_line_item'), { revision_id: session.revisionId, item_id: ITEM.WATER_BACKUP, check_for_subline: true });
    expect(data.added_items).toEqual([expect.objectContaining({ item_id: ITEM.WATER_BACKUP, property_id: session.propertyId, limit: 5000 })]);
    session.waterBackupId = data.added_items[0].id;
  });

  it('update_rating_information with reset_premium changes the limit', async () => {
    const data = await client(v2('update_rating_information'), {
      property_id: session.propertyId,
      items: [{ id: session.waterBackupId, limit: 10000 }],
      reset_premium: true,
    });
    expect(data).toMatchObject({ property_id: session.propertyId, revision_id: session.revisionId, reset_premiums: true });
    expect(data.items).toEqual([expect.objectContaining({ id: session.waterBackupId, limit: 10000, annual_premium: null })]);
  });

  it('retrieve_revision_details with include_contact_details names the primary property and the contacts', async () => {
    const data = await client(v2('retrieve_revision_details'), { revision_id: session.revisionId, include_contact_details: true });
    expect(data).toMatchObject({ id: session.revisionId, primary_property_id: session.propertyId, agents: [], named_insureds: [] });
    expect(data.policy_contacts.creator).toMatchObject({ id: service.administratorContactId, name: 'Bootstrap Administrator' });
  });

  it('retrieve_risks with retrieve_remaining lists the property', async () => {
    const data = await client(v2('retrieve_risks'), { revision_id: session.revisionId, retrieve_remaining: true });
    expect(data).toMatchObject({ page: 0, total_size: 1 });
    expect(data.results).toEqual([expect.objectContaining({ id: session.propertyId, primary: true })]);
  });

  it('storeNewContact answers the new contact id in data', async () => {
    const data = await client('/api/v1/contacts/storeNewContact', {
      role: 'Named Insured',
      content: { name: 'Robin Client', type: 'individual', addresses: [{ addressLine1: '1 Main Street', addressCity: 'Beverly Hills', addressState: 'CA', addressZip: '90210', addressCountry: 'USA', addressType: 'Mailing' }] },
    });
    expect(data.id).toEqual(expect.any(String));
    expect(data.address_ids).toHaveLength(1);
    const listed = await client('/api/v1/contacts/retrieveContactList', { searchString: 'Robin Client', filter: 'Named Insured', currentPage: '1', pageSize: '10' });
    expect(listed).toMatchObject({ activePage: 1, maxRecords: 1 });
    expect(listed.records).toEqual([expect.objectContaining({ id: data.id })]);
  });
});
