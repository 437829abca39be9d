/**
 * Validation: schemas built on first use, the limits every body is held to before a schema
 * walks it, and the echo limit of every message (the wording of schema failures is
 * validation-messages.ts). A message never quotes more than a short prefix of the input (field
 * values are never quoted; a key the caller invented is cut at 100 characters).
 */
import type * as z from 'zod/mini';

/** The most of the caller's own input a message may repeat. */
export const ECHO_LIMIT = 100;

export const clip = (text: string) => (text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}…` : text);

const LONG_RUN = new RegExp(`\\S{${ECHO_LIMIT + 1},}`, 'g');

/**
 * A failure message with every run of more than 100 non-blank characters cut to 100: the
 * house's own words are never that long, so such a run is the caller's input (an id, a key)
 * repeated back.
 */
export const withoutLongEcho = (message: string) => message.replace(LONG_RUN, (run) => clip(run));

export type ValidationResult<T> = { success: true; data: T } | { success: false; messages: string[] };

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
