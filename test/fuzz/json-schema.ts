/**
 * Valid-looking request bodies derived from an operation's request schema as the
 * OpenAPI description gives it (JSON Schema, generated from the operation's zod schema),
 * and the field slots of that schema a mutation can aim at.
 */
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  additionalProperties?: JsonSchema | boolean;
  [keyword: string]: unknown;
}

/**
 * Values seen in real answers (ids of a fixture policy, its number, a ZIP code), by field
 * name: a body that names existing records gets past "not found" into the code that stores.
 */
export interface KnownValues {
  byField: Map<string, unknown[]>;
  /** Every known id, for id-like fields whose name no answer used. */
  ids: string[];
}

/** A place in a body where a mutation can put its value: `location.year_built`, `items.0.builder_obj`. */
export interface FieldSlot {
  path: Array<string | number>;
  name: string;
  schema: JsonSchema;
}

const ID_NAME = /(^id$|_id$|Id$|^id_|_reference$|^x_contact_reference$)/;
const DATE_NAME = /date/i;
const ZIP_NAME = /zip/i;
/** Nested schemas deeper than this are left alone: request schemas are shallow, and a recursive one must end. */
const MAX_SCHEMA_DEPTH = 8;

export const isIdName = (name: string) => ID_NAME.test(name);

export function typesOf(schema: JsonSchema): string[] {
  const own = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const members = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return [...new Set([...own, ...members.flatMap(typesOf)])];
}

/** A schema that takes any JSON at all, or an object with any keys: where deep nesting belongs. */
export function isFreeForm(schema: JsonSchema): boolean {
  const members = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (members.some(isFreeForm)) return true;
  if (members.length || schema.enum || 'const' in schema) return false;
  if (!schema.type && !schema.properties) return true;
  return typesOf(schema).includes('object') && schema.additionalProperties !== undefined && schema.additionalProperties !== false;
}

/** Whether a plain JSON value is of one of the schema's types (formats and patterns aside). */
export function admits(schema: JsonSchema, value: unknown): boolean {
  if (schema.enum) return schema.enum.includes(value);
  if ('const' in schema) return schema.const === value;
  const types = typesOf(schema);
  if (types.length === 0) return true;
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  if (kind === 'number') return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  return types.includes(kind);
}

/** A field's value: usually a known value of a field of that name when one fits, else one derived from its schema. */
export function fieldArbitrary(schema: JsonSchema, name: string, known: KnownValues, depth = 0): fc.Arbitrary<unknown> {
  const own = valueArbitrary(schema, name, known, depth);
  const pool = (known.byField.get(name) ?? []).filter((value) => admits(schema, value));
  if (pool.length === 0 && isIdName(name) && typesOf(schema).includes('string') && known.ids.length) pool.push(...known.ids);
  if (pool.length === 0) return own;
  return fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 3 }, { arbitrary: own, weight: 1 });
}

export function valueArbitrary(schema: JsonSchema, name: string, known: KnownValues, depth = 0): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  // A reference (a recursive schema) is taken as any JSON: the fuzz needs plausible values, not exact ones.
  if (schema.$ref) return freeFormValue();
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const members = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (members.length) return fc.oneof(...members.map((member) => valueArbitrary(member, name, known, depth)));
  if (depth > MAX_SCHEMA_DEPTH) return fc.constant(null);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? objectArbitrary(schema, known, depth) : freeFormValue();
  return fc.oneof(...types.map((type) => typedArbitrary(type, schema, name, known, depth)));
}

function typedArbitrary(type: string, schema: JsonSchema, name: string, known: KnownValues, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema, name);
    case 'number':
      return amountArbitrary(schema);
    case 'integer':
      return fc.integer(smallRange(schema));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? fieldArbitrary(schema.items, name, known, depth + 1) : freeFormValue(), { maxLength: 3 });
    case 'object':
      return objectArbitrary(schema, known, depth);
    default:
      return freeFormValue();
  }
}

function objectArbitrary(schema: JsonSchema, known: KnownValues, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) model[key] = fieldArbitrary(property, key, known, depth + 1);
  const declared = fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
  if (!isFreeForm(schema)) return declared;
  const extra = fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/), freeFormValue(), { maxKeys: 3 });
  return fc.tuple(extra, declared).map(([more, fixed]) => ({ ...more, ...fixed }));
}

function stringArbitrary(schema: JsonSchema, name: string): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid({ version: 4 });
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern), { size: 'xsmall' });
    } catch {
      // A pattern fast-check cannot generate from: fall through to plain text.
    }
  }
  if (DATE_NAME.test(name)) return dateText();
  if (ZIP_NAME.test(name)) return fc.constantFrom('90210', '10001', '60601', '33101', '02134');
  const minLength = schema.minLength ?? 0;
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 24, 24)) });
}

/** Dates in both wire forms, around now, as clients send them. */
function dateText(): fc.Arbitrary<string> {
  const day = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true });
  return fc.tuple(day, fc.boolean()).map(([date, usForm]) => {
    const iso = date.toISOString().slice(0, 10);
    return usForm ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : iso;
  });
}

/** Amounts as clients send them: non-negative with at most two decimals, inside the schema's range. */
function amountArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const { min, max } = smallRange(schema, 1_000_000);
  return fc.integer({ min: min * 100, max: max * 100 }).map((cents) => cents / 100);
}

function smallRange(schema: JsonSchema, limit = 1000): { min: number; max: number } {
  const min = Math.max(schema.minimum ?? 0, 0);
  const max = Math.min(schema.maximum ?? limit, limit);
  return min <= max ? { min: Math.ceil(min), max: Math.floor(max) } : { min: Math.ceil(schema.minimum ?? 0), max: Math.ceil(schema.minimum ?? 0) };
}

/**
 * Any JSON as a client would send it: short text, small numbers, shallow. Hostile values
 * (huge or tiny numbers, empty keys, deep nesting) belong to their own input classes, so
 * that a failure names its cause.
 */
export function freeFormValue(): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -1000, max: 100_000 }), fc.boolean(), fc.constant(null));
  const key = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/);
  return fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(key, scalar, { maxKeys: 3 }));
}

/** Every property (and first array element) of the schema, nested ones included, once per path. */
export function fieldSlots(schema: JsonSchema): FieldSlot[] {
  const slots = new Map<string, FieldSlot>();
  const visit = (node: JsonSchema, path: Array<string | number>, depth: number) => {
    if (depth > MAX_SCHEMA_DEPTH) return;
    for (const member of [node, ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
      for (const [key, property] of Object.entries(member.properties ?? {})) {
        const at = [...path, key];
        if (!slots.has(at.join('.'))) slots.set(at.join('.'), { path: at, name: key, schema: property });
        visit(property, at, depth + 1);
      }
      if (member.items) visit(member.items, [...path, 0], depth + 1);
    }
  };
  visit(schema, [], 0);
  return [...slots.values()];
}
