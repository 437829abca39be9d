/**
 * The one vocabulary of request fields every operation's schema is built from (zod/mini).
 *
 * Real clients send booleans as "true", numbers as strings, `null` or `""` for a parameter
 * they do not use, and dates in two forms: the fields here accept all of that and hand the
 * operation one clean type. They also carry the input limits, so that no input can reach a
 * store it would break (an item over DynamoDB's 400 KB, a map nested past its 32 levels, a
 * number it cannot hold) and every refusal is a validation message naming the field.
 */
import * as z from 'zod/mini';
import { parseDate } from './dates.js';

export const LIMITS = {
  /** Keys other than UUIDs. */
  idLength: 128,
  /** Names of people, places and things. */
  nameLength: 200,
  /** Descriptions, statements, notes. */
  textLength: 4000,
  /**
   * Nesting of a free-form object or value, counted from the field itself. DynamoDB refuses
   * an item nested deeper than 32 levels counting the item (measured on DynamoDB Local: a
   * record attribute holds 31), and a free-form field is stored up to three levels down
   * (an underwriting option's answer, in a list in the revision): 29 is what always fits.
   */
  freeFormDepth: 29,
  /** A free-form value as JSON: a quarter of DynamoDB's item limit. */
  freeFormChars: 100_000,
  /** Page numbers and page sizes. */
  page: 1_000_000,
  /** Elements of a list parameter, unless the field says otherwise. */
  listLength: 1000,
} as const;

/** Whole numbers and amounts beyond this lose precision as JavaScript numbers (2^53). */
const SAFE = Number.MAX_SAFE_INTEGER;
/** DynamoDB refuses a number nearer zero than this ("Number underflow"); JSON allows down to 5e-324. */
const SMALLEST_STORABLE = 1e-130;
const STORABLE_RULE = 'must be 0 or at least 1e-130 in size';
const storable = (value: number) => value === 0 || Math.abs(value) >= SMALLEST_STORABLE;

type Schema = z.ZodMiniType;

/**
 * One instance per distinct field. Building a zod instance at a cold start costs tens of
 * microseconds (measured: retrieveContactList's import built 214, about 5 ms of its 50, and the
 * quote functions about 800), and every operation's schema repeats the same few fields. zod
 * schemas never change once built (`.check()` and every other refinement answer a new
 * instance), so one instance serves every schema that uses the field.
 */
const builtFields = new Map<string, unknown>();
const once = <T>(key: string, build: () => T): T => {
  if (!builtFields.has(key)) builtFields.set(key, build());
  return builtFields.get(key) as T;
};
/** As `once`, for a field made from another schema (optional(x), list(x)): one per schema and key. */
const builtFrom = new WeakMap<object, Map<string, unknown>>();
const onceFrom = <T>(schema: object, key: string, build: () => T): T => {
  let fields = builtFrom.get(schema);
  if (!fields) builtFrom.set(schema, (fields = new Map()));
  if (!fields.has(key)) fields.set(key, build());
  return fields.get(key) as T;
};

export { builtOnFirstUse } from './validation.js';

/**
 * Values of the README's worked example shown in the OpenAPI description (/docs) instead of
 * a bare "string": put on the input side of a field, which is what the description shows.
 * infra/openapi.ts adds the worked example's own values by field name on top.
 */
const example = (...examples: unknown[]) => z.meta({ examples });

const isBlank = (value: unknown) => value === null || (typeof value === 'string' && value.trim() === '');
/** An error option for a schema: "is required" when the field is missing, `otherwise` when it is malformed. */
export const requiredOr = (otherwise: string) => (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : otherwise);

// ------------------------------------------------------------------ absent, blank, cleared

/** `null` or `""` (existing clients' way of not using a parameter) read as not given. */
export const unlessBlank = <T extends Schema>(schema: T) =>
  onceFrom(schema, 'unlessBlank', () => z.pipe(z.transform((value: unknown) => (isBlank(value) ? undefined : value)), schema));

/** Optional, with `null` or `""` meaning not given. */
export const optional = <T extends Schema>(schema: T) => onceFrom(schema, 'optional', () => unlessBlank(z.optional(schema)));

/**
 * Optional with a default, which `null` or `""` also select. The default is an input the
 * schema reads (a prefault), so that the OpenAPI description can show it.
 */
export const withDefault = <T extends Schema>(schema: T, fallback: z.input<T> & {}) =>
  onceFrom(schema, `withDefault:${JSON.stringify(fallback)}`, () => unlessBlank(z.prefault(schema, fallback as never)));

/** A value the caller may clear: `null` or `""` answer null (clear it), absent answers undefined (keep it). */
export const clearable = <T extends Schema>(schema: T) =>
  onceFrom(schema, 'clearable', () => z.optional(z.pipe(z.transform((value: unknown) => (isBlank(value) ? null : value)), z.nullable(schema))));

// ------------------------------------------------------------------ strings and ids

interface StringOptions {
  /** Trimmed unless false. */
  trim?: boolean;
  nonEmpty?: boolean;
  /** What to say when the value is not a string at all (or missing). */
  typeMessage?: string;
}

/** A string of at most `max` characters, trimmed unless told otherwise. */
export const boundedString = (max: number, options: StringOptions = {}) =>
  once(`boundedString:${max}:${options.trim !== false}:${options.nonEmpty === true}:${options.typeMessage ?? ''}`, () => {
  const checks = [
    ...(options.trim === false ? [] : [z.trim()]),
    ...(options.nonEmpty ? [z.minLength(1, 'must not be empty')] : []),
    z.maxLength(max, `must be at most ${max} characters`),
  ];
  return z.string(options.typeMessage ? { error: options.typeMessage } : undefined).check(...checks);
  });

/** A bounded string with the example the description shows. */
const exampleString = (max: number, options: StringOptions, ...examples: string[]) =>
  onceFrom(boundedString(max, options), `example:${JSON.stringify(examples)}`, () => boundedString(max, options).check(example(...examples)));

/** A key: a non-empty string of at most 128 characters (an unknown key answers "not found"). */
export const id = (typeMessage?: string) => exampleString(LIMITS.idLength, { nonEmpty: true, typeMessage }, '26c4a644-a4a4-4733-ad2d-d3bdf4c6558b');

/** A key the interface documents as a UUID. */
export const uuid = (message = 'must be a UUID') =>
  once(`uuid:${message}`, () => z.guid({ error: requiredOr(message) }).check(example('26c4a644-a4a4-4733-ad2d-d3bdf4c6558b')));

/** A name (of a person, a property, a sub line): non-empty, at most 200 characters. */
export const name = () => exampleString(LIMITS.nameLength, { nonEmpty: true }, 'Pat Example');

/** Short text such as an address line or a number printed on a form: at most 200 characters. */
export const shortText = () => exampleString(LIMITS.nameLength, {}, '1 Main St');

/** Free text (a description, a statement): at most 4,000 characters, kept as written. */
export const freeText = () => boundedString(LIMITS.textLength, { trim: false });

/** Text that may arrive as a number (a ZIP code, a year), read as trimmed text. */
export const looseText = (max: number = LIMITS.nameLength) =>
  once(`looseText:${max}`, () =>
    z.pipe(
      z.union([z.string().check(z.maxLength(max, `must be at most ${max} characters`)), z.number()], { error: requiredOr('must be text') }),
      z.transform((value) => String(value).trim()),
    ),
  );

/** An optional id, where `null` or `""` mean not given. */
export const optionalId = () => optional(id());

/** An optional UUID, where `null` or `""` mean not given. */
export const optionalUuid = (message?: string) => optional(uuid(message));

// ------------------------------------------------------------------ flags

const FLAG_TEXT = /^\s*(true|false|yes|no|1|0)\s*$/i;
const TRUE_TEXT = /^\s*(true|yes|1)\s*$/i;

/** A boolean, also given as "true"/"false" (any case), "yes"/"no", "1"/"0" or 0/1. */
export const flag = () =>
  once('flag', () =>
    z.pipe(
      z.union([z.boolean(), z.literal([0, 1]), z.string().check(z.regex(FLAG_TEXT, 'must be true or false'))], { error: requiredOr('must be true or false') }).check(example(true)),
      z.transform((value): boolean => (typeof value === 'string' ? TRUE_TEXT.test(value) : value === true || value === 1)),
    ),
  );

/** A flag with a default when absent, `null` or `""`. */
export const flagOr = (fallback: boolean) => withDefault(flag(), fallback);

/** A flag that is undefined when absent, `null` or `""`. */
export const optionalFlag = () => optional(flag());

// ------------------------------------------------------------------ numbers

const WHOLE_TEXT = /^\s*[+-]?\d{1,16}\s*$/;
const DECIMAL_TEXT = /^\s*[+-]?(\d{1,16}(\.\d*)?|\.\d+)\s*$/;

interface Range {
  min?: number;
  max?: number;
}

const inRange = <T extends z.ZodMiniNumber<number>>(schema: T, range: Range) =>
  schema.check(...(range.min !== undefined ? [z.gte(range.min)] : []), ...(range.max !== undefined ? [z.lte(range.max)] : []));

/** A whole number, also given as a numeric string; finite, within ±2^53 and the range given. */
export const wholeNumber = (range: Range = {}) =>
  once(`wholeNumber:${range.min}:${range.max}`, () => z.pipe(
    z.pipe(
      z.union([inRange(z.int(), range), z.string().check(z.regex(WHOLE_TEXT, 'must be a whole number'))], { error: requiredOr('must be a whole number') }).check(
        example(Math.min(Math.max(range.min ?? 1, 1), range.max ?? 1)),
      ),
      z.transform((value) => Number(value)),
    ),
    inRange(z.int(), range),
  ));

/** A decimal number (a coordinate, a distance), also given as a numeric string; finite and within the range. */
export const decimal = (range: Range = {}) =>
  once(`decimal:${range.min}:${range.max}`, () => z.pipe(
    z.pipe(
      z.union([inRange(z.number().check(z.gte(-SAFE), z.lte(SAFE)), range), z.string().check(z.regex(DECIMAL_TEXT, 'must be a number'))], {
        error: requiredOr('must be a number'),
      }),
      z.transform((value) => Number(value)),
    ),
    inRange(z.number(), { min: Math.max(range.min ?? -SAFE, -SAFE), max: Math.min(range.max ?? SAFE, SAFE) }).check(z.refine(storable, STORABLE_RULE)),
  ));

/** A page number (0- or 1-based) up to 10^6; a page past the last is simply empty. */
export const pageNumber = (first: 0 | 1) => wholeNumber({ min: first, max: LIMITS.page });

/** A page size from 1 up to `max` (10^6 unless the operation pages less at once). */
export const pageSize = (max: number = LIMITS.page) => wholeNumber({ min: 1, max });

// ------------------------------------------------------------------ money

const MONEY_TEXT = /^\s*\+?(\d{1,3}(,\d{3})+|\d+)?(\.\d{0,2})?\s*$/;
const MONEY_RULE = 'must be an amount of money: 0 or more, at most two decimals';
/** The largest amount whose cents are still an exact JavaScript number. */
const MAX_MONEY = Math.floor(SAFE / 100);

/** zod's multipleOf lets 1e-200 through; an amount must be whole cents, give or take float noise. */
const wholeCents = (value: number) => {
  const cents = Math.round(value * 100);
  return Math.abs(value * 100 - cents) < 1e-6 && (cents !== 0 || value === 0);
};

const isMoneyText = (value: string) => /\d/.test(value) && Number(value.replace(/[,\s+]/g, '')) <= MAX_MONEY;

/**
 * An amount of money: 0 or more with at most two decimals, as a number or a string
 * ("1,250.50"); handed on as given, for shared/platform/money.ts to read into exact cents.
 */
export const money = () =>
  once('money', () => z.union(
    [
      z.number().check(z.gte(0), z.lte(MAX_MONEY), z.multipleOf(0.01, MONEY_RULE), z.refine(wholeCents, MONEY_RULE)),
      z.string().check(z.maxLength(32, MONEY_RULE), z.regex(MONEY_TEXT, MONEY_RULE), z.refine(isMoneyText, MONEY_RULE)),
    ],
    { error: requiredOr('must be an amount of money') },
  ).check(example(851.62)));

/** An amount the caller may clear (`null` or `""`). */
export const clearableMoney = () => clearable(money());

// ------------------------------------------------------------------ dates

/** A calendar date as `YYYY-MM-DD` or `MM/DD/YYYY`, read into `YYYY-MM-DD`. */
export const date = () =>
  once('date', () => z.pipe(
    z.string({ error: requiredOr('must be a date as YYYY-MM-DD or MM/DD/YYYY') }).check(
      z.maxLength(40, 'must be a date as YYYY-MM-DD or MM/DD/YYYY'),
      z.refine((value) => parseDate(value) !== undefined, 'must be a date as YYYY-MM-DD or MM/DD/YYYY'),
      example('2026-11-25'),
    ),
    z.transform((value) => parseDate(value) as string),
  ));

// ------------------------------------------------------------------ lists and free-form values

/** A list of at most `max` elements (1,000 unless told otherwise). */
export const list = <T extends Schema>(element: T, max: number = LIMITS.listLength) =>
  onceFrom(element, `list:${max}`, () => z.array(element).check(z.maxLength(max, `must have at most ${max} elements`)));

export interface FreeFormLimits {
  /** Levels of objects and lists, counted from the field (29 unless told otherwise). */
  maxDepth?: number;
  /** Size as JSON, roughly (100,000 characters unless told otherwise). */
  maxChars?: number;
}

/**
 * What a free-form value breaks, if anything: nesting past the limit (see
 * LIMITS.freeFormDepth), numbers a store cannot hold, strings or a whole too large for one record.
 * Walks without recursion, so that no input can exhaust the stack.
 */
/**
 * Keys no record can keep: JSON.parse makes "__proto__" an own key that a copy turns into a
 * prototype, and the DynamoDB marshaller tells objects apart by `constructor`. DynamoDB also
 * refuses an empty key in a map.
 */
const RESERVED_KEYS = new Set(['__proto__', 'constructor']);

export function freeFormProblem(value: unknown, limits: FreeFormLimits = {}): string | undefined {
  const maxDepth = limits.maxDepth ?? LIMITS.freeFormDepth;
  const maxChars = limits.maxChars ?? LIMITS.freeFormChars;
  const pending: Array<[unknown, number]> = [[value, 0]];
  let chars = 0;
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current === 'string') {
      if (current.length > LIMITS.textLength) return `must hold no text longer than ${LIMITS.textLength} characters`;
      chars += current.length + 2;
    } else if (typeof current === 'number') {
      if (!Number.isFinite(current) || Math.abs(current) > SAFE) return 'must hold only finite numbers within ±2^53';
      if (!storable(current)) return `must hold only numbers that are 0 or at least ${SMALLEST_STORABLE} in size`;
      chars += 8;
    } else if (current !== null && typeof current === 'object') {
      if (depth + 1 > maxDepth) return `must not nest deeper than ${maxDepth} levels`;
      for (const [key, child] of Object.entries(current)) {
        if (RESERVED_KEYS.has(key)) return `must not hold the key "${key}"`;
        if (key === '') return 'must not hold an empty key';
        chars += key.length + 4;
        pending.push([child, depth + 1]);
      }
    } else chars += 5;
    if (chars > maxChars) return `must be at most ${maxChars} characters as JSON`;
  }
  return undefined;
}

/** `schema`, whose value must also stay within the free-form limits. */
export const freeForm = <T extends Schema>(schema: T, limits: FreeFormLimits = {}) =>
  onceFrom(schema, `freeForm:${limits.maxDepth}:${limits.maxChars}`, () => schema.check(
    z.check<z.output<T>>((payload) => {
      const problem = freeFormProblem(payload.value, limits);
      if (problem) payload.issues.push({ code: 'custom', message: problem, input: payload.value });
    }),
  ));

/** `schema`, whose value as JSON is at most `maxChars` characters: what one record can hold beside the rest. */
export const jsonAtMost = <T extends Schema>(schema: T, maxChars: number = LIMITS.freeFormChars) =>
  schema.check(
    z.check<z.output<T>>((payload) => {
      if (JSON.stringify(payload.value ?? null).length > maxChars) {
        payload.issues.push({ code: 'custom', message: `must be at most ${maxChars} characters as JSON`, input: payload.value });
      }
    }),
  );

/** A free-form value (an answer, a setting): any JSON within the free-form limits. */
export const freeFormValue = () => once('freeFormValue', () => freeForm(z.unknown()));

/**
 * A list of free-form objects whose own fields are judged later, one by one (a bank file's
 * lines): refused at its first element that is not an object, or breaks the free-form limits,
 * with one message naming that element. Walking stops there, so a list of 50,000 numbers is
 * refused as quickly as a list of one.
 */
export const objectList = (max: number, shape: string) =>
  once(`objectList:${max}:${shape}`, () =>
    z.array(z.unknown()).check(
      z.maxLength(max, `must have at most ${max} elements`),
      z.check<unknown[]>((payload) => {
        for (let index = 0; index < payload.value.length; index += 1) {
          const element = payload.value[index];
          const isObject = typeof element === 'object' && element !== null && !Array.isArray(element);
          const problem = isObject ? freeFormProblem(element) : `must be an object with ${shape}`;
          if (!problem) continue;
          payload.issues.push({ code: 'custom', message: `${problem} (the first element refused; the list was not applied)`, input: element, path: [index] });
          return;
        }
      }),
    ),
  );

/** A free-form object (builder_obj, params, fields): string keys, any JSON within the free-form limits. */
export const freeFormObject = () => once('freeFormObject', () => freeForm(z.record(z.string(), z.unknown())));

/** An object of declared fields that keeps undeclared ones too, all within the free-form limits. */
export const openObject = <T extends z.core.$ZodLooseShape>(shape: T, limits: FreeFormLimits = {}) => freeForm(z.looseObject(shape), limits);

// ------------------------------------------------------------------ rules across fields

/** A field that must be given when another field says so, reported on that field. */
export const requiredWhen = <T extends object>(field: keyof T & string, when: (value: T) => boolean, reason: string) =>
  z.refine<T>((value) => !when(value) || ((value as Record<string, unknown>)[field] ?? null) !== null, {
    message: `is required when ${reason}`,
    path: [field],
  });

/**
 * "Give X or Y": at least one of the fields is present, reported on the first of them
 * (checked once the fields themselves are valid).
 */
export const eitherOf = <K extends string>(...keys: [K, K, ...K[]]) =>
  z.refine<Partial<Record<K, unknown>>>((value) => keys.some((key) => value[key] !== undefined && value[key] !== null), {
    message: `give ${keys.slice(0, -1).join(', ')} or ${keys[keys.length - 1]}`,
    path: [keys[0]],
  });
