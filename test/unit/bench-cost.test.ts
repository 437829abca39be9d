/** The bench's pricing (test/bench/cost.ts): what a call costs, and that the profile prices what was measured. */
import { describe, expect, it } from 'vitest';
import { callCost, ISSUE_35_POLICY_YEAR, mixCost, monthlyCost, perMillion, policyYearCost, POLICY_YEAR_PROFILE, profileCall } from '../bench/cost.js';

/** A results.json with every row the profile reads, at round figures. */
function resultsWith(figures: { readUnits: number; writeUnits: number; ms: number }, reads = figures) {
  const results: Record<string, Array<Record<string, unknown>>> = {};
  for (const line of POLICY_YEAR_PROFILE) {
    if ('estimate' in line.source) continue;
    const read = /policy reads|searches/.test(line.what);
    (results[line.source.scenario] ??= []).push({ name: line.source.row, ...(read ? reads : figures) });
  }
  return results;
}

describe('the price of a call', () => {
  it('adds DynamoDB units, Lambda milliseconds at 512 MB and the request, and the HTTP API request', () => {
    // retrieve_policy as measured: 7.5 read units, 18.3 ms.
    const cost = callCost({ readUnits: 7.5, writeUnits: 0, ms: 18.3 });
    expect(perMillion(cost.dynamo)).toBe(0.94);
    expect(perMillion(cost.api)).toBe(1);
    expect(perMillion(cost.total)).toBe(2.26);
  });

  it('charges no API Gateway request for a call a schedule or a queue makes', () => {
    expect(callCost({ ms: 5, internal: true }).api).toBe(0);
  });
});

describe('the policy-year profile', () => {
  it('prices a measured line from its bench row, not from a copied figure', () => {
    const line = POLICY_YEAR_PROFILE.find((candidate) => candidate.what.startsWith('payments'))!;
    expect(profileCall(line, resultsWith({ readUnits: 3, writeUnits: 8, ms: 40 }))).toMatchObject({ readUnits: 3, writeUnits: 8, ms: 40, measured: true });
  });

  it('refuses to price a line whose row the results lack, naming the scenario to run', () => {
    const line = POLICY_YEAR_PROFILE.find((candidate) => candidate.what.startsWith('payments'))!;
    expect(() => profileCall(line, {})).toThrow(/npm run bench -- --no-bundles policy-year/);
  });

  it('weighs reads and writes by how often a policy makes them, and the month by the number of policies', () => {
    const results = resultsWith({ readUnits: 2, writeUnits: 4, ms: 30 }, { readUnits: 2, writeUnits: 0, ms: 10 });
    const mix = mixCost(results);
    // The policy reads and the searches read alike here, so the reads' mix is that one call's price.
    expect(mix.readsPerMillion).toBe(perMillion(callCost({ readUnits: 2, writeUnits: 0, ms: 10 }).total));
    expect(monthlyCost(100_000, results).total).toBeCloseTo(monthlyCost(10_000, results).total * 10, 6);
  });
});

describe("issue 35's policy-year", () => {
  it('prices every line from a bench row: none is an estimate', () => {
    expect(ISSUE_35_POLICY_YEAR.filter((line) => 'estimate' in line.source).map((line) => line.what)).toEqual([]);
    expect(POLICY_YEAR_PROFILE.filter((line) => 'estimate' in line.source).map((line) => line.what)).toEqual([]);
  });

  it("adds the S3 and SQS requests a row measured to those its line adds, and prices them", () => {
    const results: Record<string, Array<Record<string, unknown>>> = {};
    for (const line of ISSUE_35_POLICY_YEAR) if (!('estimate' in line.source)) (results[line.source.scenario] ??= []).push({ name: line.source.row, readUnits: 1, writeUnits: 1, ms: 10, s3Puts: 1, sqsRequests: 1 });
    const documents = ISSUE_35_POLICY_YEAR.find((line) => line.what.startsWith('documents'))!;
    const call = profileCall({ what: documents.what, perPolicyYear: documents.count, source: documents.source, extra: documents.extra }, results);
    // The request's queue (send, receive, delete) on top of what the call itself sent.
    expect(call).toMatchObject({ s3Puts: 1, sqsRequests: 4, internal: true, measured: true });
    const year = policyYearCost(results);
    expect(year.lines.every((line) => line.measured)).toBe(true);
    expect(year.s3AndSqs).toBeGreaterThan(0);
  });
});
