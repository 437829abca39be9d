/**
 * Stored records declared once (after electrodb's entity declaration): a record kind names its
 * entity, the templates of its table key and of each index key it fills, and what it is for.
 * From that one declaration come its keys, the item it writes, the parse of an item read back,
 * its queries, and its row of docs/data-model.md: no key string is written anywhere else.
 *
 * A template is text with `${attribute}` placeholders filled from the record's own attributes
 * (`CLAIM#${claimId}`), so a key cannot disagree with the record it locates. A query names the
 * partition's attributes and as many leading attributes of the sort template as it knows: the
 * sort key's text up to the first unknown placeholder becomes a `begins_with`.
 */
import type { TransactionWrite } from './transactions.js';
import { config } from './config.js';
import { GLOBAL_INDEXES, TABLE_KEYS, type GlobalIndexName } from './table.js';
import type { QueryInput } from './dynamo.js';

export interface KeyTemplates {
  pk: string;
  sk: string;
}

export interface RecordDeclaration {
  /** The `entity` attribute every item of the kind carries. */
  entity: string;
  /** The table's key. */
  key: KeyTemplates;
  /** The global indexes the kind fills, by index name. */
  indexes?: Partial<Record<GlobalIndexName, KeyTemplates>>;
  /** Attributes DynamoDB removes the item by (the table's TTL), if any: named in the doc. */
  expires?: boolean;
}

type Values = Record<string, unknown>;

/** A template split into its text and its placeholders, in order. */
interface ParsedTemplate {
  text: string;
  parts: Array<{ literal: string } | { attribute: string }>;
  attributes: string[];
}

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function parseTemplate(text: string): ParsedTemplate {
  const parts: ParsedTemplate['parts'] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index! > last) parts.push({ literal: text.slice(last, match.index) });
    parts.push({ attribute: match[1] });
    last = match.index! + match[0].length;
  }
  if (last < text.length) parts.push({ literal: text.slice(last) });
  return { text, parts, attributes: parts.flatMap((part) => ('attribute' in part ? [part.attribute] : [])) };
}

export class MissingKeyAttributeError extends Error {
  constructor(entity: string, attribute: string, template: string) {
    super(`${entity}: the key template ${template} needs ${attribute}, which the record lacks`);
    this.name = 'MissingKeyAttributeError';
  }
}

function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

/** The whole key text; every placeholder must be given. */
function fill(entity: string, template: ParsedTemplate, values: Values): string {
  return template.parts
    .map((part) => {
      if ('literal' in part) return part.literal;
      const value = textOf(values[part.attribute]);
      if (value === undefined) throw new MissingKeyAttributeError(entity, part.attribute, template.text);
      return value;
    })
    .join('');
}

/** The key text up to the first placeholder not given, and whether it is whole. */
function prefix(template: ParsedTemplate, values: Values): { text: string; whole: boolean } {
  let text = '';
  for (const part of template.parts) {
    if ('literal' in part) {
      text += part.literal;
      continue;
    }
    const value = textOf(values[part.attribute]);
    if (value === undefined) return { text, whole: false };
    text += value;
  }
  return { text, whole: true };
}

const indexAttributes = (name: GlobalIndexName) => GLOBAL_INDEXES.find((index) => index.indexName === name)!;

export interface QueryOptions {
  /** Newest first (sort key descending). */
  newestFirst?: boolean;
  /** Sort keys between these values of the sort template's next attribute (inclusive), instead of a prefix. */
  between?: { attribute: string; from?: string; to?: string };
  limit?: number;
  /** Strongly consistent (the table's key only; an index never is). */
  consistent?: boolean;
}

export interface DeclaredRecord<T extends object> {
  readonly declaration: RecordDeclaration;
  /** The table key of the record (or of the values that locate it). */
  key(values: Values): Record<string, string>;
  /** The item as stored: its table key, its index keys (those whose attributes it has), its entity, its attributes. */
  item(record: T): Record<string, unknown>;
  /** The record read back, without what only storage needs. */
  parse(item: Record<string, unknown>): T;
  /** Whether a read item is of this kind. */
  is(item: Record<string, unknown>): boolean;
  /** A new record, as a write of a transaction: refused when one with its key exists. */
  create(record: T): TransactionWrite;
  /** The record replaced, guarded by the version it was read at (the record carries `version`, and is stored at version + 1). */
  replace(record: T & { version: number }, readVersion: number): TransactionWrite;
  /** The record written whatever was there (a record nothing else changes: a listing, a locator). */
  put(record: T): TransactionWrite;
  /** The record removed. */
  remove(values: Values): TransactionWrite;
  /** A check, in a transaction, that the record still stands at `version`. */
  unchanged(values: Values, version: number): TransactionWrite;
  /** The query of the record's whole table partition: every kind that shares it (a claim and its exposures, say), strongly consistent. */
  partition(values: Values): QueryInput;
  /** The query of the table (or of `index`) for records of this kind, from the values known. */
  query(values: Values, options?: QueryOptions & { index?: GlobalIndexName }): QueryInput;
}

/** Declares one stored record kind; see the module's comment. */
export function defineRecord<T extends object>(declaration: RecordDeclaration): DeclaredRecord<T> {
  const { entity } = declaration;
  const tableKey = { pk: parseTemplate(declaration.key.pk), sk: parseTemplate(declaration.key.sk) };
  const indexes = Object.entries(declaration.indexes ?? {}).map(([name, templates]) => ({
    name: name as GlobalIndexName,
    attributes: indexAttributes(name as GlobalIndexName),
    pk: parseTemplate(templates!.pk),
    sk: parseTemplate(templates!.sk),
  }));
  const table = () => config.tableName();
  const key = (values: Values) => ({ [TABLE_KEYS.partition]: fill(entity, tableKey.pk, values), [TABLE_KEYS.sort]: fill(entity, tableKey.sk, values) });
  const storageAttributes = new Set<string>([TABLE_KEYS.partition, TABLE_KEYS.sort, ...GLOBAL_INDEXES.flatMap((index) => [index.partition, index.sort])]);

  const item = (record: T): Record<string, unknown> => {
    const values = record as Values;
    const stored: Record<string, unknown> = { ...key(values), entity };
    for (const index of indexes) {
      // A record lacking an index's attributes is left out of that index (a sparse index).
      const pk = prefix(index.pk, values);
      const sk = prefix(index.sk, values);
      if (pk.whole && sk.whole) {
        stored[index.attributes.partition] = pk.text;
        stored[index.attributes.sort] = sk.text;
      }
    }
    for (const [attribute, value] of Object.entries(values)) {
      if (value !== undefined && !storageAttributes.has(attribute) && attribute !== 'entity') stored[attribute] = value;
    }
    return stored;
  };

  return {
    declaration,
    key,
    item,
    parse(stored) {
      const record: Values = {};
      for (const [attribute, value] of Object.entries(stored)) {
        if (storageAttributes.has(attribute) || attribute === 'entity') continue;
        record[attribute] = value;
      }
      return record as T;
    },
    is: (stored) => stored.entity === entity,
    create: (record) => ({ Put: { TableName: table(), Item: item(record), ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': TABLE_KEYS.partition } } }),
    replace: (record, readVersion) => ({
      Put: {
        TableName: table(),
        Item: item({ ...record, version: readVersion + 1 }),
        ConditionExpression: '#version = :readVersion',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':readVersion': readVersion },
      },
    }),
    put: (record) => ({ Put: { TableName: table(), Item: item(record) } }),
    remove: (values) => ({ Delete: { TableName: table(), Key: key(values) } }),
    unchanged: (values, version) => ({
      ConditionCheck: { TableName: table(), Key: key(values), ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': version } },
    }),
    partition: (values) => ({
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': TABLE_KEYS.partition },
      ExpressionAttributeValues: { ':pk': fill(entity, tableKey.pk, values) },
      ConsistentRead: true,
    }),
    query(values, options = {}) {
      const chosen = options.index ? indexes.find((index) => index.name === options.index) : undefined;
      if (options.index && !chosen) throw new Error(`${entity} is not in index ${options.index}`);
      const templates = chosen ?? tableKey;
      const names = chosen ? { pk: chosen.attributes.partition, sk: chosen.attributes.sort } : { pk: TABLE_KEYS.partition, sk: TABLE_KEYS.sort };
      const partition = fill(entity, templates.pk, values);
      const sort = prefix(templates.sk, values);
      const attributeNames: Record<string, string> = { '#pk': names.pk };
      const attributeValues: Record<string, unknown> = { ':pk': partition };
      let condition = '#pk = :pk';
      if (options.between) {
        const from = prefix(templates.sk, { ...values, [options.between.attribute]: options.between.from ?? '' });
        const to = prefix(templates.sk, { ...values, [options.between.attribute]: options.between.to ?? '' });
        attributeNames['#sk'] = names.sk;
        attributeValues[':from'] = from.text;
        // The upper bound takes in every key that goes on past `to` (the attributes after it).
        attributeValues[':to'] = `${to.text}\uffff`;
        condition += ' AND #sk BETWEEN :from AND :to';
      } else if (sort.text.length > 0) {
        attributeNames['#sk'] = names.sk;
        attributeValues[':sk'] = sort.text;
        condition += sort.whole ? ' AND #sk = :sk' : ' AND begins_with(#sk, :sk)';
      }
      return {
        ...(chosen ? { IndexName: chosen.name } : {}),
        KeyConditionExpression: condition,
        ExpressionAttributeNames: attributeNames,
        ExpressionAttributeValues: attributeValues,
        ...(options.newestFirst ? { ScanIndexForward: false } : {}),
        ...(options.limit ? { Limit: options.limit } : {}),
        ...(options.consistent && !chosen ? { ConsistentRead: true } : {}),
      };
    },
  };
}

/**
 * The rows of docs/data-model.md's generated table for these declarations, as markdown; what each
 * record is comes from its doc comment (infra/docs/declared-records.ts reads it), so that no
 * function's bundle carries the docs' text.
 */
export function recordsTable(records: readonly DeclaredRecord<object>[], describe: (entity: string) => string): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = records.map(({ declaration }) => {
    const indexes = Object.entries(declaration.indexes ?? {})
      .map(([name, templates]) => `${name}: \`${templates!.pk}\` / \`${templates!.sk}\``)
      .join('<br>');
    return `| ${declaration.entity} | \`${cell(declaration.key.pk)}\` | \`${cell(declaration.key.sk)}\` | ${indexes || '–'} | ${cell(describe(declaration.entity))} |`;
  });
  return ['| entity | pk | sk | indexes | what it is |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
