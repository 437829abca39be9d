import { describe, expect, it } from 'vitest';
import { firstRevisionIdOf } from '../../shared/policies/revision-ids.js';

describe("a new policy's first revision id", () => {
  it('follows from the policy id alone, a version 8 UUID distinct for each policy', () => {
    const id = firstRevisionIdOf('3f2c9a50-0d7e-4c1b-9f3a-2b8e6d4c1a70');
    expect(id).toBe(firstRevisionIdOf('3f2c9a50-0d7e-4c1b-9f3a-2b8e6d4c1a70'));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const many = new Set(Array.from({ length: 1000 }, () => firstRevisionIdOf(crypto.randomUUID())));
    expect(many.size).toBe(1000);
  });
});
