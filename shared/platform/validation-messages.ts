/**
 * Validation messages, worded for the caller: one per offending field path, naming the
 * field and the rule. A message never quotes more than a short prefix of the input (field
 * values are never quoted; a key the caller invented is cut at 100 characters), and does
 * not depend on zod's locale, so that it reads the same wherever the schema was built.
 *
 * An operation loads this module the first time a request fails its schema
 * (validation.ts validateRequest): no cold start parses it. Consumers judge their messages with
 * `validate` here directly.
 */
import * as z from 'zod/mini';
import { clip, type ValidationResult } from './validation.js';

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  record: 'an object',
  null: 'null',
  date: 'a date',
};

type RawIssue = z.core.$ZodRawIssue;

function sizeMessage(issue: RawIssue & { origin?: string; inclusive?: boolean }, bound: number | bigint, big: boolean): string {
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (!big && Number(bound) === 1) return 'must not be empty';
      return `must be ${big ? 'at most' : 'at least'} ${bound} characters`;
    case 'array':
    case 'set':
      return `must have ${big ? 'at most' : 'at least'} ${bound} elements`;
    default:
      if (big) return inclusive ? `must be at most ${bound}` : `must be less than ${bound}`;
      return inclusive ? `must be ${bound} or more` : `must be greater than ${bound}`;
  }
}

/** The house wording of every kind of issue zod raises; a schema's own message comes first. */
export const houseErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union')) return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${ARTICLE[issue.expected] ?? clip(String(issue.expected))}`;
    case 'too_big':
      return sizeMessage(issue, issue.maximum, true);
    case 'too_small':
      return sizeMessage(issue, issue.minimum, false);
    case 'invalid_format':
      if (issue.format === 'guid' || issue.format === 'uuid') return 'must be a UUID';
      return issue.format === 'regex' ? 'is not in the expected form' : `must be a valid ${clip(issue.format)}`;
    case 'invalid_value':
      return clip(`must be one of ${issue.values.map(String).join(', ')}`);
    case 'unrecognized_keys':
      return `has keys it does not know: ${clip(issue.keys.join(', '))}`;
    case 'invalid_union':
      return 'is not in any accepted form';
    case 'invalid_key':
      return 'has a key that is not accepted';
    case 'invalid_element':
      return 'has a value that is not accepted';
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    default:
      return 'is not valid';
  }
};

const pathOf = (issue: z.core.$ZodIssue) => (issue.path.length > 0 ? issue.path.map((segment) => clip(String(segment))).join('.') : 'body');

/** One message per offending field path (the first issue found there), worded for the caller. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const byPath = new Map<string, string>();
  for (const issue of issues) {
    const path = pathOf(issue);
    if (byPath.has(path)) continue;
    // Schemas built elsewhere (classic zod, a locale) may word a missing field their own way.
    const missing = issue.code === 'invalid_type' && /received undefined$/.test(issue.message);
    byPath.set(path, `${path}: ${missing ? 'is required' : clip(issue.message)}`);
  }
  return [...byPath.values()];
}

/** Parses `input` with `schema`, answering the data or the house messages (a consumer's message; a request takes validation.ts validateRequest). */
export function validate<S extends z.core.$ZodType>(schema: S, input: unknown): ValidationResult<z.core.output<S>> {
  const parsed = z.safeParse(schema, input, { error: houseErrorMap });
  return parsed.success ? { success: true, data: parsed.data } : { success: false, messages: describeIssues(parsed.error.issues) };
}

