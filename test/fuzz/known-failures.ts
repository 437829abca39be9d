/**
 * Failures the fuzz has found and that are not fixed yet: (operation, input class) pairs,
 * each with a one-line reason. The fuzz test still sends these cases, reports what they
 * answered, and does not fail on them; any other failure fails it. Remove an entry when
 * its fix lands (the test's summary says which entries no longer fail).
 */
import type { Rule } from './answer-checks.js';
import type { InputClass } from './input-classes.js';

export interface KnownFailure {
  /** The operation's path, as in the OpenAPI description. */
  operation: string;
  inputClass: InputClass;
  /** The broken rules the entry excuses; a case that breaks another one still fails. */
  rules: Rule[];
  reason: string;
}

export const KNOWN_FAILURES: readonly KnownFailure[] = [];

export function knownFailure(operation: string, inputClass: InputClass): KnownFailure | undefined {
  return KNOWN_FAILURES.find((entry) => entry.operation === operation && entry.inputClass === inputClass);
}
