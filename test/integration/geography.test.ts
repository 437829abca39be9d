import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../shared/auth/store.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { countyId } from '../../shared/geography/zip-lookup.js';
import { startTestService, type TestService } from '../support/service.js';

const ADDRESS_INFO = '/api/v1/contacts/retrieveAddressInfoFromZip';
const PROPERTY_INFO = '/api/v1/policies/retrievePropertyInfoFromZip';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const NAMED_INSURED_ROLE = '8626b373-c54d-498a-82bf-fd2d2f32b746';
const LOS_ANGELES = { id: countyId('06037'), name: 'Los Angeles', code: '06037' };

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

async function keyForRole(roleId: string, name: string): Promise<string> {
  const contactId = randomUUID();
  await createContactProfileIfAbsent({
    id: contactId, name, type: 'individual', roleIds: [roleId], agencyIds: [], createdAt: new Date().toISOString(), version: 1,
  });
  return (await createApiKey(contactId, `${name} key`)).apiKey;
}

describe('retrieveAddressInfoFromZip', () => {
  it('gives the city, county and state of a ZIP', async () => {
    const answer = await service.call(ADDRESS_INFO, { zip: '90210', addressLine1: '9336 Civic Center Dr' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      message: [],
      data: { valid: true, cities: ['Beverly Hills'], counties: ['Los Angeles'], stateAbbr: 'CA' },
    });
  });

  it('reads a ZIP+4 by its first five digits', async () => {
    const answer = await service.call(ADDRESS_INFO, { zip: '02134-1001' });
    expect(answer.body.data).toEqual({ valid: true, cities: ['Allston'], counties: ['Suffolk'], stateAbbr: 'MA' });
  });

  it('answers an unknown or malformed ZIP with valid false rather than an error', async () => {
    for (const zip of ['00000', 'abc', '1234', '']) {
      const answer = await service.call(ADDRESS_INFO, { zip });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: true, message: [], data: { valid: false, cities: [], counties: [], stateAbbr: '' } });
    }
  });

  it('accepts the fields wrapped in json_dict too', async () => {
    const answer = await service.call(ADDRESS_INFO, { json_dict: { zip: '90210' } });
    expect(answer.body.data).toMatchObject({ valid: true, stateAbbr: 'CA' });
  });

  it('names the zip field when it is missing', async () => {
    const answer = await service.call(ADDRESS_INFO, { addressLine1: '1 Main St' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: false, message: ['zip: is required'], data: null });
  });

  it('is open to agents and closed to callers without geography:read', async () => {
    const agent = await service.call(ADDRESS_INFO, { zip: '90210' }, { apiKey: await keyForRole(AGENT_ROLE, 'Alex Agent') });
    expect(agent.body.data.valid).toBe(true);
    const insured = await service.call(ADDRESS_INFO, { zip: '90210' }, { apiKey: await keyForRole(NAMED_INSURED_ROLE, 'Pat Insured') });
    expect(insured.status).toBe(403);
    expect(insured.body.success).toBe(false);
    const anonymous = await service.call(ADDRESS_INFO, { zip: '90210' }, { apiKey: null });
    expect(anonymous.status).toBe(401);
  });
});

describe('retrievePropertyInfoFromZip', () => {
  it('gives the cities and counties, with their ids, for a ZIP sent in json_dict', async () => {
    const answer = await service.call(PROPERTY_INFO, { json_dict: { stateAbbr: 'CA', zip: '90210', propId: randomUUID() } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      message: [],
      data: { valid: true, zip: '90210', stateAbbr: 'CA', cities: ['Beverly Hills'], counties: [LOS_ANGELES] },
    });
  });

  it('accepts json_dict as a JSON string, and the flat form', async () => {
    const asString = await service.call(PROPERTY_INFO, { json_dict: JSON.stringify({ stateAbbr: 'CA', zip: '90210' }) });
    expect(asString.body.data.counties).toEqual([LOS_ANGELES]);
    const flat = await service.call(PROPERTY_INFO, { stateAbbr: 'CA', zip: '90210-4321' });
    expect(flat.body.data).toMatchObject({ valid: true, zip: '90210', counties: [LOS_ANGELES] });
  });

  it('lists every place of a ZIP the data set gives several for', async () => {
    const answer = await service.call(PROPERTY_INFO, { json_dict: { stateAbbr: 'HI', zip: '96860' } });
    expect(answer.body.data).toMatchObject({ valid: true, cities: ['Jbphh', 'FPO AA'], counties: [{ name: 'Honolulu', code: '15003' }] });
  });

  it("answers valid false, with a reason, for a ZIP outside the property's state", async () => {
    const answer = await service.call(PROPERTY_INFO, { json_dict: { stateAbbr: 'TX', zip: '90210' } });
    expect(answer.body).toEqual({
      success: true,
      message: ['ZIP 90210 is not in TX (it is in CA)'],
      data: { valid: false, zip: '90210', stateAbbr: 'TX', cities: [], counties: [] },
    });
  });

  it('answers an unknown or malformed ZIP with valid false rather than an error', async () => {
    for (const zip of ['99999', 'ABCDE', '9021']) {
      const answer = await service.call(PROPERTY_INFO, { json_dict: { stateAbbr: 'CA', zip, propId: randomUUID() } });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: true, data: { valid: false, cities: [], counties: [] } });
    }
  });

  it('names the field when the property id is not a UUID', async () => {
    const answer = await service.call(PROPERTY_INFO, { json_dict: { stateAbbr: 'CA', zip: '90210', propId: 'property-1' } });
    expect(answer.body).toEqual({ success: false, message: ['propId: must be a property id (UUID)'], data: null });
  });
});
