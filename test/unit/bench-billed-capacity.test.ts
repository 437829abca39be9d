/** The bench's DynamoDB meter prices items of known size as AWS bills them (test/bench/billed-capacity.ts). */
import { describe, expect, it } from 'vitest';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { billedItemReads, billedMeter, billedQueryReads, billedWriteUnits, meterRequests, s3RequestKind, TABLE_INDEXES } from '../bench/billed-capacity.js';
import { itemSize } from '../support/item-size.js';

type Item = Record<string, AttributeValue>;

/** An item of exactly `bytes` bytes: its keys, any index keys given, and a padding string. */
function itemOf(bytes: number, attributes: Record<string, string> = {}): Item {
  const item: Item = { pk: { S: 'POLICY#p1' }, sk: { S: 'REVISION' } };
  for (const [name, value] of Object.entries(attributes)) item[name] = { S: value };
  const padding = bytes - itemSize(item) - 'padding'.length;
  if (padding < 0) throw new Error('item too small for its keys');
  item.padding = { S: 'x'.repeat(padding) };
  expect(itemSize(item)).toBe(bytes);
  return item;
}

describe('the size of an item', () => {
  it('counts attribute names and values: strings by their UTF-8 bytes, numbers by their significant digits', () => {
    // "pk" 2 + "POLICY#1" 8; "n" 1 + 123 (2 bytes of digits + 1); "é" is 2 bytes; a list of two strings 3 + (1 + 1) * 2.
    expect(itemSize({ pk: { S: 'POLICY#1' }, n: { N: '123' } })).toBe(14);
    expect(itemSize({ name: { S: 'é' } })).toBe(6);
    expect(itemSize({ l: { L: [{ S: 'a' }, { S: 'b' }] } })).toBe(1 + 3 + 4);
  });
});

describe('what a write is billed', () => {
  it('is one unit per started KB of the item', () => {
    expect(billedWriteUnits({ after: itemOf(1024) })).toBe(1);
    expect(billedWriteUnits({ after: itemOf(1025) })).toBe(2);
    expect(billedWriteUnits({ after: itemOf(3000) })).toBe(3);
  });

  it('is doubled inside a transaction', () => {
    expect(billedWriteUnits({ after: itemOf(1025), transactional: true })).toBe(4);
  });

  it('is billed on the larger of the item before and after', () => {
    expect(billedWriteUnits({ before: itemOf(2500), after: itemOf(500) })).toBe(3);
    expect(billedWriteUnits({ before: itemOf(2500) })).toBe(3); // a delete
  });

  it('adds a write for each index the item is projected into, and none for an index whose keys it lacks', () => {
    const listed = itemOf(900, { gsi1pk: 'AGENCY#a', gsi1sk: '2026-11-28', gsi2pk: 'STATUS#Quote', gsi2sk: 'p1' });
    expect(billedWriteUnits({ after: listed })).toBe(3);
    expect(billedWriteUnits({ after: listed, transactional: true })).toBe(6);
    // A partition key without its sort key leaves the item out of the index.
    expect(billedWriteUnits({ after: itemOf(900, { gsi3pk: 'DUE' }) })).toBe(1);
    expect(TABLE_INDEXES.map((index) => index.indexName)).toEqual(['gsi1', 'gsi2', 'gsi3']);
  });

  it('writes an index entry once when an update keeps its key, twice (delete and put) when it moves it', () => {
    const before = itemOf(900, { gsi1pk: 'DUE', gsi1sk: '2026-11-28T10:00:00Z' });
    const kept = itemOf(950, { gsi1pk: 'DUE', gsi1sk: '2026-11-28T10:00:00Z' });
    const moved = itemOf(950, { gsi1pk: 'DUE', gsi1sk: '2026-11-28T10:05:00Z' });
    expect(billedWriteUnits({ before, after: kept })).toBe(2);
    expect(billedWriteUnits({ before, after: moved })).toBe(3);
    // Leaving the index: the old entry deleted.
    expect(billedWriteUnits({ before, after: itemOf(950) })).toBe(2);
    // Each copy is billed at its own size: a 2.5 KB item's index entry is 3 units.
    expect(billedWriteUnits({ after: itemOf(2500, { gsi1pk: 'A', gsi1sk: 'B' }), transactional: true })).toBe(12);
  });

  it('bills a write whose condition failed for the item alone', () => {
    const before = itemOf(900, { gsi1pk: 'DUE', gsi1sk: 'x' });
    expect(billedWriteUnits({ before, after: itemOf(1500, { gsi1pk: 'DUE', gsi1sk: 'y' }), applied: false })).toBe(2);
  });
});

describe('what a read is billed', () => {
  it('is one unit per started 4 KB of each item read strongly consistent, half eventually consistent, two in a transaction', () => {
    expect(billedItemReads([4096], 'strong')).toBe(1);
    expect(billedItemReads([4097], 'strong')).toBe(2);
    expect(billedItemReads([4097], 'eventual')).toBe(1);
    expect(billedItemReads([4097], 'transactional')).toBe(4);
    // A BatchGet rounds each item; a key that found nothing costs the least read.
    expect(billedItemReads([100, 100, undefined], 'strong')).toBe(3);
  });

  it('sums a Query\'s items before rounding, once for the page', () => {
    expect(billedQueryReads([2000, 2000, 2000], 'strong')).toBe(2);
    expect(billedQueryReads([2000, 2000, 2000], 'eventual')).toBe(1);
    expect(billedQueryReads([], 'strong')).toBe(1);
  });
});

describe('what S3 and SQS requests are billed', () => {
  it('prices GET and HEAD at the GET price, DELETE at nothing and every other request at the PUT price', () => {
    expect(['GetObject', 'HeadObject'].map(s3RequestKind)).toEqual(['get', 'get']);
    expect(['PutObject', 'CopyObject', 'ListObjectsV2', 'UploadPart'].map(s3RequestKind)).toEqual(['put', 'put', 'put', 'put']);
    expect(s3RequestKind('DeleteObject')).toBe('free');
  });

  it('counts the requests of every client of the metered classes while the meter is on, and none while it is off', async () => {
    class Client {
      async send(command: object) {
        return command.constructor.name;
      }
    }
    class GetObjectCommand {}
    class PutObjectCommand {}
    class SendMessageCommand {}
    const S3Client = class extends Client {};
    const SQSClient = class extends Client {};
    meterRequests({ S3Client, SQSClient });
    billedMeter.enabled = false;
    await new S3Client().send(new GetObjectCommand());
    billedMeter.reset();
    const s3 = new S3Client();
    expect(await s3.send(new GetObjectCommand())).toBe('GetObjectCommand');
    await s3.send(new PutObjectCommand());
    await new SQSClient().send(new SendMessageCommand());
    billedMeter.enabled = false;
    expect({ s3Gets: billedMeter.s3Gets, s3Puts: billedMeter.s3Puts, sqsRequests: billedMeter.sqsRequests }).toEqual({ s3Gets: 1, s3Puts: 1, sqsRequests: 1 });
  });
});
