/** The typed client's generated types follow the served OpenAPI description, and type the bodies. */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RequestBody } from '../../clients/typescript/src/index.js';
import { generatedSchema, SCHEMA_FILE } from '../../clients/typescript/generate.js';

describe('the typed client', () => {
  it('is generated from the current OpenAPI description (run `npm run client:generate` when this fails)', async () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8') === (await generatedSchema())).toBe(true);
  }, 60_000);

  it("types each operation's body from its schema", () => {
    expectTypeOf<RequestBody<'/api/v2/events/create'>>().toHaveProperty('url');
    expectTypeOf<RequestBody<'/api/v2/events/create'>['event_types']>().toEqualTypeOf<string[]>();
  });
});
