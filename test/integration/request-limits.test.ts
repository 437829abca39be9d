/**
 * The input limits of the request vocabulary, through the local server against DynamoDB
 * Local: what a store would choke on is refused as a validation message naming the field
 * (200, success false), never a 500, and what is accepted is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ITEM } from '../support/reference-product.js';
import { LIMITS } from '../../shared/platform/request-fields.js';
import { startTestService, successData, type CallOptions, type TestService } from '../support/service.js';

const P = '/api/v2/policies';

let service: TestService;
let policy: { policy_id: string; revision_id: string; policy_number: string };
let propertyId: string;

const nested = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { leaf: 'x' };
  for (let level = 1; level < levels; level += 1) value = { next: value };
  return value;
};

/** A refusal: status 200, success false, exactly the messages given. */
async function refused(path: string, body: Record<string, unknown>, messages: string[], options?: CallOptions) {
  const answer = await service.call(path, body, options);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body).toMatchObject({ success: false, messages });
}

beforeAll(async () => {
  service = await startTestService();
  policy = successData(await service.call(`${P}/create_policy`, {}));
  propertyId = successData(await service.call(`${P}/create_risk`, { revision_id: policy.revision_id })).id;
});
afterAll(async () => {
  await service?.stop();
});

describe('update_property_location', () => {
  it('takes the location wrapped twice, with the flags beside it, as well as the documented form', async () => {
    const twice = successData(
      await service.call(`${P}/update_property_location`, { location: { location: { id: propertyId, address_zip: '90210' }, reset_premiums: false } }),
    );
    expect(twice).toMatchObject({ id: propertyId, address_zip: '90210', address_state: 'CA' });
    const once = successData(await service.call(`${P}/update_property_location`, { location: { id: propertyId, address_line1: '1 Main St' } }));
    expect(once).toMatchObject({ id: propertyId, address_line1: '1 Main St', address_zip: '90210' });
  });

  it('refuses coordinates and years out of range, naming each field', async () => {
    await refused(`${P}/update_property_location`, { location: { id: propertyId, latitude: 91, longitude: '-181', year_built: 1599 } }, [
      'location.year_built: must be 1600 or more',
      'location.latitude: must be at most 90',
      'location.longitude: must be -180 or more',
    ]);
    await refused(`${P}/update_property_location`, { location: { id: propertyId, year_built: new Date().getUTCFullYear() + 2 } }, [
      'location.year_built: must be no later than next year',
    ]);
  });
});

describe('ids, text and numbers beyond their limits', () => {
  it('refuses an id longer than 128 characters and a malformed UUID before touching the store', async () => {
    await refused(`${P}/create_risk`, { revision_id: 'r'.repeat(129) }, ['revision_id: must be at most 128 characters']);
    await refused(`${P}/update_primary_property`, { property_id: 'p'.repeat(5000) }, ['property_id: must be a UUID']);
  });

  it('repeats at most 100 characters of an id it did not find', async () => {
    await refused(`${P}/create_risk`, { revision_id: 'r'.repeat(128) }, [`Revision ${'r'.repeat(100)}… was not found`]);
  });

  it('refuses a name over 200 characters and a statement over 4,000', async () => {
    await refused(`${P}/update_property_location`, { location: { id: propertyId, name: 'n'.repeat(201) } }, ['location.name: must be at most 200 characters']);
    const details = successData(await service.call(`${P}/retrieve_risk_details`, { risk_id: propertyId }));
    expect(details.name).toBe('Property #1');
  });

  it('refuses negative money, a third decimal and amounts too large to count in cents', async () => {
    const details = successData(await service.call(`${P}/retrieve_risk_details`, { risk_id: propertyId }));
    const dwelling = details.items.find((item: { item_id: string }) => item.item_id === ITEM.DWELLING);
    await refused(`${P}/update_rating_information`, { property_id: propertyId, items: [{ id: dwelling.id, limit: -1, deductible: '1000.005', annual_premium: 1e300 }] }, [
      'items.0.limit: must be 0 or more',
      'items.0.deductible: must be an amount of money: 0 or more, at most two decimals',
      'items.0.annual_premium: must be at most 90071992547409',
    ]);
  });
});

describe('free-form objects', () => {
  it('stores free-form values as deep as the limit in every placement, and refuses one level more', async () => {
    const details = successData(await service.call(`${P}/retrieve_risk_details`, { risk_id: propertyId }));
    const dwelling = details.items.find((item: { item_id: string }) => item.item_id === ITEM.DWELLING);
    const deepest = nested(LIMITS.freeFormDepth);
    successData(await service.call(`${P}/update_policy_last_visited`, { policy_id: policy.policy_id, params: deepest }));
    successData(await service.call(`${P}/update_underwriting_options`, { revision_id: policy.revision_id, underwriting_options: [{ optionId: 'o1', answer: deepest }] }));
    successData(await service.call(`${P}/update_rating_information`, { property_id: propertyId, items: [{ id: dwelling.id, builder_obj: deepest }], reset_premiums: false }));
    const tooDeep = nested(LIMITS.freeFormDepth + 1);
    await refused(`${P}/update_policy_last_visited`, { policy_id: policy.policy_id, params: tooDeep }, ['params: must not nest deeper than 29 levels']);
    await refused(`${P}/update_underwriting_options`, { revision_id: policy.revision_id, underwriting_options: [{ optionId: 'o1', answer: tooDeep }] }, [
      'underwriting_options.0.answer: must not nest deeper than 29 levels',
    ]);
  });

  it('refuses a builder_obj holding numbers beyond 2^53', async () => {
    const details = successData(await service.call(`${P}/retrieve_risk_details`, { risk_id: propertyId }));
    const dwelling = details.items.find((item: { item_id: string }) => item.item_id === ITEM.DWELLING);
    await refused(`${P}/update_rating_information`, { property_id: propertyId, items: [{ id: dwelling.id, builder_obj: nested(33) }] }, [
      'items.0.builder_obj: must not nest deeper than 29 levels',
    ]);
    await refused(`${P}/update_rating_information`, { property_id: propertyId, items: [{ id: dwelling.id, builder_obj: { categories: { size: 1e300 } } }] }, [
      'items.0.builder_obj: must hold only finite numbers within ±2^53',
    ]);
  });

  it('refuses a body nested past 64 levels whatever the field, however deep', async () => {
    for (const levels of [65, 100_000]) {
      const rawBody = `{"api_key":"${service.administratorApiKey}","policy_id":"${policy.policy_id}","extra":${'['.repeat(levels)}1${']'.repeat(levels)}}`;
      const answer = await service.call(`${P}/retrieve_policy`, {}, { rawBody });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: false, messages: ['extra: must not nest deeper than 64 levels'] });
    }
  });
});

describe('paging', () => {
  it('answers a page past the last as an empty page, and refuses page numbers and sizes above 10^6', async () => {
    const past = successData(await service.call(`${P}/retrieve_risks`, { revision_id: policy.revision_id, page: 1_000_000, page_size: 1_000_000 }));
    expect(past).toMatchObject({ page: 1_000_000, page_size: 1_000_000, total_size: 1, results: [] });
    await refused(`${P}/retrieve_risks`, { revision_id: policy.revision_id, page: 1_000_001, page_size: '1000001' }, [
      'page: must be at most 1000000',
      'page_size: must be at most 1000000',
    ]);
    const contacts = await service.call('/api/v1/contacts/retrieveContactList', { searchString: '', filter: '', currentPage: '1000000', pageSize: '10000' });
    expect(contacts.body).toMatchObject({ success: true, activePage: 1_000_000, records: [] });
  });
});

describe('a rejected create', () => {
  it('uses no policy number', async () => {
    const before = successData(await service.call(`${P}/new_policy_information`, {})).next_policy_number;
    await refused(`${P}/create_policy`, { inception_date: 'someday', policy_type_id: 'x'.repeat(500) }, [
      'inception_date: must be a date as YYYY-MM-DD or MM/DD/YYYY',
      'policy_type_id: must be at most 128 characters',
    ]);
    await refused(`${P}/create_policy`, { term_type: 'Custom' }, ['expiration_date: is required when term_type is Custom']);
    const options = Array.from({ length: 1000 }, (_, index) => ({ optionId: `option-${index}`, answer: 'a'.repeat(3000) }));
    // A body over 1 MiB carries its credential in a header (the local server checks it before reading on).
    await refused(`${P}/create_policy`, { underwriting_options: options }, ['underwriting_options: must be at most 100000 characters as JSON'], {
      apiKey: null,
      headers: { authorization: service.administratorApiKey },
    });
    expect(successData(await service.call(`${P}/new_policy_information`, {})).next_policy_number).toBe(before);
  });
});
