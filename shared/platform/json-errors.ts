/**
 * Where a text stops being JSON, for the 400 a malformed body answers: JSON.parse's own message
 * differs between Node versions, sometimes gives no position, and quotes the input. Only run
 * once JSON.parse has refused a body, so its cost is the refused call's alone.
 */

export interface JsonStop {
  /** 0-based offset of the first character that cannot continue the JSON (the text's length when it ends too soon). */
  position: number;
  line: number;
  column: number;
  /** What was expected there, in a few words. */
  expected: string;
  /** The character found there (undefined at the end of the text). */
  found?: string;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const LITERALS = ['true', 'false', 'null'];

/**
 * The first place `text` fails to be one JSON value, or undefined when it is JSON. Iterative (an
 * explicit stack of open containers), so a body of a million `[` cannot exhaust the call stack.
 */
export function jsonStop(text: string): JsonStop | undefined {
  let at = 0;
  // Each open container and what comes next inside it.
  const open: Array<{ kind: 'object' | 'array'; next: 'first' | 'key' | 'colon' | 'value' | 'comma' }> = [];
  const stop = (expected: string): JsonStop => ({ ...lineAndColumn(text, at), position: at, expected, ...(at < text.length ? { found: text[at] } : {}) });
  const skipWhitespace = () => {
    while (at < text.length && WHITESPACE.has(text[at])) at += 1;
  };
  /** Reads a string from its opening quote; false if it is not one. */
  const string = (): boolean => {
    at += 1;
    while (at < text.length) {
      const char = text[at];
      if (char === '"') {
        at += 1;
        return true;
      }
      if (char === '\\') {
        const escaped = text[at + 1];
        if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) at += 6;
        else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) at += 2;
        else {
          at += 1;
          return false;
        }
      } else if (char < ' ') return false;
      else at += 1;
    }
    return false;
  };
  /** Reads a scalar or opens a container; the stop, or undefined when it went on. */
  const value = (): JsonStop | undefined => {
    const char = text[at];
    if (char === '{') {
      open.push({ kind: 'object', next: 'first' });
      at += 1;
      return undefined;
    }
    if (char === '[') {
      open.push({ kind: 'array', next: 'first' });
      at += 1;
      return undefined;
    }
    if (char === '"') return string() ? undefined : stop('a closing quote or a valid escape in the string');
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number && number[0].length > 0) {
      at += number[0].length;
      return undefined;
    }
    const literal = LITERALS.find((word) => text.startsWith(word, at));
    if (literal) {
      at += literal.length;
      return undefined;
    }
    return stop('a value (an object, a list, a string in double quotes, a number, true, false or null)');
  };
  /** A value just ended: its container (if any) expects a comma or its end next. */
  const ended = () => {
    const top = open.at(-1);
    if (top) top.next = 'comma';
  };

  skipWhitespace();
  if (at === text.length) return stop('a JSON value');
  const first = value();
  if (first) return first;
  if (!open.length) ended();
  while (open.length) {
    skipWhitespace();
    const top = open.at(-1)!;
    const char = text[at];
    if (at === text.length) return stop(top.kind === 'object' ? 'more of the object, then }' : 'more of the list, then ]');
    if (top.kind === 'object') {
      if ((top.next === 'first' || top.next === 'comma') && char === '}') {
        open.pop();
        at += 1;
        ended();
        continue;
      }
      if (top.next === 'first' || top.next === 'key') {
        if (char !== '"') return stop('a property name in double quotes');
        if (!string()) return stop('a closing quote or a valid escape in the property name');
        top.next = 'colon';
        continue;
      }
      if (top.next === 'colon') {
        if (char !== ':') return stop("':' after the property name");
        at += 1;
        top.next = 'value';
        continue;
      }
      if (top.next === 'comma') {
        if (char !== ',') return stop("',' or '}' after the property's value");
        at += 1;
        top.next = 'key';
        continue;
      }
    } else {
      if ((top.next === 'first' || top.next === 'comma') && char === ']') {
        open.pop();
        at += 1;
        ended();
        continue;
      }
      if (top.next === 'comma') {
        if (char !== ',') return stop("',' or ']' after the list's element");
        at += 1;
        top.next = 'value';
        continue;
      }
    }
    // A value is due (an object's after its colon, a list's first or after a comma).
    const depth = open.length;
    const refused = value();
    if (refused) return refused;
    // A scalar ended here; a container just opened is its own top now, and its parent waits for a comma once it closes.
    if (open.length === depth) ended();
    else open[depth - 1].next = 'comma';
  }
  skipWhitespace();
  return at === text.length ? undefined : stop('the end of the body after one JSON value');
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < position; index = text.indexOf('\n', index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: position - lineStart + 1 };
}

/** The 400's message: where the body stopped being JSON and what was due, never more of the body than the one character found. */
export function malformedJsonMessage(text: string): string {
  const found = jsonStop(text);
  const looksLikeForm = /^[\w.[\]-]+=/.test(text.trim());
  const advice = looksLikeForm
    ? ' It looks like a form (name=value&...): send the fields as one JSON object instead, e.g. curl -d \'{"policy_id":"..."}\''
    : ' Send one JSON object, e.g. curl -d \'{}\'';
  if (!found) return `The request body is not valid JSON.${advice}`;
  const what = found.found === undefined ? 'the body ends' : `found ${JSON.stringify(found.found)}`;
  return `The request body is not valid JSON: at line ${found.line}, column ${found.column} (character ${found.position + 1}) ${what} where ${found.expected} was expected.${advice}`;
}
