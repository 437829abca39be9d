/**
 * Quoting: create_quote_extended as existing clients send it (the worked example): the
 * DynamoDB capacity of one call, warm latency, and 100 quotes in a row through the local
 * server (the vendor's clients allowed 8 to 17 minutes for that; the aim here is under 10 s).
 * Then the pure rating engine on a revision of 1, 10 and 100 properties: the time per
 * property should stay flat (no worse than linear), shown as a ratio to the 1-property time.
 */
import { performance } from 'node:perf_hooks';
import { productFromRecords } from '../../../shared/catalog/model.js';
import { referenceCatalogRecords } from '../../../shared/catalog/reference-data.js';
import { todayIso } from '../../../shared/platform/dates.js';
import { rateRevision } from '../../../shared/rating/engine.js';
import type { PropertyToRate, RevisionToRate } from '../../../shared/rating/model.js';
import { billedMeter as capacityMeter } from '../billed-capacity.js';
import type { BenchRow, BenchScenario } from '../types.js';

const P = '/api/v2/policies';
const HO3 = 'd11cfc80-886b-4a1c-8e38-e77ae4256998';
const ITEM = {
  dwelling: '2deb7d04-daec-47e3-a98a-c9c075598673',
  otherStructures: '3d53c2b9-6b16-4cd3-99b6-6021399257cb',
  personalProperty: '5509dee8-a3c3-433b-aa92-1a7c6a241082',
  lossOfUse: '582e1ab5-8278-400a-a035-504b52e85e71',
  personalLiability: 'a53d092d-7a2d-42fc-a5b1-8927ae163edf',
  medicalPayments: '35d0d678-4008-45a2-b28e-dd483d8a4c04',
  claimsFree: 'cb8a78f6-ceb8-472e-b993-958dddbd8fa4',
  policyFee: '7f42b86a-e8b3-4655-96fa-7ccacbd3b502',
};
const QUESTION = { construction: '640841e5-3bf8-445e-ae51-607bd2aa9589', protectionClass: '771ae8ec-8b3e-4125-8f7a-6b5e504782f2', losses: 'e29555d3-7101-4947-a3af-a279d8774c09' };

const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

/** The worked example, sent as an existing client sends it. */
export function workedExample(index: number) {
  return {
    quote_info: {
      effective_date: usDate(todayIso()),
      inception_date: usDate(todayIso()),
      line_name: 'Homeowners',
      policy_type_name: 'Homeowner - HO3',
      underwriting_questions: [{ questionId: QUESTION.losses, yesNoAnswer: 'no', explanation: '' }],
      named_insureds: [{ name: `Bench Insured ${index}`, type: 'individual', phones: [{ number: '555-0100', type: 'home' }] }],
      locations: [{ address_line1: `${index} Main St`, address_city: 'New York', address_state: 'NY', address_zip: '10001', year_built: '1990', primary: true }],
      items: [
        { name: 'Dwelling', limit: 250000, deductible: 1000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' }, rating_details: ['Base Rate', 'Construction', 'Protection Class', 'Deductible', 'Minimum Premium'] },
        { name: 'Personal Liability', limit: 300000 },
        { name: 'Medical Payments', limit: 5000 },
      ],
    },
    run_uw_rules: true,
    requote: false,
    run_stateless: false,
  };
}

function property(number: number): PropertyToRate {
  return {
    id: `property-${number}`,
    name: `Property #${number}`,
    answers: { [QUESTION.construction]: number % 2 ? 'Frame' : 'Masonry', [QUESTION.protectionClass]: String((number % 8) + 1) },
    fields: { year_built: '1990' },
    items: [
      { id: `dwelling-${number}`, itemId: ITEM.dwelling, limitCents: (200_000 + number * 1000) * 100, deductibleCents: 1000_00 },
      { id: `other-structures-${number}`, itemId: ITEM.otherStructures },
      { id: `personal-property-${number}`, itemId: ITEM.personalProperty },
      { id: `loss-of-use-${number}`, itemId: ITEM.lossOfUse },
    ],
  };
}

function revisionOf(properties: number): RevisionToRate {
  return {
    policyTypeId: HO3,
    termStart: '2026-01-01',
    termEnd: '2027-01-01',
    answers: { [QUESTION.losses]: 'no' },
    properties: Array.from({ length: properties }, (_, index) => property(index + 1)),
    policyItems: [
      { id: 'liability', itemId: ITEM.personalLiability, limitCents: 300_000_00 },
      { id: 'medical', itemId: ITEM.medicalPayments, limitCents: 5000_00 },
      { id: 'claims-free', itemId: ITEM.claimsFree },
      { id: 'fee', itemId: ITEM.policyFee },
    ],
  };
}

/** Median milliseconds of one rating of `revision`, over enough runs to last about half a second. */
function medianRatingMs(revision: RevisionToRate): number {
  const product = productFromRecords(referenceCatalogRecords());
  for (let warm = 0; warm < 20; warm += 1) rateRevision(product, revision);
  const started = performance.now();
  rateRevision(product, revision);
  const once = Math.max(performance.now() - started, 0.001);
  const runs = Math.min(2000, Math.max(15, Math.round(500 / once)));
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    rateRevision(product, revision);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

export const scenario: BenchScenario = {
  name: 'quoting',
  async run(context) {
    const rows: BenchRow[] = [];
    const path = `${P}/create_quote_extended`;

    const first = await context.call(path, workedExample(0));
    if (first.body?.success !== true || first.body.data.total.annual_total !== 851.62) throw new Error(`create_quote_extended failed: ${JSON.stringify(first.body)}`);
    // The meter is reset before each call and left as the call left it: its count of DynamoDB requests is this call's.
    rows.push({ name: 'create_quote_extended (one call)', readUnits: first.readUnits, writeUnits: first.writeUnits, dynamoCalls: capacityMeter.calls, ms: round(first.ms, 1) });
    const stateless = await context.call(path, { ...workedExample(0), run_stateless: true });
    rows.push({ name: 'create_quote_extended run_stateless (one call)', readUnits: stateless.readUnits, writeUnits: stateless.writeUnits, dynamoCalls: capacityMeter.calls, ms: round(stateless.ms, 1) });

    // A quote's edit, on the quote just written: its header carries the named insured, the STP
    // result and the rate version, so it costs what the profile's quote edits cost.
    const quotePolicy = await context.call(`${P}/retrieve_policy`, { policy_number: first.body.data.quote_number });
    const quoteRevision = await context.call(`${P}/retrieve_revision_details`, { revision_id: quotePolicy.body?.data?.active_revision?.id });
    const liability = (quoteRevision.body?.data?.items as Array<{ id: string; name: string }> | undefined)?.find((item) => item.name === 'Personal Liability');
    const edit = await context.call(`${P}/update_rating_information`, { revision_id: quoteRevision.body?.data?.id, items: [{ id: liability?.id, limit: 500000 }] });
    if (edit.body?.success !== true) throw new Error(`update_rating_information on the quote failed: ${JSON.stringify(edit.body)}`);
    rows.push({ name: 'update_rating_information on a quote (one call)', readUnits: edit.readUnits, writeUnits: edit.writeUnits, dynamoCalls: capacityMeter.calls, ms: round(edit.ms, 1) });

    // 100 quotes in a row, each waiting for the last, as a client quoting a book of business does.
    let readUnits = 0;
    let writeUnits = 0;
    const started = performance.now();
    for (let index = 1; index <= 100; index += 1) {
      const call = await context.call(path, workedExample(index));
      if (call.body?.success !== true) throw new Error(`quote ${index} failed: ${JSON.stringify(call.body)}`);
      readUnits += call.readUnits;
      writeUnits += call.writeUnits;
    }
    const seconds = (performance.now() - started) / 1000;
    rows.push({ name: 'create_quote_extended: 100 quotes in a row', seconds: round(seconds), msPerQuote: round((seconds * 1000) / 100, 1), readUnits: round(readUnits, 1), writeUnits: round(writeUnits, 1) });

    const latency = await context.latency(path, workedExample(1000), { requests: 60, concurrency: 4 });
    rows.push({ name: 'create_quote_extended warm latency', ...latency });

    // Every new quote takes a number from one counter item (COUNTER#POLICYNUMBER, per prefix and year):
    // 200 at once against 50 at once shows whether that item is the bottleneck (within 1.5x of the throughput).
    const burst = async (count: number, offset: number) => {
      const began = performance.now();
      const answers = await Promise.all(Array.from({ length: count }, (_, index) => context.call(path, workedExample(offset + index))));
      const failed = answers.filter((answer) => answer.body?.success !== true).length;
      if (failed) throw new Error(`${failed} of ${count} concurrent quotes failed`);
      return count / ((performance.now() - began) / 1000);
    };
    const fifty = await burst(50, 2000);
    const twoHundred = await burst(200, 3000);
    rows.push({ name: 'create_quote_extended, 50 at once', quotesPerSecond: round(fifty, 1) });
    rows.push({ name: 'create_quote_extended, 200 at once (the numbering counter under load)', quotesPerSecond: round(twoHundred, 1), ratioTo50: round(fifty / twoHundred) });

    const baseline = medianRatingMs(revisionOf(1));
    for (const count of [1, 10, 100]) {
      const ms = count === 1 ? baseline : medianRatingMs(revisionOf(count));
      // Linear rating keeps msPerProperty flat and ratioToOne near the property count.
      rows.push({ name: `rating engine @ ${count} ${count === 1 ? 'property' : 'properties'}`, ms: round(ms, 3), msPerProperty: round(ms / count, 4), ratioToOne: round(ms / baseline, 1) });
    }
    return rows;
  },
};
