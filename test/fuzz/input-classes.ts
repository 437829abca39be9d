/**
 * The classes of hostile input the fuzz sends to every operation, each a fast-check
 * arbitrary of request bodies built from a valid-looking body derived from the
 * operation's schema.
 */
import fc from 'fast-check';
import { GLOBAL_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../../shared/platform/table.js';
import { RawJson, defineField, nestedJson, serialize, withValueAt } from './body.js';
import { admits, fieldSlots, freeFormValue, isFreeForm, isIdName, typesOf, valueArbitrary, type FieldSlot, type KnownValues } from './json-schema.js';
import type { FuzzOperation } from './operations.js';

export const INPUT_CLASSES = [
  'valid',
  'wrong-type',
  'null',
  'huge-string',
  'deep-nesting',
  'number-edge',
  'unknown-keys',
  'empty-body',
  'non-object-body',
  'wrapper-string',
  'long-id',
  'near-limit',
] as const;
export type InputClass = (typeof INPUT_CLASSES)[number];

export interface FuzzCase {
  inputClass: InputClass;
  /** What was done to the body, short enough for a report line. */
  label: string;
  /** The request body exactly as sent. */
  body: string;
}

/**
 * A mutated body before it goes on the wire: raw text, or an object (maybe wrapped later)
 * with the paths the mutation set, which a focused case keeps while leaving out the other
 * optional fields: each optional field a derived body carries is one more way to be refused
 * before the code under test is reached.
 */
type Mutation = { label: string; body: Record<string, unknown>; touched?: Array<Array<string | number>> } | { label: string; raw: string };
type MutationBuilder = (op: FuzzOperation, base: fc.Arbitrary<Record<string, unknown>>, slots: FieldSlot[]) => fc.Arbitrary<Mutation>;

/**
 * Filler for long input, in a unit that is easy to find again: an answer message that
 * holds more than 100 characters of it echoes the input (issue 7 forbids that).
 */
const FILLER_UNIT = 'fuzz';
export const HUGE_STRING = FILLER_UNIT.repeat(25_600); // 100 KB
/** More than a DynamoDB item may hold (400 KB): a record must be refused well before that. */
const OVERSIZED_STRING = FILLER_UNIT.repeat(115_200);
export const LONG_ID = HUGE_STRING.slice(0, 10_000);
export const ECHO_PROBES = [0, 1, 2, 3].map((offset) => HUGE_STRING.slice(offset, offset + 101));

const WRONG_TYPED_VALUES: unknown[] = [12345, -1.5, true, false, 'text', '', [], [1, 'two'], {}, { nested: { value: 1 } }];

/** Out-of-range and non-finite-looking numbers, as JSON text (1e309 parses to Infinity). */
const EDGE_NUMBERS = [
  '1e309',
  '-1e309',
  '-0',
  '1152921504606846976', // 2^60
  '9007199254740993',
  '123456789012345678901234567890',
  '1.7976931348623157e308',
  '1e-200',
  '-1',
  '-0.001',
  '0.001',
  '123.456',
  '1e21',
  '91',
  '-181',
  '99999999999',
];
const EDGE_NUMBER_STRINGS = ['"1e309"', '"NaN"', '"Infinity"', '"-0"', '"1,000.00"', '" 12 "', '"0x10"', '"1e21"'];

/** Keys a careless store might honour: prototype names and the table's own key attributes. */
const SPECIAL_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  TABLE_KEYS.partition,
  TABLE_KEYS.sort,
  ...GLOBAL_INDEXES.flatMap((index) => [index.partition, index.sort]),
  TTL_ATTRIBUTE,
  'version',
  'id',
  '',
  'K'.repeat(1000),
];

export function classesFor(op: FuzzOperation): InputClass[] {
  return INPUT_CLASSES.filter((inputClass) => inputClass !== 'near-limit' && (inputClass !== 'wrapper-string' || op.version === 'v1'));
}

export function baseBody(op: FuzzOperation, known: KnownValues): fc.Arbitrary<Record<string, unknown>> {
  return valueArbitrary(op.schema, '', known) as fc.Arbitrary<Record<string, unknown>>;
}

/** The operation's field slots; one made-up field for an operation that takes none, so every class has a target. */
export function slotsOf(op: FuzzOperation): FieldSlot[] {
  const slots = fieldSlots(op.schema);
  return slots.length ? slots : [{ path: ['unexpected'], name: 'unexpected', schema: { type: 'string' } }];
}

export function caseArbitrary(op: FuzzOperation, inputClass: InputClass, known: KnownValues): fc.Arbitrary<FuzzCase> {
  const build = MUTATIONS[inputClass];
  const wrap = op.wrapper ? fc.boolean() : fc.constant(false);
  return fc.tuple(build(op, baseBody(op, known), slotsOf(op)), wrap, fc.boolean()).map(([mutation, wrapped, focused]) => {
    if ('raw' in mutation) return fuzzCase(inputClass, mutation.label, mutation.raw);
    const flat = focused ? focus(mutation.body, op.schema.required ?? [], mutation.touched ?? []) : mutation.body;
    const body = wrapped && op.wrapper ? { [op.wrapper]: flat } : flat;
    const label = `${mutation.label}${focused ? ', no other optional field' : ''}${wrapped ? ` (in ${op.wrapper})` : ''}`;
    return fuzzCase(inputClass, label, serialize(body));
  });
}

/** The body with only its required top-level fields and those the mutation set. */
function focus(body: Record<string, unknown>, required: string[], touched: Array<Array<string | number>>): Record<string, unknown> {
  const keep = new Set([...required, ...touched.map((path) => String(path[0]))]);
  const focused: Record<string, unknown> = {};
  for (const key of Object.keys(body).filter((name) => keep.has(name))) defineField(focused, key, body[key]);
  return focused;
}

export function fuzzCase(inputClass: InputClass, label: string, body: string): FuzzCase {
  // fast-check prints counterexamples with this: a 6 MB body must not end up in the report.
  return { inputClass, label, body, [fc.toStringMethod]: () => `${inputClass}: ${label} (${body.length} bytes: ${body.slice(0, 200)})` } as FuzzCase;
}

const pathText = (slot: FieldSlot) => slot.path.join('.');

const valid: MutationBuilder = (_op, base) => base.map((body) => ({ label: 'derived body', body }));

const wrongType: MutationBuilder = (_op, base, slots) => {
  const targets = slots.filter((slot) => WRONG_TYPED_VALUES.some((value) => !admits(slot.schema, value)));
  if (targets.length === 0) return valid(_op, base, slots);
  const choice = fc.constantFrom(...targets).chain((slot) => fc.tuple(fc.constant(slot), fc.constantFrom(...WRONG_TYPED_VALUES.filter((value) => !admits(slot.schema, value)))));
  return fc.tuple(base, choice).map(([body, [slot, value]]) => ({ label: `${pathText(slot)} = ${JSON.stringify(value)}`, body: withValueAt(body, slot.path, value), touched: [slot.path] }));
};

const nullField: MutationBuilder = (_op, base, slots) =>
  fc.oneof(
    fc.tuple(base, fc.constantFrom(...slots)).map(([body, slot]) => ({ label: `${pathText(slot)} = null`, body: withValueAt(body, slot.path, null), touched: [slot.path] })),
    base.map(() => {
      const fields = slots.filter((slot) => slot.path.length === 1);
      return { label: 'every top-level field null', body: Object.fromEntries(fields.map((slot) => [slot.name, null])), touched: fields.map((slot) => slot.path) };
    }),
  );

/** Most cases put 100 KB into several fields (together a large record); some put more than an item may hold into one. */
const hugeString: MutationBuilder = (_op, base, slots) => {
  const several = fc.subarray(slots, { minLength: 1, maxLength: Math.min(5, slots.length) }).map((chosen) => ({ chosen, text: HUGE_STRING }));
  const oversized = fc.constantFrom(...slots).map((slot) => ({ chosen: [slot], text: OVERSIZED_STRING }));
  return fc.tuple(base, fc.oneof({ weight: 4, arbitrary: several }, { weight: 1, arbitrary: oversized })).map(([body, { chosen, text }]) => ({
    label: `${Math.round(text.length / 1024)} KB string at ${chosen.map(pathText).join(', ')}`,
    body: chosen.reduce((result, slot) => withValueAt(result, slot.path, text), body),
    touched: chosen.map((slot) => slot.path),
  }));
};

const deepNesting: MutationBuilder = (_op, base, slots) => {
  const freeForm = slots.filter((slot) => isFreeForm(slot.schema));
  const depth = fc.oneof(fc.integer({ min: 40, max: 64 }), fc.integer({ min: 65, max: 2000 }));
  const shape = fc.constantFrom('object' as const, 'array' as const, 'mixed' as const);
  return fc.tuple(base, fc.constantFrom(...(freeForm.length ? freeForm : slots)), depth, shape).map(([body, slot, levels, form]) => ({
    label: `${pathText(slot)} nested ${levels} levels (${form})`,
    body: withValueAt(body, slot.path, nestedJson(levels, form)),
    touched: [slot.path],
  }));
};

const numberEdge: MutationBuilder = (_op, base, slots) => {
  const numeric = slots.filter((slot) => isFreeForm(slot.schema) || typesOf(slot.schema).some((type) => type === 'number' || type === 'integer'));
  const value = fc.constantFrom(...EDGE_NUMBERS, ...EDGE_NUMBER_STRINGS);
  return fc.tuple(base, fc.constantFrom(...(numeric.length ? numeric : slots)), value).map(([body, slot, text]) => ({
    label: `${pathText(slot)} = ${text}`,
    body: withValueAt(body, slot.path, new RawJson(text)),
    touched: [slot.path],
  }));
};

const unknownKeys: MutationBuilder = (_op, base, slots) => {
  const objects = slots.filter((slot) => isFreeForm(slot.schema) || typesOf(slot.schema).includes('object'));
  const containers: Array<Array<string | number>> = [[], ...objects.map((slot) => slot.path)];
  const key = fc.oneof(fc.constantFrom(...SPECIAL_KEYS), fc.string({ minLength: 1, maxLength: 20 }));
  const extra = fc.uniqueArray(fc.tuple(key, freeFormValue()), { minLength: 1, maxLength: 5, selector: ([name]) => name });
  return fc.tuple(base, fc.constantFrom(...containers), extra).map(([body, at, pairs]) => ({
    label: `unknown ${pairs.map(([name]) => JSON.stringify(name.slice(0, 20))).join(', ')} at ${at.join('.') || 'top level'}`,
    body: pairs.reduce((result, [name, value]) => withValueAt(result, [...at, name], value), body),
    touched: pairs.map(([name]) => [...at, name]),
  }));
};

const emptyBody: MutationBuilder = () => fc.constantFrom('', ' ', '\n', '{}').map((raw) => ({ label: `body ${JSON.stringify(raw)}`, raw }));

const nonObjectBody: MutationBuilder = (_op, base) =>
  fc.oneof(
    fc.constantFrom('[]', '[{}]', '"text"', '42', '-0', 'null', 'true').map((raw) => ({ label: `body ${raw}`, raw })),
    base.map((body) => ({ label: 'the body inside an array', raw: `[${serialize(body)}]` })),
    base.map((body) => ({ label: 'the body as a JSON string', raw: JSON.stringify(serialize(body)) })),
  );

const wrapperString: MutationBuilder = (op, base) => {
  const keys = op.wrapper ? [op.wrapper] : ['json_dict', 'json_obj'];
  const text = (body: Record<string, unknown>) =>
    fc.constantFrom(serialize(body), '{"broken": ', '', 'null', '[1,2]', '"text"', '42', JSON.stringify(serialize(body)), `${serialize(body)} trailing`);
  return fc.tuple(base, fc.constantFrom(...keys)).chain(([body, key]) =>
    fc.tuple(text(body), fc.boolean()).map(([inner, keepFlat]) => ({
      label: `${key} = ${JSON.stringify(inner.slice(0, 40))}${keepFlat ? ' beside the flat fields' : ''}`,
      raw: serialize({ ...(keepFlat ? body : {}), [key]: inner }),
    })),
  );
};

const longId: MutationBuilder = (_op, base, slots) => {
  const idSlots = slots.filter((slot) => isIdName(slot.name) || slot.schema.format === 'uuid');
  const stringSlots = slots.filter((slot) => typesOf(slot.schema).includes('string'));
  const targets = idSlots.length ? idSlots : stringSlots.length ? stringSlots : slots;
  const value = fc.constantFrom(LONG_ID, `5d4d1c7b-9a8a-4a00-81c3-66d7db83ee1d${LONG_ID.slice(36)}`);
  return fc.tuple(base, fc.constantFrom(...targets), value).map(([body, slot, id]) => ({
    label: `${pathText(slot)} = 10,000-character id`,
    body: withValueAt(body, slot.path, id),
    touched: [slot.path],
  }));
};

/**
 * Bodies a few bytes under and over the 6 MB limit. The filler goes into a field no
 * operation knows, so what is tested is the size itself; long values in real fields
 * are the huge-string class's.
 */
export function nearLimitArbitrary(op: FuzzOperation, known: KnownValues, limitBytes: number): fc.Arbitrary<FuzzCase> {
  const margin = fc.constantFrom(-64, -1, 1, 1024);
  return fc.tuple(baseBody(op, known), margin).map(([body, offset]) => {
    const empty = serialize(withValueAt(body, ['padding'], '')).length;
    const filler = FILLER_UNIT.repeat(Math.ceil((limitBytes + offset) / FILLER_UNIT.length)).slice(0, limitBytes + offset - empty);
    const text = serialize(withValueAt(body, ['padding'], filler));
    return fuzzCase('near-limit', `${text.length > limitBytes ? '+' : ''}${text.length - limitBytes} bytes from the limit, filler in an unknown field`, text);
  });
}

const MUTATIONS: Record<InputClass, MutationBuilder> = {
  valid,
  'wrong-type': wrongType,
  null: nullField,
  'huge-string': hugeString,
  'deep-nesting': deepNesting,
  'number-edge': numberEdge,
  'unknown-keys': unknownKeys,
  'empty-body': emptyBody,
  'non-object-body': nonObjectBody,
  'wrapper-string': wrapperString,
  'long-id': longId,
  'near-limit': () => {
    throw new Error('near-limit bodies come from nearLimitArbitrary');
  },
};
