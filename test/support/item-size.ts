/** DynamoDB's size of an item, as it bills writes (1 write unit per started KB): attribute names and values. */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** DynamoDB's size of an attribute value, in bytes. */
export function attributeValueSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^-|^0+|\.|0+$/g, '').length / 2) + 1;
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((sum, s) => sum + Buffer.byteLength(s), 0);
  if (value.NS) return value.NS.reduce((sum, n) => sum + attributeValueSize({ N: n }), 0);
  if (value.L) return 3 + value.L.reduce((sum, entry) => sum + 1 + attributeValueSize(entry), 0);
  if (value.M) return 3 + Object.entries(value.M).reduce((sum, [name, entry]) => sum + 1 + Buffer.byteLength(name) + attributeValueSize(entry), 0);
  return 0;
}

/** DynamoDB's size of an item: each attribute's name and value. */
export function itemSize(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + attributeValueSize(value), 0);
}
