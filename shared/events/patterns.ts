/** Event type patterns of a subscription: an exact type, `<group>.*`, or `*`. */
import { EVENT_TYPES } from './model.js';

export const matches = (pattern: string, type: string): boolean =>
  pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1)));

export const matchesAny = (patterns: readonly string[], type: string): boolean => patterns.some((pattern) => matches(pattern, type));

/** Whether a pattern names at least one event the service emits. */
export const namesSomeEvent = (pattern: string): boolean => EVENT_TYPES.some((type) => matches(pattern, type));
