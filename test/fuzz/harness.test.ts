/** The fuzz harness itself, without a server: derived bodies, mutations on the wire, and the answer checks. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerFindings, envelopeProblem } from './answer-checks.js';
import { nestedJson, RawJson, serialize, withValueAt } from './body.js';
import { caseArbitrary, classesFor, fuzzCase } from './input-classes.js';
import { fieldSlots, isFreeForm, valueArbitrary, type JsonSchema, type KnownValues } from './json-schema.js';
import { fuzzOperation } from './operations.js';

const nothingKnown: KnownValues = { byField: new Map(), ids: [] };

const quoteRequest = z.object({
  revision_id: z.uuid(),
  name: z.string().min(1).max(200),
  page: z.number().int().min(1).max(1000),
  premium: z.number().min(0),
  kind: z.enum(['dwelling', 'contents']),
  effective_date: z.string().optional(),
  manual: z.boolean().optional(),
  tags: z.array(z.string()).optional(),
  builder_obj: z.record(z.string(), z.unknown()).nullable().optional(),
  location: z.object({ id: z.string().min(1), year_built: z.union([z.string(), z.number()]).nullable() }).optional(),
});
const quoteSchema = z.toJSONSchema(quoteRequest, { io: 'input' }) as JsonSchema;

function maxDepth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(maxDepth));
}

describe('bodies derived from a request schema', () => {
  it('pass the zod schema the description was generated from', () => {
    fc.assert(fc.property(valueArbitrary(quoteSchema, '', nothingKnown), (body) => quoteRequest.safeParse(body).success), { numRuns: 200 });
  });

  it('use known values for fields of that name, and known ids for id-like fields', () => {
    const known: KnownValues = { byField: new Map([['name', ['Property #1']]]), ids: ['0f8fad5b-d9cb-469f-a165-70867728950e'] };
    const samples = fc.sample(valueArbitrary({ type: 'object', properties: { name: { type: 'string' }, risk_id: { type: 'string' } }, required: ['name', 'risk_id'] }, '', known), 200);
    expect(samples.some((body: any) => body.name === 'Property #1')).toBe(true);
    expect(samples.some((body: any) => body.risk_id === '0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(true);
  });

  it('find every field, nested and in lists, and which of them take any JSON', () => {
    const slots = fieldSlots(quoteSchema);
    expect(slots.map((slot) => slot.path.join('.'))).toEqual(expect.arrayContaining(['revision_id', 'tags', 'builder_obj', 'location.id', 'location.year_built']));
    expect(slots.filter((slot) => isFreeForm(slot.schema)).map((slot) => slot.path.join('.'))).toEqual(['builder_obj']);
  });
});

describe('bodies on the wire', () => {
  it('carry raw number text and own __proto__ keys as written', () => {
    const body = withValueAt(withValueAt({ a: 1 }, ['limits', 0, 'amount'], new RawJson('1e309')), ['__proto__'], { admin: true });
    expect(serialize(body)).toBe('{"a":1,"limits":[{"amount":1e309}],"__proto__":{"admin":true}}');
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });

  it('nest as deep as asked', () => {
    expect(maxDepth(JSON.parse(nestedJson(40, 'mixed').text))).toBe(40);
  });

  it('hide a large body when fast-check prints a counterexample', () => {
    expect(fc.stringify(fuzzCase('huge-string', 'name', 'x'.repeat(100_000))).length).toBeLessThan(400);
  });

  it('cover every input class for a v1 operation with a wrapper, and wrap the flat body in half the cases', () => {
    const operation = fuzzOperation('/api/v1/custom_ui/deleteURLOverride', {
      post: { requestBody: { content: { 'application/json': { schema: { oneOf: [{ type: 'object', properties: { json_obj: { type: 'object', properties: { url: { type: 'string' } } }, api_key: { type: 'string' } }, required: ['json_obj'] }, { type: 'object', properties: { url: { type: 'string' }, api_key: { type: 'string' } }, required: ['url'] }] } } } } },
    });
    expect(operation).toMatchObject({ version: 'v1', name: 'deleteURLOverride', wrapper: 'json_obj', isCreate: false });
    expect(operation.schema.properties).not.toHaveProperty('api_key');
    expect(classesFor(operation)).toContain('wrapper-string');
    const bodies = fc.sample(caseArbitrary(operation, 'valid', nothingKnown), 100).map((sample) => JSON.parse(sample.body));
    expect(bodies.some((body) => 'json_obj' in body)).toBe(true);
    expect(bodies.some((body) => 'url' in body)).toBe(true);
  });
});

describe('the answer checks', () => {
  it('accept the v1 and v2 envelopes and the documented variants', () => {
    expect(envelopeProblem('v1', { success: false, message: ['url: is required'], data: null })).toBeUndefined();
    expect(envelopeProblem('v1', { success: true, message: [], id: 'x', address_ids: [] })).toBeUndefined();
    expect(envelopeProblem('v2', { success: true, messages: 'Property #1 is already the primary property' })).toBeUndefined();
    expect(envelopeProblem('v2', { success: true, message: 'The underwriting questions were saved', data: [] })).toBeUndefined();
    expect(envelopeProblem('v2', { permissionDenied: true, success: false })).toBeUndefined();
  });

  it('refuse an answer that is not an envelope', () => {
    expect(envelopeProblem('v1', { success: false, messages: ['wrong key for v1'], data: null })).toBe('a v1 answer without a message list');
    expect(envelopeProblem('v2', { success: false, messages: [] })).toBe('a failure without data');
    expect(envelopeProblem('v2', 'Internal Server Error')).toBe('the answer is not a JSON object');
  });

  it('name a fault, a wrong status, a rejected create that stored, and an echoed input', () => {
    const create = fuzzOperation('/api/v2/policies/create_policy', { post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: {} } } } } } });
    const sent = fuzzCase('long-id', 'policy_type_id = 10,000-character id', '{}');
    const echo = `policy_type_id: ${'fuzz'.repeat(30)} is not a policy type`;
    const findings = answerFindings(create, sent, { status: 200, text: JSON.stringify({ success: false, messages: [echo], data: null }) }, { added: 10, removed: 0, changed: 1, keys: ['COUNTER#POLICYNUMBER 10-2026'] }, 6 * 1024 * 1024);
    expect(findings.map((finding) => finding.rule)).toEqual(['stored-on-rejection', 'echoes-input']);
    const fault = answerFindings(create, sent, { status: 500, text: 'oops' }, undefined, 6 * 1024 * 1024);
    expect(fault.map((finding) => finding.rule)).toEqual(['server-fault', 'no-envelope']);
    const refused = answerFindings(create, sent, { status: 401, text: JSON.stringify({ success: false, messages: ['no'], data: null }) }, undefined, 6 * 1024 * 1024);
    expect(refused).toEqual([{ rule: 'unexpected-status', detail: 'status 401, expected 200' }]);
  });
});
