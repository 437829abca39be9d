import { beforeAll, describe, expect, it } from 'vitest';
import {
  agencyListingQuery,
  listingIndexKeys,
  searchListingKey,
  searchRecordKey,
  searchTokenKey,
  statusListingQuery,
  tokenIndexKeys,
  tokenPrefixQuery,
} from '../../shared/search/keys.js';
import {
  searchRemovalOf,
  searchIndexWritesForNamedInsureds,
  searchRecordOfNewPolicy,
  searchIndexWritesForFlag,
  searchReviewStateChange,
  searchIndexWritesForStatus,
  searchRecordOf,
  searchIndexWriteCount,
} from '../../shared/search/index-store.js';
import type { SearchRecord, SearchablePolicy } from '../../shared/search/model.js';
import { pageOf } from '../../shared/platform/paging.js';
import { indexedTokens, matchesWords, numberForms, numberOrderKey, passesFilters, policyTokens, searchWords, sortFieldOf, sortRecords, toAnswerRecord } from '../../shared/search/rules.js';
import { isInactive, readExternalPolicy } from '../../shared/policy-groups/rules.js';

const TABLE = 'search-unit-table';
const ID = '6a1f0c2e-1111-4222-8333-944455556666';

beforeAll(() => {
  process.env.TABLE_NAME = TABLE;
});

const policy = (over: Partial<SearchablePolicy> = {}): SearchablePolicy => ({
  policyId: ID,
  policyNumber: '10-2026-7',
  status: 'Unsubmitted',
  revisionState: 'open',
  reviewState: 'NOT_STARTED',
  policyTypeId: 'd11cfc80-886b-4a1c-8e38-e77ae4256998',
  policyTypeName: 'Homeowner - HO3',
  flag: 'white',
  effectiveDate: '2026-03-01',
  expirationDate: '2027-03-01',
  dateAdded: '2026-02-20T10:00:00.000Z',
  namedInsuredNames: ["Siobhán O'Brien-Watts"],
  agencyId: 'agency-1',
  contactIds: ['contact-1'],
  activeRevisionId: 'revision-1',
  ...over,
});

describe('what a policy is found by', () => {
  it('a number by itself, by each tail after a dash, and by the digits alone of each', () => {
    expect(numberForms('10-2026-7')).toEqual(['10-2026-7', '2026-7', '7', '1020267', '20267']);
    expect(numberForms('HO-2026-15')).toEqual(['ho-2026-15', '2026-15', '15', '202615']);
  });

  it("names by their words, folded: case, accents, apostrophes (O'Brien is obrien)", () => {
    expect(policyTokens(policy())).toEqual(['siobhan', 'obrien', 'watts', '10-2026-7', '2026-7', '7', '1020267', '20267']);
  });

  it('a search string: number fragments keep their dashes, other words split like names', () => {
    expect(searchWords('  Mary-Jane  10-2026-7 ')).toEqual(['mary', 'jane', '10-2026-7']);
    expect(searchWords("O'BRIEN")).toEqual(['obrien']);
    expect(searchWords('')).toEqual([]);
  });

  it('matches when every searched word begins some token', () => {
    const tokens = policyTokens(policy());
    for (const text of ['sio', 'OBRIEN watts', '10-2026', '2026-7', '1020267', '20267']) expect(matchesWords(tokens, searchWords(text)), text).toBe(true);
    for (const text of ['siobhan smith', '2026-8', '1020268', 'brien']) expect(matchesWords(tokens, searchWords(text)), text).toBe(false);
  });
});

describe('filters, sorting and pages', () => {
  const records = [
    searchRecordOf(policy({ policyId: 'a', policyNumber: '10-2026-10', namedInsuredNames: ['Cy Doe'], effectiveDate: '2026-01-05' })),
    searchRecordOf(policy({ policyId: 'b', policyNumber: '10-2026-9', namedInsuredNames: ['Ada Doe'], effectiveDate: '2026-03-01', status: 'Active' })),
    searchRecordOf(policy({ policyId: 'c', policyNumber: '10-2026-11', namedInsuredNames: ['Bea Doe'], effectiveDate: '2025-12-31' })),
  ];
  const ids = (list: SearchRecord[]) => list.map((record) => record.policyId);

  it('reads a sort field in either spelling', () => {
    expect(sortFieldOf('policy_number')).toBe('policyNumber');
    expect(sortFieldOf('effectiveDate')).toBe('effectiveDate');
    expect(sortFieldOf('EFFECTIVE_DATE')).toBe('effectiveDate');
    expect(sortFieldOf('premium')).toBeUndefined();
  });

  it('sorts numbers inside text as numbers, dates by time, names by text, both ways', () => {
    expect(ids(sortRecords(records, { field: 'policyNumber', order: 'asc' }))).toEqual(['b', 'a', 'c']);
    expect(ids(sortRecords(records, { field: 'policyNumber', order: 'desc' }))).toEqual(['c', 'a', 'b']);
    expect(ids(sortRecords(records, { field: 'effectiveDate', order: 'asc' }))).toEqual(['c', 'a', 'b']);
    expect(ids(sortRecords(records, { field: 'namedInsured', order: 'desc' }))).toEqual(['a', 'c', 'b']);
  });

  it('filters on status, type by name or id, revision and review states, any case', () => {
    const none = { statuses: [], policyTypes: [], revisionStates: [], reviewStates: [] };
    expect(records.filter((record) => passesFilters(record, { ...none, statuses: ['active'] })).map((record) => record.policyId)).toEqual(['b']);
    expect(records.every((record) => passesFilters(record, { ...none, policyTypes: ['homeowner - ho3'] }))).toBe(true);
    expect(records.every((record) => passesFilters(record, { ...none, policyTypes: ['d11cfc80-886b-4a1c-8e38-e77ae4256998'] }))).toBe(true);
    expect(records.some((record) => passesFilters(record, { ...none, reviewStates: ['APPROVED_BY_UW'] }))).toBe(false);
  });

  it('pages: maxPages of the whole, an empty page past the end', () => {
    expect(pageOf([1, 2, 3, 4, 5], 2, 2)).toEqual({ activePage: 2, maxPages: 3, records: [3, 4] });
    expect(pageOf([1, 2, 3], 5, 2)).toEqual({ activePage: 5, maxPages: 2, records: [] });
    expect(pageOf([], 1, 25)).toEqual({ activePage: 1, maxPages: 0, records: [] });
    expect(pageOf([], 1, 25, { emptyHasOnePage: true })).toEqual({ activePage: 1, maxPages: 1, records: [] });
  });

  it('answers a record with MM/DD/YYYY dates and the names joined by ", "', () => {
    expect(toAnswerRecord(searchRecordOf(policy({ namedInsuredNames: ['Ada Doe', 'Cy Doe'] })))).toEqual({
      status: 'Unsubmitted',
      namedInsured: 'Ada Doe, Cy Doe',
      expirationDate: '03/01/2027',
      effectiveDate: '03/01/2026',
      policyId: ID,
      flag: 'white',
      policyType: 'Homeowner - HO3',
      policyNumber: '10-2026-7',
      reviewState: 'NOT_STARTED',
    });
  });
});

describe('keys and the writes that keep the index current', () => {
  it('orders policy numbers as people read them: numbers inside as numbers, case folded', () => {
    const numbers = ['SW-2040-10', 'sw-2040-9', 'SW-2040-8', '10-2026-100', '10-2026-7', '9-2026-1', '10-2026-007x', 'A1', 'A-1'];
    const byKey = [...numbers].sort((a, b) => (numberOrderKey(a) < numberOrderKey(b) ? -1 : numberOrderKey(a) > numberOrderKey(b) ? 1 : 0));
    expect(byKey).toEqual(['9-2026-1', '10-2026-7', '10-2026-007x', '10-2026-100', 'A-1', 'A1', 'SW-2040-8', 'sw-2040-9', 'SW-2040-10']);
    expect(numberOrderKey('10-2026-7')).toBe('210-42026-17');
    expect(numberOrderKey('CM#0')).toBe('cm10');
  });

  it('builds the exact keys and queries', () => {
    expect(searchRecordKey(ID)).toEqual({ pk: `PSEARCH#${ID}`, sk: 'RECORD' });
    expect(searchListingKey(ID)).toEqual({ pk: `PSEARCH#${ID}`, sk: 'LISTING' });
    expect(searchTokenKey(ID, 'smith')).toEqual({ pk: `PSEARCH#${ID}`, sk: 'TOKEN#smith' });
    expect(tokenIndexKeys({ policyId: ID, policyNumber: '10-2026-7', agencyId: 'ag' }, 'smith')).toEqual({
      gsi1pk: 'PTOKEN#s',
      gsi1sk: 'smith#210-42026-17',
      gsi3pk: 'PATOKEN#ag#s',
      gsi3sk: 'smith#210-42026-17',
    });
    expect(tokenIndexKeys({ policyId: ID, policyNumber: '1', agencyId: null }, 'smith')).not.toHaveProperty('gsi3pk');
    expect(listingIndexKeys({ policyId: ID, policyNumber: '10-2026-7', status: 'Active', agencyId: 'ag' })).toEqual({
      gsi1pk: 'PLISTALL',
      gsi1sk: `210-42026-17#${ID}`,
      gsi2pk: 'PSTATUS#Active',
      gsi2sk: `210-42026-17#${ID}`,
      gsi3pk: 'PAGENCY#ag',
      gsi3sk: `210-42026-17#${ID}`,
    });
    expect(listingIndexKeys({ policyId: ID, policyNumber: '1', status: 'Active', agencyId: null })).not.toHaveProperty('gsi3pk');
    expect(tokenPrefixQuery(TABLE, 'smi')).toEqual({
      TableName: TABLE,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'PTOKEN#s', ':prefix': 'smi' },
      ProjectionExpression: 'pk, gsi1sk',
    });
    expect(tokenPrefixQuery(TABLE, 'smi', 'ag')).toEqual({
      TableName: TABLE,
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk AND begins_with(gsi3sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'PATOKEN#ag#s', ':prefix': 'smi' },
      ProjectionExpression: 'pk, gsi3sk',
    });
    expect(statusListingQuery(TABLE, 'Active')).toMatchObject({ TableName: TABLE, IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': 'PSTATUS#Active' } });
    expect(agencyListingQuery(TABLE, 'ag')).toMatchObject({ TableName: TABLE, IndexName: 'gsi3', KeyConditionExpression: 'gsi3pk = :pk', ExpressionAttributeValues: { ':pk': 'PAGENCY#ag' } });
  });

  it('a new policy: the record (created only once), its listing entry and one token item (keys only) per token', () => {
    const writes = searchRecordOfNewPolicy(policy());
    expect(writes).toHaveLength(3 + policyTokens(policy()).length);
    expect(writes[0].Put).toMatchObject({ TableName: TABLE, ConditionExpression: 'attribute_not_exists(pk)', Item: { pk: `PSEARCH#${ID}`, sk: 'RECORD', entity: 'PolicySearchRecord' } });
    expect((writes[0].Put as { Item: object }).Item).not.toHaveProperty('gsi2pk');
    expect(writes[1].Put).toEqual({
      TableName: TABLE,
      Item: {
        pk: `PSEARCH#${ID}`, sk: 'LISTING', gsi1pk: 'PLISTALL', gsi1sk: `210-42026-17#${ID}`, gsi2pk: 'PSTATUS#Unsubmitted', gsi2sk: `210-42026-17#${ID}`, gsi3pk: 'PAGENCY#agency-1', gsi3sk: `210-42026-17#${ID}`,
        status: 'Unsubmitted', revisionState: 'open', reviewState: 'NOT_STARTED', policyTypeId: 'd11cfc80-886b-4a1c-8e38-e77ae4256998', policyTypeName: 'Homeowner - HO3',
      },
    });
    expect(writes[2].Update).toMatchObject({ Key: { pk: 'PSEARCHCOUNT', sk: expect.stringMatching(/^ADDED#\d\d$/) }, UpdateExpression: 'ADD #count :by', ExpressionAttributeValues: { ':by': 1 } });
    expect(writes[3].Put).toEqual({
      TableName: TABLE,
      Item: { pk: `PSEARCH#${ID}`, sk: 'TOKEN#siobhan', gsi1pk: 'PTOKEN#s', gsi1sk: 'siobhan#210-42026-17', gsi3pk: 'PATOKEN#agency-1#s', gsi3sk: 'siobhan#210-42026-17' },
    });
  });

  it('a status change moves the record and its listing entry together, only if they exist', () => {
    expect(searchIndexWritesForStatus(ID, 'Cancelled')).toEqual([
      {
        Update: {
          TableName: TABLE,
          Key: { pk: `PSEARCH#${ID}`, sk: 'RECORD' },
          UpdateExpression: 'SET #s0 = :s0',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#s0': 'status' },
          ExpressionAttributeValues: { ':s0': 'Cancelled' },
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: { pk: `PSEARCH#${ID}`, sk: 'LISTING' },
          UpdateExpression: 'SET #s0 = :s0, #s1 = :s1',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#s0': 'status', '#s1': 'gsi2pk' },
          ExpressionAttributeValues: { ':s0': 'Cancelled', ':s1': 'PSTATUS#Cancelled' },
        },
      },
    ]);
    // The listing entry carries what listings filter on; the flag it does not.
    const review = searchReviewStateChange(ID, 'APPROVED_BY_UW');
    expect(review.map((write) => (write.Update as unknown as { Key: { sk: string } }).Key.sk)).toEqual(['RECORD', 'LISTING']);
    expect(review[1].Update).toMatchObject({ ExpressionAttributeNames: { '#s0': 'reviewState' }, ExpressionAttributeValues: { ':s0': 'APPROVED_BY_UW' } });
    expect(searchIndexWritesForFlag(ID, 'red')).toHaveLength(1);
  });

  it('writes no token item for a token that begins a longer token of the policy, keeping every token on the record', () => {
    expect(indexedTokens(['ann', 'annabel', 'lee', '10-2026-2', '2026-2', '2', '1020262', '20262'])).toEqual(['annabel', 'lee', '10-2026-2', '2026-2', '1020262', '20262']);
    const named = policy({ policyNumber: '10-2026-2', namedInsuredNames: ['Ann Annabel'] });
    const writes = searchRecordOfNewPolicy(named);
    expect(writes.filter((write) => write.Put).map((write) => (write.Put as unknown as { Item: { sk: string } }).Item.sk)).toEqual([
      'RECORD', 'LISTING', 'TOKEN#annabel', 'TOKEN#10-2026-2', 'TOKEN#2026-2', 'TOKEN#1020262', 'TOKEN#20262',
    ]);
    expect((writes[0].Put as unknown as { Item: { tokens: string[] } }).Item.tokens).toEqual(['ann', 'annabel', '10-2026-2', '2026-2', '2', '1020262', '20262']);
    expect(searchIndexWriteCount(named)).toBeGreaterThanOrEqual(writes.length);
  });

  it('new named insureds: a token left without its longer token gets its item; a stored item of the older layout no longer needed is deleted', () => {
    const before = searchRecordOf(policy({ policyNumber: '10-2026-2', namedInsuredNames: ['Ann Annabel'] }));
    const writes = searchIndexWritesForNamedInsureds(before, ['Ann Lee'], ['contact-1']);
    const sks = (kind: 'Put' | 'Delete') =>
      writes.filter((write) => write[kind]).map((write) => (kind === 'Put' ? (write.Put as unknown as { Item: { sk: string } }).Item.sk : (write.Delete as unknown as { Key: { sk: string } }).Key.sk));
    // `2` may have an item (written before token items left prefixes out): it is deleted, since `2026-2` finds the policy.
    expect(sks('Delete')).toEqual(['TOKEN#annabel', 'TOKEN#2']);
    expect(sks('Put')).toEqual(['TOKEN#ann', 'TOKEN#lee']);
  });

  it('new named insureds: tokens no longer true deleted, new ones put; a removed policy takes all its items', () => {
    const before = searchRecordOf(policy({ namedInsuredNames: ['Ada Doe'] }));
    const writes = searchIndexWritesForNamedInsureds(before, ['Ada Roe'], ['contact-1']);
    expect(writes.filter((write) => write.Delete).map((write) => (write.Delete as unknown as { Key: { sk: string } }).Key.sk)).toEqual(['TOKEN#doe']);
    expect(writes.filter((write) => write.Put).map((write) => (write.Put as unknown as { Item: { sk: string } }).Item.sk)).toEqual(['TOKEN#roe']);
    const removal = searchRemovalOf(before);
    expect(removal).toHaveLength(3 + before.tokens.length);
    // Counted apart from additions, so that a requote's one transaction never writes one counter twice.
    expect(removal[1].Update).toMatchObject({ Key: { pk: 'PSEARCHCOUNT', sk: expect.stringMatching(/^REMOVED#\d\d$/) } });
  });
});

describe('external policies and groups', () => {
  it('reads a posted external policy, or names why it fails', () => {
    expect(readExternalPolicy({ policy_number: ' X-1 ', other_details: { a: 1 } })).toEqual({ value: { policy_number: 'X-1', policy_type_id: null, other_details: { a: 1 } } });
    expect(readExternalPolicy({ policy_number: 42 })).toEqual({ value: { policy_number: '42', policy_type_id: null, other_details: {} } });
    expect(readExternalPolicy({})).toEqual({ reason: 'policy_number is required' });
    expect(readExternalPolicy({ policy_number: 'X', policy_type_id: 'nope' })).toEqual({ reason: 'policy_type_id must be a UUID' });
    expect(readExternalPolicy({ policy_number: 'X', other_details: [1] })).toEqual({ reason: 'other_details must be an object' });
    expect(readExternalPolicy('X')).toEqual({ reason: 'must be an object with a policy_number' });
  });

  it('a group with fewer than two policies is inactive', () => {
    expect([0, 1, 2, 3].map(isInactive)).toEqual([true, true, false, false]);
  });
});
