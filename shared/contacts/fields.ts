/**
 * The leaf fields of the contacts requests (shared/platform/request-fields.ts), shared by the
 * contact content (schemas.ts) and the role aspects (role-aspects-schema.ts). Each schema is its
 * own module so that an operation builds only the one it reads at its cold start.
 */
import * as z from 'zod/mini';
import { clearable, flag, LIMITS, looseText, uuid } from '../platform/request-fields.js';

/** An id where an empty string means "none chosen", read as null. */
export const optionalId = clearable(uuid());
export const optionalText = z.nullish(looseText());
/** Statements, reasons and lists of addresses, longer than a name. */
export const optionalLongText = z.nullish(looseText(LIMITS.textLength));
export const optionalBoolean = z.nullish(flag());
