/**
 * A search must cost what it matches, not what the table holds. Seeds 1,000 and then
 * 50,000 policies' search index items (the records and token items every policy write
 * puts, built by the same builders, written by BatchWrite rather than 50,000 quotes),
 * and after each step meters one fixed query: `search` for a surname five policies carry,
 * its read units (authentication included) and its warm latency (p50 of 40 calls); then
 * the ratio 50,000 / 1,000 of both, which must stay within 1.5.
 *
 * Seeded names are made of letters a-p only and numbers start with `BN-`, so they never
 * match the searched surname.
 */
import { randomUUID } from 'node:crypto';
import { batchWriteAll, type BatchWriteRequest } from '../../../shared/platform/dynamo.js';
import { searchIndexWritesForNewPolicy } from '../../../shared/search/index-writes.js';
import { benchSurname } from '../scenario-helpers.js';
import type { SearchablePolicy } from '../../../shared/search/model.js';
import type { BenchContext, BenchRow, BenchScenario } from '../types.js';

const SEARCHED = 'Quartermaine';
const FIRST_NAMES = ['Ada', 'Bea', 'Cal', 'Dee', 'Eli', 'Fae', 'Gia', 'Hal', 'Ian', 'Jo', 'Kai', 'Lea', 'Max', 'Ned', 'Ole', 'Pam'];
const STATUSES = ['Unsubmitted', 'Submitted', 'Active', 'Cancelled'];
const AGENCIES = Array.from({ length: 20 }, () => randomUUID());

const surname = benchSurname;

function policy(index: number, name: string): SearchablePolicy {
  return {
    policyId: randomUUID(),
    policyNumber: `BN-2026-${index}`,
    status: STATUSES[index % STATUSES.length],
    revisionState: index % 4 === 2 ? 'committed' : 'open',
    reviewState: 'NOT_STARTED',
    policyTypeId: 'd11cfc80-886b-4a1c-8e38-e77ae4256998',
    policyTypeName: 'Homeowner - HO3',
    flag: 'white',
    effectiveDate: '2026-06-01',
    expirationDate: '2027-06-01',
    dateAdded: new Date().toISOString(),
    namedInsuredNames: [name],
    agencyId: AGENCIES[index % AGENCIES.length],
    contactIds: [randomUUID()],
    activeRevisionId: randomUUID(),
  };
}

/** The Put of each index write, as a BatchWrite request (conditions do not apply to a fresh table). */
function putsOf(source: SearchablePolicy): BatchWriteRequest[] {
  return searchIndexWritesForNewPolicy(source).map((write) => ({ PutRequest: { Item: (write.Put as { Item: Record<string, unknown> }).Item } }));
}

async function seed(from: number, to: number): Promise<void> {
  let requests: BatchWriteRequest[] = [];
  for (let index = from; index < to; index += 1) {
    requests.push(...putsOf(policy(index, `${FIRST_NAMES[index % FIRST_NAMES.length]} ${surname(index)}`)));
    if (requests.length >= 5000) {
      await batchWriteAll(requests, { concurrency: 4 });
      requests = [];
    }
  }
  await batchWriteAll(requests, { concurrency: 4 });
}

async function measure(context: BenchContext, policies: number): Promise<BenchRow> {
  const body = { search_string: SEARCHED.toLowerCase(), page_size: 25 };
  await context.call('/api/v2/policies/search', body); // warm: module load, catalog cache
  const measured = await context.call('/api/v2/policies/search', body);
  if (measured.body?.success !== true || measured.body.records.length !== 5) throw new Error(`search failed: ${JSON.stringify(measured.body).slice(0, 300)}`);
  const latency = await context.latency('/api/v2/policies/search', body, { requests: 40, concurrency: 1 });
  return { name: `search "${SEARCHED}" (5 matches) @ ${policies} policies`, readUnits: measured.readUnits, answered: measured.body.records.length, p50: latency.p50, p99: latency.p99 };
}

export const scenario: BenchScenario = {
  name: 'search',
  async run(context) {
    const searched = Array.from({ length: 5 }, (_, index) => policy(1_000_000 + index, `${FIRST_NAMES[index]} ${SEARCHED}`));
    await batchWriteAll(searched.flatMap(putsOf));
    await seed(0, 1000 - 5);
    const small = await measure(context, 1000);
    await seed(1000 - 5, 50_000 - 5);
    const large = await measure(context, 50_000);
    const ratio = (a: unknown, b: unknown) => Math.round((Number(a) / Number(b)) * 100) / 100;
    return [
      small,
      large,
      { name: 'ratio 50,000 / 1,000 policies (must be within 1.5)', readUnits: ratio(large.readUnits, small.readUnits), p50: ratio(large.p50, small.p50) },
    ];
  },
};
