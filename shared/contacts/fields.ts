/**
 * The leaf fields of the contacts requests (shared/platform/request-fields.ts), shared by the
 * contact content (schemas.ts) and the role aspects (role-aspects-schema.ts). Each schema is its
 * own module so that an operation builds only the one it reads; all are built on first use (by
 * the first request schema that holds them), not when the module loads.
 */
import * as z from 'zod/mini';
import { builtOnFirstUse, clearable, flag, LIMITS, looseText, uuid } from '../platform/request-fields.js';

/** An id where an empty string means "none chosen", read as null. */
export const optionalId = () => clearable(uuid());
export const optionalText = builtOnFirstUse(() => z.nullish(looseText()));
/** Statements, reasons and lists of addresses, longer than a name. */
export const optionalLongText = builtOnFirstUse(() => z.nullish(looseText(LIMITS.textLength)));
export const optionalBoolean = builtOnFirstUse(() => z.nullish(flag()));
