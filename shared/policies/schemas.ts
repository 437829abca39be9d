/** Request building blocks shared by the policies operations (zod 4; unknown keys are stripped, never refused). */
import { z } from 'zod';
import { parseDate } from '../platform/dates.js';
import { isDecimal } from '../platform/money.js';

/** An id: a non-empty string (an unknown id answers "not found", not a validation error). */
export const id = () => z.string().trim().min(1, 'must not be empty');

/**
 * An optional parameter: existing clients send `null` or `""` for a parameter they do not
 * use (a revision-level property_id, a system-generated policy_number), meaning "not given".
 */
export const unlessBlank = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value), schema);

/** An optional id where `null` or `""` means not given. */
export const optionalId = () => unlessBlank(id().optional());

/** A boolean; existing clients also send `"true"`/`"false"` and 0/1. */
export const flag = (fallback: boolean) =>
  z.preprocess((value) => {
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'string') {
      const text = value.trim().toLowerCase();
      if (text === 'true' || text === '1' || text === 'yes') return true;
      if (text === 'false' || text === '0' || text === 'no') return false;
    }
    if (value === 1) return true;
    if (value === 0) return false;
    return value;
  }, z.boolean().default(fallback));

/** An optional boolean with the same leniency, undefined when absent. */
export const optionalFlag = () =>
  z.preprocess((value) => {
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'string') return ['true', '1', 'yes'].includes(value.trim().toLowerCase());
    return value;
  }, z.boolean().optional());

/** A calendar date as `YYYY-MM-DD` or `MM/DD/YYYY`, read into `YYYY-MM-DD`. */
export const date = () =>
  z.string().transform((value, context) => {
    const parsed = parseDate(value);
    if (!parsed) {
      context.addIssue({ code: 'custom', message: 'must be a date as YYYY-MM-DD or MM/DD/YYYY' });
      return z.NEVER;
    }
    return parsed;
  });

/** A whole number, also given as a numeric string. */
export const wholeNumber = () =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value), z.number().int());

/** A decimal amount given as a number or a string; `null` or `""` means clear it. */
export const clearableAmount = () =>
  z
    .union([z.number(), z.string(), z.null()])
    .refine((value) => value === null || value === '' || isDecimal(value), 'must be a decimal amount')
    .transform((value) => (value === '' ? null : value));

/** Text where `null` or `""` means clear it. */
export const clearableText = () => z.union([z.string(), z.number(), z.null()]).transform((value) => (value === null || value === '' ? null : String(value)));

export const underwritingAnswer = z.object({
  questionId: id(),
  yesNoAnswer: z.union([z.string(), z.boolean()]).transform((value) => (typeof value === 'boolean' ? (value ? 'yes' : 'no') : value.trim().toLowerCase())),
  explanation: z.string().nullish().transform((value) => value ?? ''),
});

export const underwritingOption = z.object({
  optionId: id(),
  answer: z.unknown(),
});
