import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonStop, malformedJsonMessage } from '../../shared/platform/json-errors.js';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('where a body stops being JSON', () => {
  it('names the line, the column and what was due there', () => {
    expect(jsonStop('{\n  "a": 1,\n  "b": oops\n}')).toEqual({ position: 19, line: 3, column: 8, expected: expect.stringMatching(/^a value/), found: 'o' });
    expect(jsonStop("{'a':1}")).toMatchObject({ position: 1, expected: 'a property name in double quotes', found: "'" });
    expect(jsonStop('{"a":1,}')).toMatchObject({ position: 7, expected: 'a property name in double quotes', found: '}' });
    expect(jsonStop('[1 2]')).toMatchObject({ position: 3, expected: "',' or ']' after the list's element" });
    expect(jsonStop('{"a":1')).toEqual({ position: 6, line: 1, column: 7, expected: 'more of the object, then }' });
    expect(jsonStop('{"a":1}x')).toMatchObject({ position: 7, expected: 'the end of the body after one JSON value' });
    expect(jsonStop('{"a":[1,{"b":null}],"c":-1.5e3}')).toBeUndefined();
  });

  it('survives a body nested a million deep', () => {
    expect(jsonStop('['.repeat(1_000_000))).toMatchObject({ position: 1_000_000, expected: 'more of the list, then ]' });
  });

  it('agrees with JSON.parse on what is JSON', () => {
    const pieces = fc.constantFrom('{', '}', '[', ']', ',', ':', '"a"', '"', '\\', '1', '-', '.', 'e', '0', 'true', 'nul', 'null', ' ', '\n', 'x', "'");
    fc.assert(fc.property(fc.array(pieces, { maxLength: 14 }).map((parts) => parts.join('')), (text) => parses(text) === (jsonStop(text) === undefined)), { numRuns: 5000 });
    fc.assert(fc.property(fc.json(), (text) => jsonStop(text) === undefined));
  });

  it('tells a form body to be sent as JSON, and quotes no more of the body than the one character', () => {
    const message = malformedJsonMessage('api_key=secret-key-value&x=1');
    expect(message).toMatch(/^The request body is not valid JSON: at line 1, column 1 \(character 1\) found "a" where a value .* It looks like a form/);
    expect(message).not.toContain('secret');
  });
});
