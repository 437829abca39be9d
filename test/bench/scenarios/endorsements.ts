/**
 * Endorsements: what issuing one costs on a policy with 10 committed revisions against one with
 * a single committed revision (the issue's rule: within 1.5x, capacity and latency, both measured
 * in this run). Each side issues the same change on 5 policies; the medians are compared.
 */
import { addDays } from '../../../shared/platform/dates.js';
import type { BenchContext, BenchRow, BenchScenario } from '../types.js';

const P = '/api/v2/policies';
const LOSSES = 'e29555d3-7101-4947-a3af-a279d8774c09';
const POLICIES = 5;
const EFFECTIVE = '2026-01-01';

async function ok(context: BenchContext, path: string, body: Record<string, unknown>) {
  const call = await context.call(path, body);
  if (call.body?.success !== true) throw new Error(`${path} failed: ${JSON.stringify(call.body)}`);
  return call;
}

async function issuedPolicy(context: BenchContext): Promise<string> {
  const quote = (await ok(context, `${P}/create_quote_extended`, {
    quote_info: {
      effective_date: '01/01/2026', line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Bench Endorse' }],
      underwriting_questions: [{ questionId: LOSSES, yesNoAnswer: 'no' }], locations: [{ address_zip: '10001' }],
      items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
    },
  })).body.data;
  await ok(context, `${P}/bind`, { bind_info: { policy_id: quote.policy_id } });
  await ok(context, `${P}/issue`, { issue_info: { policy_id: quote.policy_id } });
  return quote.policy_id;
}

/** Opens, edits and rates an endorsement k (dated k × 10 days into the term), then issues it: the issue call. */
async function endorse(context: BenchContext, policyId: string, k: number) {
  const revisionId = (await ok(context, `${P}/new_revision`, { policy_id: policyId, revision_date: addDays(EFFECTIVE, k * 10) })).body.data.revision_id;
  const details = (await ok(context, `${P}/retrieve_revision_details`, { revision_id: revisionId })).body.data;
  const dwelling = details.items.find((item: { name: string }) => item.name === 'Dwelling');
  await ok(context, `${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit: 250000 + k * 5000 }] });
  await ok(context, `${P}/rate_revision`, { revision_id: revisionId });
  return ok(context, `${P}/issue`, { issue_info: { policy_id: policyId, revision_id: revisionId } });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number) => Math.round(value * 100) / 100;

export const scenario: BenchScenario = {
  name: 'endorsements',
  async run(context) {
    const sides: Record<string, { ms: number[]; readUnits: number[]; writeUnits: number[] }> = {
      1: { ms: [], readUnits: [], writeUnits: [] },
      10: { ms: [], readUnits: [], writeUnits: [] },
    };
    // Interleaved, so that neither side alone pays for a cold service.
    for (let n = 0; n < POLICIES; n += 1) {
      for (const committed of [1, 10]) {
        const side = sides[committed];
        const policyId = await issuedPolicy(context);
        for (let k = 1; k < committed; k += 1) await endorse(context, policyId, k);
        const measured = await endorse(context, policyId, committed);
        side.ms.push(measured.ms);
        side.readUnits.push(measured.readUnits);
        side.writeUnits.push(measured.writeUnits);
      }
    }
    const rows: BenchRow[] = [1, 10].map((committed) => ({
      name: `issue an endorsement @ ${committed} committed revision(s), median of ${POLICIES}`,
      ms: round(median(sides[committed].ms)),
      readUnits: round(median(sides[committed].readUnits)),
      writeUnits: round(median(sides[committed].writeUnits)),
    }));
    rows.push({
      name: 'ratio 10 revisions / 1 (target within 1.5)',
      ms: round((rows[1].ms as number) / (rows[0].ms as number)),
      readUnits: round((rows[1].readUnits as number) / (rows[0].readUnits as number)),
      writeUnits: round((rows[1].writeUnits as number) / (rows[0].writeUnits as number)),
    });
    return rows;
  },
};
