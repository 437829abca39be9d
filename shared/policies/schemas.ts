/**
 * Request building blocks several policies operations share (zod/mini, on the house
 * vocabulary of shared/platform/request-fields.ts). Each operation's own schema is in its
 * entry file under functions/v2/policies/.
 */
import * as z from 'zod/mini';
import { boundedString, clearable, freeFormValue, freeText, id, jsonAtMost, LIMITS, list, openObject, wholeNumber } from '../platform/request-fields.js';
import { clock } from '../platform/clock.js';

/**
 * An answer to an underwriting question; "yes"/"no" also given as a boolean. Built on first
 * use: the policies area's public face re-exports it, and a schema built at import would
 * ride along into every function that imports that face.
 */
export const underwritingAnswer = once(() => z.object({
  questionId: id(),
  yesNoAnswer: z.pipe(
    z.union([boundedString(LIMITS.nameLength, { trim: false }), z.boolean()]),
    z.transform((value) => (typeof value === 'boolean' ? (value ? 'yes' : 'no') : value.trim().toLowerCase())),
  ),
  explanation: z.pipe(z.nullish(freeText()), z.transform((value) => value ?? '')),
}));

/** An underwriting option's answer (built on first use, as underwritingAnswer). */
export const underwritingOption = once(() => z.object({
  optionId: id(),
  answer: freeFormValue(),
}));

function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** The answers of one call: they are kept in the revision's own record, so all of them together stay well below its limit. */
export const underwritingAnswers = () => jsonAtMost(list(underwritingAnswer()));

/** The options of one call, kept in the revision's own record like the answers. */
export const underwritingOptions = () => jsonAtMost(list(underwritingOption()));

/** Text where `null` or `""` clears the stored value; numbers are read as text. */
export const clearableText = (max: number = LIMITS.nameLength) =>
  clearable(z.pipe(z.union([boundedString(max, { trim: false }), z.number()]), z.transform((value) => String(value))));

/** An optional item chosen with a sub line: its catalog id, or an object naming it. */
export const optionalItem = once(() => z.union([id(), openObject({ item_id: z.optional(id()), id: z.optional(id()) })]));

/** The year a building was built: 1600 up to next year, as a number or text; read as text (spec 2.8). */
export const yearBuilt = () =>
  z.pipe(
    wholeNumber({ min: 1600 }).check(z.refine((year) => year <= clock.now().getUTCFullYear() + 1, 'must be no later than next year')),
    z.transform((year) => String(year)),
  );
