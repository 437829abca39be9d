/**
 * Policy numbers as clients see them: the next number shown is the number the next
 * create gets, numbers typed by hand are never offered again, and a refused create
 * takes no number. Each test file has its own table, so the sequence starts at 1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workedExampleQuoteInfo } from '../../infra/openapi.js';
import { clock } from '../../shared/platform/clock.js';
import { todayIso } from '../../shared/platform/dates.js';
import { startTestService, successData, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
/** The clock is pinned (a policy number carries the year it is made in): no day-of-run dependence. */
const TODAY = '2026-06-15';
const year = Number(TODAY.slice(0, 4));
const numbered = (sequence: number) => `10-${year}-${sequence}`;
/** What a third-party client sends to create_policy when it gives no number. */
const CLIENT_DEFAULTS = { manual_policy_number: true, term_type: '1 Year', renewal_term_type: '1 Year' };

let service: TestService;

beforeAll(async () => {
  clock.startAt(TODAY);
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
  clock.startAt(undefined);
});

const nextShown = async () => successData(await service.call(`${P}/new_policy_information`, {})).next_policy_number as string;
const createWith = async (body: Record<string, unknown>) => successData(await service.call(`${P}/create_policy`, body)).policy_number as string;

describe('numbers typed by hand in the system form', () => {
  it('a manual 10-YYYY-1 is passed over: the next number shown and the system creates are 2, 3, ... and never 1', async () => {
    expect(await createWith({ policy_number: numbered(1), manual_policy_number: true })).toBe(numbered(1));
    expect(await nextShown()).toBe(numbered(2));
    expect(await createWith(CLIENT_DEFAULTS)).toBe(numbered(2));
    expect(await nextShown()).toBe(numbered(3));
    expect(await createWith(CLIENT_DEFAULTS)).toBe(numbered(3));
    expect(await createWith({})).toBe(numbered(4));
  });

  it('a manual number ahead of the sequence is skipped when the sequence reaches it', async () => {
    expect(await createWith({ policy_number: numbered(6), manual_policy_number: true })).toBe(numbered(6));
    expect(await createWith(CLIENT_DEFAULTS)).toBe(numbered(5));
    expect(await nextShown()).toBe(numbered(7));
    expect(await createWith(CLIENT_DEFAULTS)).toBe(numbered(7));
  });

  it('create_policy with manual_policy_number true and no number answers a system number', async () => {
    const answer = await service.call(`${P}/create_policy`, { manual_policy_number: true });
    expect(successData(answer).policy_number).toMatch(new RegExp(`^10-${year}-\\d+$`));
  });

  it('50 concurrent creates get 50 distinct numbers, none of them a number typed by hand', async () => {
    const next = Number((await nextShown()).split('-')[2]);
    const typed = [next + 2, next + 3, next + 20].map(numbered);
    for (const policyNumber of typed) await createWith({ policy_number: policyNumber, manual_policy_number: true });
    const answers = await Promise.all(Array.from({ length: 50 }, () => service.call(`${P}/create_policy`, CLIENT_DEFAULTS)));
    const numbers = answers.map((answer) => successData(answer).policy_number as string);
    expect(new Set(numbers).size).toBe(50);
    for (const policyNumber of typed) expect(numbers).not.toContain(policyNumber);
    const sequence = numbers.map((policyNumber) => Number(policyNumber.split('-')[2])).sort((a, b) => a - b);
    // Every place from the first to the last went to these creates, except the three typed by hand.
    expect(sequence[0]).toBe(next);
    expect(sequence[49]).toBe(next + 52);
  });
});

describe('a refused create takes no number', () => {
  it('after creates refused for any reason, the next good create gets the next consecutive number', async () => {
    const before = Number((await createWith({})).split('-')[2]);
    const refusals: Array<[string, Record<string, unknown>]> = [
      ['create_policy', { term_type: 'Custom' }],
      ['create_policy', { policy_type_id: '00000000-0000-4000-8000-000000000000' }],
      ['create_policy', { underwriting_questions: [{ questionId: 'nope', yesNoAnswer: 'yes' }] }],
      ['create_policy', { policy_number: numbered(1), manual_policy_number: true }],
      ['create_policy', { property_zip: '00000' }],
      ['create_policy_from_externalquote', { quote: { items: [{ name: 'Flood' }] } }],
      ['create_policy_from_externalquote', { quote: { premiums: { annual_premium: 'a lot' } } }],
    ];
    for (const [operation, body] of refusals) {
      const answer = await service.call(`${P}/${operation}`, body);
      expect(answer.status, operation).toBe(200);
      expect(answer.body.success, `${operation} ${JSON.stringify(body)}`).toBe(false);
    }
    expect(await nextShown()).toBe(numbered(before + 1));
    expect(await createWith(CLIENT_DEFAULTS)).toBe(numbered(before + 1));
  });
});

describe('a create retried with its Idempotency-Key (after a 503 or a lost answer)', () => {
  it('create_policy answers the first policy again and takes no second number', async () => {
    const headers = { 'Idempotency-Key': `create-${crypto.randomUUID()}` };
    const first = successData(await service.call(`${P}/create_policy`, CLIENT_DEFAULTS, { headers }));
    const shown = await nextShown();
    const again = successData(await service.call(`${P}/create_policy`, CLIENT_DEFAULTS, { headers }));
    expect(again).toEqual(first);
    expect(await nextShown()).toBe(shown);
    // The same key with another body is a different request: refused, nothing made.
    const other = await service.call(`${P}/create_policy`, { ...CLIENT_DEFAULTS, term_type: '6 Months' }, { headers });
    expect(other.body.success).toBe(false);
    expect(JSON.stringify(other.body)).toMatch(/already used for a different request/);
    expect(await nextShown()).toBe(shown);
  });

  it('create_quote_extended answers the first quote again', async () => {
    const headers = { 'Idempotency-Key': `quote-${crypto.randomUUID()}` };
    const body = { quote_info: workedExampleQuoteInfo(todayIso()) };
    const first = successData(await service.call(`${P}/create_quote_extended`, body, { headers }));
    const shown = await nextShown();
    const again = successData(await service.call(`${P}/create_quote_extended`, body, { headers }));
    expect(again.policy_id).toBe(first.policy_id);
    expect(again.total).toEqual(first.total);
    expect(await nextShown()).toBe(shown);
  });
});
