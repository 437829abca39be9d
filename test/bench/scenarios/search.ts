/**
 * A search must cost what it answers, not what the table holds nor what it matches. Seeds
 * 1,000 and then 50,000 policies' search index items (the records, listing entries, token
 * items and counters every policy write puts, built by the same builders, written by
 * BatchWrite rather than 50,000 quotes), and after each step meters one fixed query:
 * `search` for a surname five policies carry, its read units (authentication included) and
 * its warm latency (p50 of 40 calls); then the ratio 50,000 / 1,000 of both, which must stay
 * within 1.5. The same for an Administrator's listing page without a search string.
 * Then the cost of a page among many matches (issue 17, item 10): a page of 10 among 1,000
 * insureds sharing a word against a page among 100 (read units, and their ratio), and the
 * word 960 insureds share searched by 32 clients at once (p50/p99) beside a 5-match search
 * under the same load.
 *
 * Seeded names are made of letters a-p only and numbers start with `BN-`, so they never
 * match the searched surname.
 */
import { randomUUID } from 'node:crypto';
import { batchWriteAll, type BatchWriteRequest } from '../../../shared/platform/dynamo.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../../shared/platform/clients.js';
import { searchIndexItemsForImport } from '../../../shared/search/index-store.js';
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

/** Writes the index items of policies as a bulk load does: Puts by BatchWrite, the counters summed per shard. */
async function load(policies: readonly SearchablePolicy[]): Promise<void> {
  const { items, counterUpdates } = searchIndexItemsForImport(policies);
  await batchWriteAll(items.map((Item): BatchWriteRequest => ({ PutRequest: { Item } })), { concurrency: 4 });
  for (const update of counterUpdates) await documentClient().send(new UpdateCommand(update.Update as never));
}

async function seed(from: number, to: number): Promise<void> {
  let batch: SearchablePolicy[] = [];
  for (let index = from; index < to; index += 1) {
    batch.push(policy(index, `${FIRST_NAMES[index % FIRST_NAMES.length]} ${surname(index)}`));
    if (batch.length >= 500) {
      await load(batch);
      batch = [];
    }
  }
  await load(batch);
}

async function measure(context: BenchContext, policies: number): Promise<BenchRow[]> {
  const body = { search_string: SEARCHED.toLowerCase(), page_size: 25 };
  await context.call('/api/v2/policies/search', body); // warm: module load, catalog cache
  const measured = await context.call('/api/v2/policies/search', body);
  if (measured.body?.success !== true || measured.body.records.length !== 5) throw new Error(`search failed: ${JSON.stringify(measured.body).slice(0, 300)}`);
  const latency = await context.latency('/api/v2/policies/search', body, { requests: 40, concurrency: 1 });
  const listingBody = { page_size: 25, current_page: 3 };
  const listing = await context.call('/api/v2/policies/search', listingBody);
  if (listing.body?.success !== true || listing.body.records.length !== 25) throw new Error(`listing failed: ${JSON.stringify(listing.body).slice(0, 300)}`);
  const listingLatency = await context.latency('/api/v2/policies/search', listingBody, { requests: 40, concurrency: 1 });
  return [
    { name: `search "${SEARCHED}" (5 matches) @ ${policies} policies`, readUnits: measured.readUnits, answered: measured.body.records.length, p50: latency.p50, p99: latency.p99 },
    { name: `search without a string, page 3 of 25 @ ${policies} policies`, readUnits: listing.readUnits, answered: listing.body.records.length, p50: listingLatency.p50, p99: listingLatency.p99 },
  ];
}

/** A page of 10 among many matches of one word, against a page among few (issue 17, item 10). */
async function measureManyMatches(context: BenchContext): Promise<BenchRow[]> {
  const shared = (count: number, word: string, first: number) => Array.from({ length: count }, (_, index) => policy(first + index, `${FIRST_NAMES[index % FIRST_NAMES.length]} ${word}`));
  await load([...shared(1000, 'Thousandfold', 2_000_000), ...shared(100, 'Hundredfold', 3_000_000), ...shared(960, 'Ninesixtyfold', 4_000_000)]);
  const page = async (word: string) => {
    const body = { search_string: word, page_size: 10, current_page: 2 };
    await context.call('/api/v2/policies/search', body);
    const answer = await context.call('/api/v2/policies/search', body);
    if (answer.body?.success !== true || answer.body.records.length !== 10) throw new Error(`search failed: ${JSON.stringify(answer.body).slice(0, 300)}`);
    return answer;
  };
  const many = await page('thousandfold');
  const few = await page('hundredfold');
  const ratio = Math.round((many.readUnits / few.readUnits) * 100) / 100;
  const loaded = await context.latency('/api/v2/policies/search', { search_string: 'ninesixtyfold', page_size: 25 }, { requests: 320, concurrency: 32 });
  const quiet = await context.latency('/api/v2/policies/search', { search_string: SEARCHED.toLowerCase(), page_size: 25 }, { requests: 320, concurrency: 32 });
  return [
    { name: 'search, page of 10 among 1,000 matches', readUnits: many.readUnits, answered: many.body.records.length, maxPages: many.body.maxPages },
    { name: 'search, page of 10 among 100 matches', readUnits: few.readUnits, answered: few.body.records.length, maxPages: few.body.maxPages },
    { name: 'ratio 1,000 / 100 matches (was 9.7 reading every match\'s record)', readUnits: ratio },
    { name: 'search a word 960 insureds share, 32 clients at once (was p50 4.3 s, p99 8.3 s)', p50: loaded.p50, p99: loaded.p99, rps: loaded.rps },
    { name: `search "${SEARCHED}" (5 matches), 32 clients at once`, p50: quiet.p50, p99: quiet.p99, rps: quiet.rps },
  ];
}

export const scenario: BenchScenario = {
  name: 'search',
  async run(context) {
    const searched = Array.from({ length: 5 }, (_, index) => policy(1_000_000 + index, `${FIRST_NAMES[index]} ${SEARCHED}`));
    await load(searched);
    await seed(0, 1000 - 5);
    const [small, smallListing] = await measure(context, 1000);
    await seed(1000 - 5, 50_000 - 5);
    const [large, largeListing] = await measure(context, 50_000);
    const ratio = (a: unknown, b: unknown) => Math.round((Number(a) / Number(b)) * 100) / 100;
    return [
      small,
      large,
      { name: 'ratio 50,000 / 1,000 policies (must be within 1.5)', readUnits: ratio(large.readUnits, small.readUnits), p50: ratio(large.p50, small.p50) },
      smallListing,
      largeListing,
      { name: 'listing ratio 50,000 / 1,000 policies (must be within 1.5)', readUnits: ratio(largeListing.readUnits, smallListing.readUnits), p50: ratio(largeListing.p50, smallListing.p50) },
      ...(await measureManyMatches(context)),
    ];
  },
};
