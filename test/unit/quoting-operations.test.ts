import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContactsOf, plainContactRecords } from '../../shared/contacts/store.js';
import { lossAnalysisResultUpdate } from '../../shared/policies/keys.js';
import { quoteRetirement } from '../../shared/policies/store.js';
import type { PolicyRecord, RevisionRecord } from '../../shared/policies/model.js';
import { requoteResult } from '../../shared/quotes/result.js';
import { fromSimpleQuote } from '../../shared/quotes/schemas.js';
import { builtInLossReport, lossesOnFile, REFERRAL_SCORE, riskScore } from '../../shared/underwriting/loss-analysis.js';

const NAMED_INSURED = '8626b373-c54d-498a-82bf-fd2d2f32b746';
let savedTable: string | undefined;
beforeAll(() => {
  savedTable = process.env.TABLE_NAME;
  process.env.TABLE_NAME = 'quotes-unit';
});
afterAll(() => {
  if (savedTable === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = savedTable;
});

describe('the built-in loss analysis vendor', () => {
  it('scores construction, fire protection and age', () => {
    expect(riskScore({ name: 'P', construction: 'Superior', protectionClass: '2', yearBuilt: '2001' })).toBe(0);
    expect(riskScore({ name: 'P', construction: 'Masonry', protectionClass: '6', yearBuilt: '1990' })).toBe(2);
    expect(riskScore({ name: 'P', construction: 'Frame', protectionClass: '10', yearBuilt: '1930' })).toBe(7);
    // Unknown answers count as middling rather than as safe.
    expect(riskScore({ name: 'P' })).toBe(2);
  });

  it('answers the same report for the same properties, every time', () => {
    const request = { properties: [{ name: 'Property #1', addressLine1: '1 Main St', addressZip: '10001', addressState: 'NY', construction: 'Frame', protectionClass: '3', yearBuilt: '1990' }] };
    expect(builtInLossReport(request)).toEqual(builtInLossReport(structuredClone(request)));
    expect(lossesOnFile({ name: 'no address' })).toBe(0);
  });

  it('refers a property at the referral score even with no loss on file, and names it, never its address', () => {
    const risky = { name: 'Property #2', construction: 'Frame', protectionClass: '9', yearBuilt: '1940' };
    expect(riskScore(risky)).toBeGreaterThanOrEqual(REFERRAL_SCORE);
    const report = builtInLossReport({ properties: [risky] });
    expect(report).toEqual({
      lossesReported: false,
      claimsFreeDiscountApplies: true,
      referral: true,
      summary: '1 property checked; no losses on file; risk score 5 or more at Property #2.',
    });
  });

  it('reports losses on file for about a quarter of addresses, and then no claims-free discount', () => {
    const reports = Array.from({ length: 200 }, (_, n) => builtInLossReport({ properties: [{ name: 'P', addressLine1: `${n} Elm St`, addressZip: '10001' }] }));
    const withLosses = reports.filter((report) => report.lossesReported);
    expect(withLosses.length).toBeGreaterThan(20);
    expect(withLosses.length).toBeLessThan(90);
    for (const report of withLosses) expect(report).toMatchObject({ claimsFreeDiscountApplies: false, referral: true });
  });
});

describe('the writes of the quote operations', () => {
  it('records a loss analysis only while the revision waits for that job, moving its version', () => {
    expect(lossAnalysisResultUpdate('t', 'rev-1', 'job-1', { completedAt: '2026-03-01T10:00:00.000Z', result: { referral: false } })).toEqual({
      TableName: 't',
      Key: { pk: 'REVISION#rev-1', sk: 'REVISION' },
      UpdateExpression: 'SET #uw.#la.#status = :completed, #uw.#la.#completedAt = :completedAt, #uw.#la.#result = :result ADD #version :one',
      ConditionExpression: '#uw.#la.#jobId = :jobId AND #uw.#la.#status = :requested',
      ExpressionAttributeNames: { '#uw': 'underwriting', '#la': 'lossAnalysis', '#status': 'status', '#completedAt': 'completedAt', '#result': 'result', '#jobId': 'jobId', '#version': 'version' },
      ExpressionAttributeValues: { ':completed': 'completed', ':requested': 'requested', ':completedAt': '2026-03-01T10:00:00.000Z', ':result': { referral: false }, ':jobId': 'job-1', ':one': 1 },
    });
  });

  it('retires a requoted quote under its versions: its number item only if still its own, its open revision archived', () => {
    const policy = { id: 'pol-1', policyNumber: '10-2026-4', version: 3 } as PolicyRecord;
    const header = { id: 'rev-1', version: 7 } as RevisionRecord;
    const retired = { at: '2026-03-01T10:00:00.000Z', replacedByPolicyId: 'pol-2', replacedByPolicyNumber: '10-2026-5' };
    const [number, policyUpdate, revisionUpdate] = quoteRetirement(policy, header, retired) as any[];
    expect(number).toEqual({
      Delete: { TableName: 'quotes-unit', Key: { pk: 'POLICYNUMBER#10-2026-4', sk: 'POLICYNUMBER' }, ConditionExpression: 'policyId = :policyId', ExpressionAttributeValues: { ':policyId': 'pol-1' } },
    });
    expect(policyUpdate.Update).toMatchObject({ Key: { pk: 'POLICY#pol-1', sk: 'POLICY' }, ConditionExpression: '#version = :expected' });
    expect(policyUpdate.Update.ExpressionAttributeValues).toMatchObject({ ':expected': 3, ':a0': retired, ':a1': false });
    expect(revisionUpdate.Update).toMatchObject({ Key: { pk: 'REVISION#rev-1', sk: 'REVISION' }, ConditionExpression: '#version = :expected AND #state = :open' });
    expect(revisionUpdate.Update.ExpressionAttributeValues).toMatchObject({ ':expected': 7, ':a1': 'archived', ':a2': '2026-03-01 10:00:00' });
  });

  it("creates a quote's contacts with one update per shared listing counter (a transaction touches an item once)", () => {
    const records = ['Ann One', 'Bea Two'].map((name, index) => plainContactRecords({ id: `c-${index}`, name, type: 'individual', roleIds: [NAMED_INSURED], agencyIds: ['agency-1'] }));
    const writes = newContactsOf(records);
    const keys = writes.map((write: any) => JSON.stringify(write.Put?.Item ? { pk: write.Put.Item.pk, sk: write.Put.Item.sk } : write.Update.Key));
    expect(new Set(keys).size).toBe(keys.length);
    const counters = writes.filter((write: any) => write.Update);
    expect(counters.length).toBeGreaterThan(0);
    for (const counter of counters as any[]) expect(counter.Update.ExpressionAttributeValues[':delta']).toBe(2);
    expect(writes.filter((write: any) => write.Put?.Item.entity === 'Contact').map((write: any) => write.Put.Item.name)).toEqual(['Ann One', 'Bea Two']);
  });
});

describe('the quote requests and answers', () => {
  it("turns create_quote's one named insured into create_quote_extended's list", () => {
    const info = fromSimpleQuote({
      effective_date: '2026-03-01',
      line_name: 'Homeowners',
      policy_type_name: 'Homeowner - HO3',
      named_insured: 'Robin Simple',
      named_insured_type: 'organization',
      named_insured_address: { address_line1: '1 Main St', address_zip: '10001' },
      locations: [{ address_zip: '10001' }],
      items: [{ name: 'Dwelling', limit: '250000' }],
    } as never);
    expect(info.named_insureds).toEqual([{ name: 'Robin Simple', type: 'organization', addresses: [{ address_line1: '1 Main St', address_zip: '10001' }] }]);
    expect(info).toMatchObject({ effective_date: '2026-03-01', line_name: 'Homeowners', items: [{ name: 'Dwelling' }] });
  });

  it("answers a requote without rating_details and stp, keeping the rest", () => {
    const result = {
      quote_number: '10-2026-9',
      policy_id: 'p',
      total: { pro_rata_fees: 25, pro_rata_premium: 1, pro_rata_total: 26, annual_fees: 25, annual_premium: 1, annual_total: 26 },
      items: [{ name: 'Dwelling', annual_amount: 1, pro_rata_amount: 1, rating_details: [{ 'Base Rate': 1 }], identifier: 'Frame' }],
      forms: [],
      stp: { ran: true, success: true, details: [] },
    };
    expect(requoteResult(result)).toEqual({ ...result, stp: undefined, items: [{ name: 'Dwelling', annual_amount: 1, pro_rata_amount: 1, identifier: 'Frame' }] } as never);
  });
});
