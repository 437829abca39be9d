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
 *
 * Every function bundles this module with the declarations it writes: it is kept small (its
 * parameters built by a few shared helpers), and what only the docs need lives apart (recordsTable).
 */
import type { TransactionWrite } from './transactions.js';
import { config } from './config.js';
import type { GlobalIndexName } from './table.js';
import type { QueryInput } from './dynamo.js';

export interface KeyTemplates {
  pk: string;
  sk: string;
}

type Values = Record<string, unknown>;

export interface RecordDeclaration {
  /** The `entity` attribute every item of the kind carries. */
  entity: string;
  /** The table's key. */
  key: KeyTemplates;
  /** The global indexes the kind fills, by index name. */
  indexes?: Partial<Record<GlobalIndexName, KeyTemplates>>;
  /**
   * The attribute that carries the entity's name: `entity` unless told (the catalog's records carry
   * `kind`); false for a kind whose records say what they are in an attribute of their own.
   */
  entityAttribute?: string | false;
  /** Attributes DynamoDB removes the item by (the table's TTL), if any: named in the doc. */
  expires?: boolean;
  /**
   * Key parts computed from the record's attributes (a shard of its id, a name in one case): they
   * fill the templates and are never stored. A value given under the part's own name wins (a query
   * of one shard). Each answers undefined while what it is computed from is not given.
   */
  computed?: Record<string, (values: Values) => string | number | undefined>;
}

/** A template split at its placeholders: its text at the even places, the attributes named at the odd ones. */
export const parseTemplate = (text: string): string[] => text.split(/\$\{(\w+)\}/);


export interface QueryOptions {
  /** Newest first (sort key descending). */
  newestFirst?: boolean;
  /**
   * A comparison of the sort key instead of its prefix: each bound is the sort template filled from
   * the query's values and the bound's own, as far as they go (`{ eventId: '~' }` past every event).
   */
  sort?: { gt: Values } | { gte: Values } | { lt: Values } | { lte: Values } | { between: [Values, Values] };
  /** Strongly consistent (the table's key only; an index never is). */
  consistent?: boolean;
}

const COMPARISONS: Record<string, string> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** A guard of a removal: the record stands. */
export type RemoveGuard = { exists: true };

/** What locates records of a kind: some of its attributes (the record itself will do), or key parts. */
type Locator<T> = Partial<T> | Values;

export interface DeclaredRecord<T extends object> {
  readonly declaration: RecordDeclaration;
  /** The table key of the record (or of the values that locate it). */
  key(values: Locator<T>): { pk: string; sk: string };
  /**
   * The item as stored: its table key, its index keys (those whose attributes it has), its entity, its
   * attributes. `keyValues` fill the templates without being stored (what locates a record it does not carry).
   */
  item(record: T, keyValues?: Values): Record<string, unknown>;
  /** The record read back, without what only storage needs. */
  parse(item: Record<string, unknown>): T;
  /** Whether a read item is of this kind. */
  is(item: Record<string, unknown>): boolean;
  /** A new record, as a write of a transaction: refused when one with its key exists. */
  create(record: T, keyValues?: Values): TransactionWrite;
  /** The record replaced, guarded by the version it was read at (the record carries `version`, and is stored at version + 1). */
  replace(record: T & { version: number }, readVersion: number, keyValues?: Values): TransactionWrite;
  /** The record written whatever was there (a record nothing else changes: a listing, a locator). */
  put(record: T, keyValues?: Values): TransactionWrite;
  /** The record removed; guarded, only if it still stands. */
  remove(values: Locator<T>, guard?: RemoveGuard): TransactionWrite;
  /** A check, in a transaction, that the record still stands at `version` (a claim's deductible ledger a payment takes none of). */
  unchanged(values: Locator<T>, version: number): TransactionWrite;
  /** The query of the record's whole table partition: every kind that shares it (a claim and its exposures, say), strongly consistent. */
  partition(values: Locator<T>): QueryInput;
  /** The query of the table (or of `index`) for records of this kind, from the values known. */
  query(values: Locator<T>, options?: QueryOptions & { index?: GlobalIndexName }): QueryInput;
}

/** What only storage needs: the table's and the indexes' key attributes, and the entity. */
const STORAGE = /^(?:[ps]k|gsi\d[ps]k|entity)$/;

/** The condition that a record stands (or does not), by its partition key. */
const standing = (exists: boolean) => ({ ConditionExpression: `attribute_${exists ? '' : 'not_'}exists(#pk)`, ExpressionAttributeNames: { '#pk': 'pk' } });
/** The condition that a record stands at `version`. */
const atVersion = (version: number) => ({ ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': version } });

/** A key's template parts and the attributes it is stored under. */
interface Layout {
  pk: string[];
  sk: string[];
  names: readonly [string, string];
}

/** Declares one stored record kind; see the module's comment. */
export function defineRecord<T extends object>(declaration: RecordDeclaration): DeclaredRecord<T> {
  const { entity, computed, entityAttribute: tag = 'entity' } = declaration;
  const storage = (attribute: string) => STORAGE.test(attribute) || attribute === tag;
  const layout = (templates: KeyTemplates, names: readonly [string, string]): Layout => ({ pk: parseTemplate(templates.pk), sk: parseTemplate(templates.sk), names });
  const tableLayout = layout(declaration.key, ['pk', 'sk']);
  const indexes: Record<string, Layout> = {};
  // The table's indexes store their keys as `<index>pk` and `<index>sk` (table.ts).
  for (const [name, templates] of Object.entries(declaration.indexes ?? {})) indexes[name] = layout(templates!, [`${name}pk`, `${name}sk`]);

  /** The key text up to the first placeholder without a value, and whether it is whole. */
  const prefix = (parts: string[], values: Values): [string, boolean] => {
    let text = parts[0];
    for (let place = 1; place < parts.length; place += 2) {
      const value = values[parts[place]] ?? computed?.[parts[place]]?.(values);
      if (value === undefined || value === null || value === '') return [text, false];
      text += value + parts[place + 1];
    }
    return [text, true];
  };
  const fill = (parts: string[], values: Values): string => {
    const [text, whole] = prefix(parts, values);
    // A key asked of values lacking one of its attributes: a bug of the caller, never a user's mistake.
    if (!whole) throw new Error(`${entity}: a key needs every attribute of ${parts}`);
    return text;
  };
  const table = () => config.tableName();
  const key = (values: Locator<T>) => ({ pk: fill(tableLayout.pk, values as Values), sk: fill(tableLayout.sk, values as Values) });

  const item = (record: T, keyValues?: Values): Record<string, unknown> => {
    const values: Values = { ...record, ...keyValues };
    const stored: Record<string, unknown> = key(values);
    if (tag) stored[tag] = entity;
    for (const index of Object.values(indexes)) {
      // A record lacking an index's attributes is left out of that index (a sparse index).
      const [pk, wholePk] = prefix(index.pk, values);
      const [sk, wholeSk] = prefix(index.sk, values);
      if (wholePk && wholeSk) {
        stored[index.names[0]] = pk;
        stored[index.names[1]] = sk;
      }
    }
    for (const [attribute, value] of Object.entries(record)) if (value !== undefined && !storage(attribute)) stored[attribute] = value;
    return stored;
  };
  const put = (record: T, keyValues?: Values, condition?: object) => ({ Put: { TableName: table(), Item: item(record, keyValues), ...condition } });

  return {
    declaration,
    key,
    item,
    parse: (stored) => Object.fromEntries(Object.entries(stored).filter(([attribute]) => !storage(attribute))) as T,
    is: (stored) => !!tag && stored[tag] === entity,
    create: (record, keyValues) => put(record, keyValues, standing(false)),
    replace: (record, readVersion, keyValues) => put({ ...record, version: readVersion + 1 }, keyValues, atVersion(readVersion)),
    put: (record, keyValues) => put(record, keyValues),
    remove: (values, guard) => ({ Delete: { TableName: table(), Key: key(values), ...(guard && standing(true)) } }),
    unchanged: (values, version) => ({ ConditionCheck: { TableName: table(), Key: key(values), ...atVersion(version) } }),
    // The whole partition: the table's key without a sort condition.
    partition: (values) => find({ ...tableLayout, sk: [''] }, values as Values, { consistent: true }),
    query: (values, options = {}) => find(options.index ? indexes[options.index] : tableLayout, values as Values, options),
  };

  function find(chosen: Layout, values: Values, options: QueryOptions & { index?: GlobalIndexName }): QueryInput {
      // An index the kind is not in has no layout: a bug of the caller, which fails here.
      const names: Record<string, string> = { '#pk': chosen.names[0] };
      const attributeValues: Values = { ':pk': fill(chosen.pk, values) };
      const bound = (extra: Values) => prefix(chosen.sk, { ...values, ...extra })[0];
      const [comparison, bounds] = (options.sort ? Object.entries(options.sort)[0] : []) as [string?, (Values | Values[])?];
      let sort = '';
      if (comparison === 'between') {
        attributeValues[':from'] = bound((bounds as Values[])[0]);
        attributeValues[':to'] = bound((bounds as Values[])[1]);
        sort = ' AND #sk BETWEEN :from AND :to';
      } else if (comparison) {
        attributeValues[':sk'] = bound(bounds as Values);
        sort = ` AND #sk ${COMPARISONS[comparison]} :sk`;
      } else {
        const [text, whole] = prefix(chosen.sk, values);
        if (text) {
          attributeValues[':sk'] = text;
          sort = whole ? ' AND #sk = :sk' : ' AND begins_with(#sk, :sk)';
        }
      }
      if (sort) names['#sk'] = chosen.names[1];
      // Parameters left undefined are not sent.
      return {
        IndexName: options.index,
        KeyConditionExpression: `#pk = :pk${sort}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: attributeValues,
        ScanIndexForward: options.newestFirst ? false : undefined,
        ConsistentRead: (options.consistent && !options.index) || undefined,
      };
  }
}

/**
 * A query narrowed: a filter on what its key condition reads (read and billed, not answered), and
 * only some attributes of what it answers. Apart from the declarations so that only the functions
 * that narrow a query bundle it.
 */
export function narrowed(query: QueryInput, narrowing: { filter?: { expression: string; names?: Record<string, string>; values?: Values }; project?: readonly string[] }): QueryInput {
  const names = { ...query.ExpressionAttributeNames, ...narrowing.filter?.names };
  const projection = narrowing.project?.map((attribute) => ((names[`#p_${attribute}`] = attribute), `#p_${attribute}`));
  return {
    ...query,
    ...(narrowing.filter ? { FilterExpression: narrowing.filter.expression } : {}),
    ...(projection ? { ProjectionExpression: projection.join(', ') } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ...narrowing.filter?.values },
  };
}

/**
 * The rows of docs/data-model.md's generated table for these declarations, as markdown; what each
 * record is comes from its doc comment (infra/docs/declared-records.ts reads it), so that no
 * function's bundle carries the docs' text.
 */
export function recordsTable(records: readonly DeclaredRecord<object>[], describe: (record: DeclaredRecord<object>) => string): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = records.map((record) => {
    const { declaration } = record;
    const indexes = Object.entries(declaration.indexes ?? {})
      .map(([name, templates]) => `${name}: \`${cell(templates!.pk)}\` / \`${cell(templates!.sk)}\``)
      .join('<br>');
    const tag = declaration.entityAttribute === false ? ' (no entity attribute)' : declaration.entityAttribute ? ` (its \`${declaration.entityAttribute}\`)` : '';
    return `| ${declaration.entity}${tag} | \`${cell(declaration.key.pk)}\` | \`${cell(declaration.key.sk)}\` | ${indexes || '–'} | ${cell(describe(record))} |`;
  });
  return ['| entity | pk | sk | indexes | what it is |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
