/** What every answer to a fuzzed body must be (README.md, "A first call", issue 7). */
import { isPlainObject } from './body.js';
import { ECHO_PROBES, type FuzzCase } from './input-classes.js';
import type { TableChange } from './fixture.js';
import type { FuzzOperation } from './operations.js';

export interface FuzzAnswer {
  status: number;
  text: string;
}

export type Rule = 'no-answer' | 'server-fault' | 'no-envelope' | 'unexpected-status' | 'stored-on-rejection' | 'echoes-input';

export interface Finding {
  rule: Rule;
  detail: string;
}

/**
 * @param change what the call did to the table (creates only): a rejected create changes nothing.
 * @param limitBytes the body limit: over it the contract is a 413 envelope, under it a 200.
 */
export function answerFindings(op: FuzzOperation, fuzzCase: FuzzCase, answer: FuzzAnswer, change: TableChange | undefined, limitBytes: number): Finding[] {
  const findings: Finding[] = [];
  const body = parseJson(answer.text);
  if (answer.status >= 500) findings.push({ rule: 'server-fault', detail: `status ${answer.status}` });
  const notEnvelope = envelopeProblem(op.version, body);
  if (notEnvelope) findings.push({ rule: 'no-envelope', detail: notEnvelope });
  // Every fuzzed body is JSON and carries an Administrator's key: only the size decides the status.
  const expected = Buffer.byteLength(fuzzCase.body, 'utf8') > limitBytes ? 413 : 200;
  if (answer.status < 500 && answer.status !== expected) findings.push({ rule: 'unexpected-status', detail: `status ${answer.status}, expected ${expected}` });
  if (change && isPlainObject(body) && body.success === false && change.added + change.removed + change.changed > 0) {
    const detail = `a rejected call added ${change.added}, removed ${change.removed} and changed ${change.changed} item(s): ${change.keys.join(', ')}`;
    findings.push({ rule: 'stored-on-rejection', detail });
  }
  if (isPlainObject(body) && echoesInput(body)) findings.push({ rule: 'echoes-input', detail: 'a message repeats more than 100 characters of the input' });
  return findings;
}

/**
 * Undefined for an envelope: v1 `{success, message[]}`; v2 `{success, messages[]}`, or
 * `message`/`messages` as a single string where the spec documents it; session's `permissionDenied`.
 */
export function envelopeProblem(version: 'v1' | 'v2', body: unknown): string | undefined {
  if (!isPlainObject(body)) return 'the answer is not a JSON object';
  if (typeof body.success !== 'boolean') return 'the answer has no boolean success';
  if (body.permissionDenied === true && body.success === false) return undefined;
  if (version === 'v1' && !isStringList(body.message)) return 'a v1 answer without a message list';
  if (version === 'v2' && ![body.messages, body.message].some((text) => isStringList(text) || typeof text === 'string')) return 'a v2 answer without messages';
  // A success may answer documented top-level fields instead of data; a failure always carries data.
  if (body.success === false && !('data' in body)) return 'a failure without data';
  return undefined;
}

function echoesInput(body: Record<string, unknown>): boolean {
  const messages = [body.message, body.messages].flat().filter((message): message is string => typeof message === 'string');
  return messages.some((message) => ECHO_PROBES.some((probe) => message.includes(probe)));
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
