/**
 * Validation messages, worded for the caller: one per offending field path, naming the
 * field and the rule. A message never quotes more than a short prefix of the input (field
 * values are never quoted; a key the caller invented is cut at 100 characters), and does
 * not depend on zod's locale, so that it reads the same wherever the schema was built.
 */
import * as z from 'zod/mini';

/** The most of the caller's own input a message may repeat. */
export const ECHO_LIMIT = 100;

const clip = (text: string) => (text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}…` : text);

const LONG_RUN = new RegExp(`\\S{${ECHO_LIMIT + 1},}`, 'g');

/**
 * A failure message with every run of more than 100 non-blank characters cut to 100: the
 * house's own words are never that long, so such a run is the caller's input (an id, a key)
 * repeated back.
 */
export const withoutLongEcho = (message: string) => message.replace(LONG_RUN, (run) => clip(run));

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

export type ValidationResult<T> = { success: true; data: T } | { success: false; messages: string[] };

/** Parses `input` with `schema`, answering the data or the house messages. */
export function validate<S extends z.core.$ZodType>(schema: S, input: unknown): ValidationResult<z.core.output<S>> {
  const parsed = z.safeParse(schema, input, { error: houseErrorMap });
  return parsed.success ? { success: true, data: parsed.data } : { success: false, messages: describeIssues(parsed.error.issues) };
}

/**
 * A schema given as is, or given as the function that builds it: built then by the first call,
 * once (an entry file's request schema, a consumer's message schema), so that loading the
 * function's module, its cold start, builds no schema.
 */
export function schemaOnFirstUse<S extends z.core.$ZodType>(schema: S | (() => S)): () => S {
  return typeof schema === 'function' ? builtOnFirstUse(schema) : () => schema;
}

/**
 * A schema (or anything else costly to build) built by its first use, not when its module loads.
 * Every function pays its imports at its cold start, and building zod schemas is most of what an
 * operation's own code adds to it (the first schema also compiles zod's constructors): an entry
 * file gives the operation factory a function that builds its request schema, and an area's
 * shared schemas are built by the first request schema that uses them. The answer is the same
 * instance on every call.
 */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** Nesting a request body may have at all; free-form fields have their own, lower limit. */
export const BODY_DEPTH_LIMIT = 64;

/**
 * The message for a body with a field nested deeper than the limit, or undefined. Walks
 * without recursion, so a pathological body cannot exhaust the stack.
 */
export function bodyDepthProblem(body: Record<string, unknown>, limit = BODY_DEPTH_LIMIT): string | undefined {
  for (const [field, value] of Object.entries(body)) {
    const pending: Array<[unknown, number]> = [[value, 1]];
    while (pending.length > 0) {
      const [current, depth] = pending.pop()!;
      if (current === null || typeof current !== 'object') continue;
      if (depth > limit) return `${clip(field)}: must not nest deeper than ${limit} levels`;
      for (const child of Object.values(current)) pending.push([child, depth + 1]);
    }
  }
  return undefined;
}
