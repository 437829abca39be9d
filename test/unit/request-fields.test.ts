import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  clearable,
  clearableMoney,
  date,
  decimal,
  eitherOf,
  flag,
  flagOr,
  freeFormObject,
  freeFormValue,
  id,
  jsonAtMost,
  LIMITS,
  list,
  money,
  name,
  optional,
  optionalFlag,
  optionalId,
  pageNumber,
  pageSize,
  requiredWhen,
  uuid,
  wholeNumber,
  withDefault,
} from '../../shared/platform/request-fields.js';
import { bodyDepthProblem, ECHO_LIMIT, withoutLongEcho } from '../../shared/platform/validation.js';
import { validate } from '../../shared/platform/validation-messages.js';

/** The messages a field answers for `value`, as the operation factory words them. */
const messagesFor = (field: z.ZodMiniType, value: unknown) => {
  const result = validate(z.object({ field }), value === undefined ? {} : { field: value });
  return result.success ? [] : result.messages;
};
const accepts = (field: z.ZodMiniType, value: unknown) => {
  const result = validate(z.object({ field }), { field: value });
  if (!result.success) throw new Error(`refused ${JSON.stringify(value)}: ${result.messages.join('; ')}`);
  return (result.data as { field: unknown }).field;
};
const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level += 1) value = { next: value };
  return value;
};

describe('ids', () => {
  it('reads a trimmed key of up to 128 characters and names a longer or empty one', () => {
    expect(accepts(id(), '  10-2026-1 ')).toBe('10-2026-1');
    expect(accepts(id(), 'k'.repeat(128))).toHaveLength(128);
    expect(messagesFor(id(), 'k'.repeat(129))).toEqual(['field: must be at most 128 characters']);
    expect(messagesFor(id(), '   ')).toEqual(['field: must not be empty']);
    expect(messagesFor(id(), undefined)).toEqual(['field: is required']);
    expect(messagesFor(id(), 42)).toEqual(['field: must be a string']);
  });

  it('wants the UUID form where the interface documents a UUID', () => {
    expect(accepts(uuid(), '981ba39c-ae4f-4a9a-9c36-c5e4d5953af7')).toBe('981ba39c-ae4f-4a9a-9c36-c5e4d5953af7');
    expect(messagesFor(uuid(), 'nope')).toEqual(['field: must be a UUID']);
    expect(messagesFor(uuid(), `${'981ba39c-ae4f-4a9a-9c36-c5e4d5953af7'.repeat(10)}`)).toEqual(['field: must be a UUID']);
    expect(messagesFor(uuid(), undefined)).toEqual(['field: is required']);
  });

  it('reads null and "" as not given for an optional id', () => {
    expect(accepts(optionalId(), null)).toBeUndefined();
    expect(accepts(optionalId(), '')).toBeUndefined();
    expect(accepts(optionalId(), 'abc')).toBe('abc');
  });
});

describe('strings', () => {
  it('keeps names to 200 characters', () => {
    expect(accepts(name(), 'n'.repeat(200))).toHaveLength(200);
    expect(messagesFor(name(), 'n'.repeat(201))).toEqual(['field: must be at most 200 characters']);
  });

  it('tells "clear it" (null or "") from "keep it" (absent)', () => {
    const schema = z.object({ field: clearable(name()) });
    expect(schema.parse({ field: '' })).toEqual({ field: null });
    expect(schema.parse({ field: null })).toEqual({ field: null });
    expect('field' in schema.parse({})).toBe(false);
  });
});

describe('flags', () => {
  it('read booleans, "true"/"false" in any case, "yes"/"no", "1"/"0" and 0/1', () => {
    for (const yes of [true, 'true', 'TRUE', ' True ', 'yes', '1', 1]) expect(accepts(flag(), yes)).toBe(true);
    for (const no of [false, 'false', 'False', 'no', '0', 0]) expect(accepts(flag(), no)).toBe(false);
  });

  it('name a flag that is missing or not a flag', () => {
    expect(messagesFor(flag(), undefined)).toEqual(['field: is required']);
    expect(messagesFor(flag(), 'maybe')).toEqual(['field: must be true or false']);
    expect(messagesFor(flag(), 2)).toEqual(['field: must be true or false']);
    expect(messagesFor(flag(), { yes: true })).toEqual(['field: must be true or false']);
  });

  it('take their default when absent, null or ""', () => {
    for (const blank of [undefined, null, '']) expect(accepts(flagOr(true), blank)).toBe(true);
    expect(accepts(optionalFlag(), null)).toBeUndefined();
  });
});

describe('numbers', () => {
  it('read whole numbers from strings, within ±2^53 and the range given', () => {
    expect(accepts(wholeNumber(), ' 42 ')).toBe(42);
    expect(accepts(wholeNumber(), -7)).toBe(-7);
    expect(messagesFor(wholeNumber(), 'one')).toEqual(['field: must be a whole number']);
    expect(messagesFor(wholeNumber(), 2.5)).toEqual(['field: must be a whole number']);
    expect(messagesFor(wholeNumber(), 2 ** 60)).toEqual(['field: must be at most 9007199254740991']);
    expect(messagesFor(wholeNumber(), '99999999999999999')).toEqual(['field: must be a whole number']);
    expect(messagesFor(wholeNumber({ min: 1 }), 0)).toEqual(['field: must be 1 or more']);
    expect(messagesFor(wholeNumber({ min: 1 }), '0')).toEqual(['field: must be 1 or more']);
    expect(messagesFor(wholeNumber({ max: 9 }), '10')).toEqual(['field: must be at most 9']);
  });

  it('read decimals within their range: latitude ±90, longitude ±180', () => {
    const latitude = decimal({ min: -90, max: 90 });
    const longitude = decimal({ min: -180, max: 180 });
    expect(accepts(latitude, '34.1')).toBe(34.1);
    expect(accepts(longitude, -118.4)).toBe(-118.4);
    expect(messagesFor(latitude, 90.5)).toEqual(['field: must be at most 90']);
    expect(messagesFor(latitude, '-91')).toEqual(['field: must be -90 or more']);
    expect(messagesFor(longitude, 181)).toEqual(['field: must be at most 180']);
    expect(messagesFor(longitude, '1e400')).toEqual(['field: must be a number']);
  });

  it('refuse a decimal nearer zero than DynamoDB stores (1e-130), as a number or as text', () => {
    const latitude = decimal({ min: -90, max: 90 });
    expect(messagesFor(latitude, 1e-200)).toEqual(['field: must be 0 or at least 1e-130 in size']);
    expect(messagesFor(latitude, `0.${'0'.repeat(140)}1`)).toEqual(['field: must be 0 or at least 1e-130 in size']);
    expect(accepts(latitude, 1e-129)).toBe(1e-129);
    expect(accepts(latitude, 0)).toBe(0);
  });

  it('refuse page numbers and page sizes above 10^6, and pages before the first', () => {
    expect(accepts(pageNumber(0), 0)).toBe(0);
    expect(accepts(pageNumber(1), String(LIMITS.page))).toBe(1_000_000);
    expect(messagesFor(pageNumber(1), 1_000_001)).toEqual(['field: must be at most 1000000']);
    expect(messagesFor(pageNumber(1), 0)).toEqual(['field: must be 1 or more']);
    expect(messagesFor(pageSize(), '1000001')).toEqual(['field: must be at most 1000000']);
    expect(messagesFor(pageSize(10_000), 10_001)).toEqual(['field: must be at most 10000']);
    expect(accepts(withDefault(pageSize(), 10), '')).toBe(10);
  });
});

describe('money', () => {
  it('takes 0 or more with at most two decimals, as a number or a string, and hands it on as given', () => {
    expect(accepts(money(), 826.62)).toBe(826.62);
    expect(accepts(money(), '1,250.50')).toBe('1,250.50');
    expect(accepts(money(), '0')).toBe('0');
    expect(accepts(money(), 0)).toBe(0);
  });

  it('refuses negative amounts, a third decimal and amounts whose cents JavaScript cannot hold', () => {
    const rule = 'field: must be an amount of money: 0 or more, at most two decimals';
    expect(messagesFor(money(), -1)).toEqual(['field: must be 0 or more']);
    expect(messagesFor(money(), '-1')).toEqual([rule]);
    expect(messagesFor(money(), 826.625)).toEqual([rule]);
    expect(messagesFor(money(), 1e-200)).toEqual([rule]);
    expect(messagesFor(money(), 0.001)).toEqual([rule]);
    expect(messagesFor(money(), '826.625')).toEqual([rule]);
    expect(messagesFor(money(), 1e17)).toEqual(['field: must be at most 90071992547409']);
    expect(messagesFor(money(), '100000000000000000')).toEqual([rule]);
    expect(messagesFor(money(), 'ten')).toEqual([rule]);
    expect(messagesFor(money(), true)).toEqual(['field: must be an amount of money']);
  });

  it('reads null or "" as clearing a clearable amount', () => {
    expect(accepts(clearableMoney(), '')).toBeNull();
    expect(accepts(clearableMoney(), null)).toBeNull();
  });
});

describe('dates', () => {
  it('read both documented forms into YYYY-MM-DD', () => {
    expect(accepts(date(), '2026-04-01')).toBe('2026-04-01');
    expect(accepts(date(), '04/01/2026')).toBe('2026-04-01');
    expect(accepts(optional(date()), '')).toBeUndefined();
  });

  it('refuse what is not a calendar date', () => {
    for (const bad of ['2026-02-30', 'tomorrow', '2026/04/01', 'x'.repeat(5000)]) {
      expect(messagesFor(date(), bad)).toEqual(['field: must be a date as YYYY-MM-DD or MM/DD/YYYY']);
    }
  });
});

describe('lists and free-form values', () => {
  it('bound the length of a list', () => {
    expect(messagesFor(list(id(), 2), ['a', 'b', 'c'])).toEqual(['field: must have at most 2 elements']);
    expect(messagesFor(list(id()), Array.from({ length: 1001 }, () => 'a'))).toEqual(['field: must have at most 1000 elements']);
  });

  it('take objects nested as deep as every store placement holds (29 levels) and refuse one level more', () => {
    expect(LIMITS.freeFormDepth).toBe(29);
    expect(accepts(freeFormObject(), nested(29))).toEqual(nested(29));
    expect(messagesFor(freeFormObject(), nested(30))).toEqual(['field: must not nest deeper than 29 levels']);
    expect(messagesFor(freeFormValue(), [[[[nested(33)]]]])).toEqual(['field: must not nest deeper than 29 levels']);
  });

  it('refuse numbers a store cannot hold, long text and a value too large for one record', () => {
    expect(messagesFor(freeFormValue(), { size: 2 ** 60 })).toEqual(['field: must hold only finite numbers within ±2^53']);
    expect(messagesFor(freeFormValue(), [{ answer: 1e-200 }])).toEqual(['field: must hold only numbers that are 0 or at least 1e-130 in size']);
    expect(accepts(freeFormValue(), { answer: -1e-130 })).toEqual({ answer: -1e-130 });
    expect(messagesFor(freeFormValue(), JSON.parse('[{"answer":{"__proto__":{"sk":1}}}]'))).toEqual(['field: must not hold the key "__proto__"']);
    expect(messagesFor(freeFormValue(), { answer: { constructor: { name: 'Map' } } })).toEqual(['field: must not hold the key "constructor"']);
    expect(accepts(freeFormValue(), { prototype: 1, toString: 'x' })).toEqual({ prototype: 1, toString: 'x' });
    expect(messagesFor(freeFormValue(), [{ '': 1 }])).toEqual(['field: must not hold an empty key']);
    expect(messagesFor(freeFormValue(), { note: 'x'.repeat(4001) })).toEqual(['field: must hold no text longer than 4000 characters']);
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`k${index}`, 'x'.repeat(1000)]));
    expect(messagesFor(freeFormObject(), wide)).toEqual(['field: must be at most 100000 characters as JSON']);
  });

  it('bound what one record keeps of a whole list', () => {
    const answers = jsonAtMost(list(z.object({ text: z.string() })), 1000);
    expect(messagesFor(answers, Array.from({ length: 20 }, () => ({ text: 'x'.repeat(100) })))).toEqual(['field: must be at most 1000 characters as JSON']);
    expect(accepts(answers, [{ text: 'short' }])).toEqual([{ text: 'short' }]);
  });

  it('refuse a whole body nested past 64 levels before any schema walks it, without exhausting the stack', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(bodyDepthProblem({ anything: deep })).toBe('anything: must not nest deeper than 64 levels');
    expect(bodyDepthProblem({ fine: nested(40) })).toBeUndefined();
  });
});

describe('rules across fields', () => {
  const lookup = z.object({ policy_id: optionalId(), policy_number: optional(id()) }).check(eitherOf('policy_id', 'policy_number'));

  it('"give X or Y" names both fields, on the first', () => {
    expect(validate(lookup, {})).toEqual({ success: false, messages: ['policy_id: give policy_id or policy_number'] });
    expect(validate(lookup, { policy_id: null, policy_number: '' })).toEqual({ success: false, messages: ['policy_id: give policy_id or policy_number'] });
    expect(validate(lookup, { policy_number: '10-2026-1' }).success).toBe(true);
  });

  it('a field required by another names the field and the reason', () => {
    const term = z.object({ term_type: z.string(), expiration_date: optional(date()) }).check(requiredWhen('expiration_date', (input) => input.term_type === 'Custom', 'term_type is Custom'));
    expect(validate(term, { term_type: 'Custom' })).toEqual({ success: false, messages: ['expiration_date: is required when term_type is Custom'] });
    expect(validate(term, { term_type: '1 Year' }).success).toBe(true);
  });
});

describe('validation messages', () => {
  it('give one message per field path', () => {
    const schema = z.object({ code: z.string().check(z.minLength(5), z.regex(/^\d+$/)) });
    expect(validate(schema, { code: 'ab' })).toEqual({ success: false, messages: ['code: must be at least 5 characters'] });
  });

  it(`never repeat more than ${ECHO_LIMIT} characters of the input`, () => {
    const longKey = 'k'.repeat(5000);
    const record = z.record(z.string(), z.number());
    const answer = validate(z.object({ scores: record }), { scores: { [longKey]: 'high' } });
    expect(answer.success).toBe(false);
    const [message] = (answer as { messages: string[] }).messages;
    expect(message.startsWith(`scores.${'k'.repeat(ECHO_LIMIT)}…: `)).toBe(true);
    expect(message.length).toBeLessThan(ECHO_LIMIT + 60);

    const strict = validate(z.strictObject({}), { [longKey]: 1 });
    expect((strict as { messages: string[] }).messages[0].length).toBeLessThan(ECHO_LIMIT + 60);

    const choice = validate(z.object({ state: z.enum(['open', 'committed']) }), { state: 'x'.repeat(5000) });
    expect(choice).toEqual({ success: false, messages: ['state: must be one of open, committed'] });
    for (const field of [id(), name(), uuid(), flag(), wholeNumber(), money(), date(), freeFormValue()]) {
      for (const message of messagesFor(field, { huge: 'y'.repeat(5000) }).concat(messagesFor(field, 'y'.repeat(5000)))) {
        expect(message).not.toContain('y'.repeat(ECHO_LIMIT + 1));
      }
    }
  });

  it('cut a business message that repeats a long id to 100 characters of it, leaving the words alone', () => {
    const id = 'r'.repeat(128);
    expect(withoutLongEcho(`Revision ${id} was not found`)).toBe(`Revision ${'r'.repeat(ECHO_LIMIT)}… was not found`);
    const words = 'items.0.limit: Water Backup limit must be one of 5000, 10000, 25000';
    expect(withoutLongEcho(words)).toBe(words);
  });
});
