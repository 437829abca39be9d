/**
 * External policies (insert only) and policy groups: forming, moving, and dissolving a
 * group left with fewer than two policies, its id removed from each of its policies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

const newPolicy = async () => ok(await service.call(`${P}/create_policy`, {})) as { policy_id: string; policy_number: string };
const groupOf = async (policyId: string) => ok(await service.call(`${P}/retrieve_policy`, { policy_id: policyId })).policy_group_id;

describe('external policies', () => {
  it('inserts new numbers only: an existing number, ours or external, fails with its reason and is not overwritten', async () => {
    const ours = await newPolicy();
    const first = ok(await service.call(`${P}/post_external_policies`, { policies: [{ policy_number: 'EXT-100', policy_type_id: null, other_details: { carrier: 'Other Mutual' } }] }));
    expect(first).toEqual({ inserted: [{ policy_id: expect.any(String), policy_number: 'EXT-100' }], failed: [] });
    const second = ok(
      await service.call(`${P}/post_external_policies`, {
        policies: [{ policy_number: 'EXT-100', other_details: { carrier: 'Overwriter' } }, { policy_number: ours.policy_number }, { other_details: {} }, { policy_number: 'EXT-101', policy_type_id: 'not-a-uuid' }, { policy_number: 'EXT-102' }],
      }),
    );
    expect(second.inserted).toEqual([{ policy_id: expect.any(String), policy_number: 'EXT-102' }]);
    expect(second.failed).toEqual([
      { index: 0, policy_number: 'EXT-100', reason: expect.stringMatching(/already exists/) },
      { index: 1, policy_number: ours.policy_number, reason: expect.stringMatching(/already exists/) },
      { index: 2, policy_number: '', reason: 'policy_number is required' },
      { index: 3, policy_number: 'EXT-101', reason: 'policy_type_id must be a UUID' },
    ]);
    const { findExternalPolicyByNumber } = await import('../../shared/policy-groups/store.js');
    expect((await findExternalPolicyByNumber('EXT-100'))?.otherDetails).toEqual({ carrier: 'Other Mutual' });
  });

  it('deletes by number; numbers not found are the data', async () => {
    ok(await service.call(`${P}/post_external_policies`, { policies: [{ policy_number: 'EXT-DEL-1' }] }));
    const answer = await service.call(`${P}/delete_external_policies`, { policies: ['EXT-DEL-1', 'EXT-NEVER'] });
    expect(answer.body).toMatchObject({ success: true, data: ['EXT-NEVER'] });
    // Deleted, the number can be posted again.
    expect(ok(await service.call(`${P}/post_external_policies`, { policies: [{ policy_number: 'EXT-DEL-1' }] })).inserted).toHaveLength(1);
  });
});

describe('policy groups', () => {
  it('forms one group per inner list, external policies included, shown by retrieve_policy', async () => {
    const [a, b, c, d] = [await newPolicy(), await newPolicy(), await newPolicy(), await newPolicy()];
    const external = ok(await service.call(`${P}/post_external_policies`, { policies: [{ policy_number: 'EXT-GRP-1' }] })).inserted[0];
    const formed = ok(
      await service.call(`${P}/add_policies_to_new_group`, {
        policies: [[{ policy_id: a.policy_id }, { policy_id: b.policy_id }, { policy_id: external.policy_id, external_policy: true }], [{ policy_id: c.policy_id }, { policy_id: d.policy_id }]],
      }),
    );
    const [first, second] = formed.policy_group_ids;
    expect(await groupOf(a.policy_id)).toBe(first);
    expect(await groupOf(b.policy_id)).toBe(first);
    expect(await groupOf(c.policy_id)).toBe(second);
    const { getExternalPolicy } = await import('../../shared/policy-groups/store.js');
    expect((await getExternalPolicy(external.policy_id))?.policyGroupId).toBe(first);
  });

  it('dissolves a group left with fewer than two policies and removes its id from them; an active group is kept', async () => {
    const [a, b, c] = [await newPolicy(), await newPolicy(), await newPolicy()];
    const [pair, trio] = ok(
      await service.call(`${P}/add_policies_to_new_group`, { policies: [[{ policy_id: a.policy_id }, { policy_id: b.policy_id }], [{ policy_id: c.policy_id }, { policy_id: a.policy_id }]] }),
    ).policy_group_ids;
    // a moved to the second group: the first is left with b alone.
    expect(await groupOf(a.policy_id)).toBe(trio);
    const answer = await service.call(`${P}/update_inactive_policy_groups`, { group_ids: [pair, trio] });
    expect(answer.body).toMatchObject({ success: true, data: { deleted_group_ids: [pair] } });
    expect(answer.body.messages).toEqual([expect.stringMatching(/fewer than two policies and was deleted/), expect.stringMatching(/is active \(2 policies\) and is kept/)]);
    expect(await groupOf(b.policy_id)).toBeNull();
    expect(await groupOf(a.policy_id)).toBe(trio);
    const again = await service.call(`${P}/update_inactive_policy_groups`, { group_ids: [pair] });
    expect(again.body.messages).toEqual([expect.stringMatching(/was not found/)]);
  });

  it('force_removal: true deletes a named group even while it is active, removing its id from every policy; false keeps it (issue 17 item 6)', async () => {
    const [a, b] = [await newPolicy(), await newPolicy()];
    const [group] = ok(await service.call(`${P}/add_policies_to_new_group`, { policies: [[{ policy_id: a.policy_id }, { policy_id: b.policy_id }]] })).policy_group_ids;
    const kept = await service.call(`${P}/update_inactive_policy_groups`, { group_ids: [group], force_removal: false });
    expect(kept.body).toMatchObject({ success: true, data: { deleted_group_ids: [] } });
    expect(await groupOf(a.policy_id)).toBe(group);
    const forced = await service.call(`${P}/update_inactive_policy_groups`, { group_ids: [group], force_removal: true });
    expect(forced.body).toMatchObject({ success: true, data: { deleted_group_ids: [group] } });
    expect(forced.body.messages).toEqual([expect.stringMatching(/removed on force_removal/)]);
    expect(await groupOf(a.policy_id)).toBeNull();
    expect(await groupOf(b.policy_id)).toBeNull();
  });

  it('a group whose external policy was deleted counts only what is left', async () => {
    const a = await newPolicy();
    const external = ok(await service.call(`${P}/post_external_policies`, { policies: [{ policy_number: 'EXT-GONE-1' }] })).inserted[0];
    const [group] = ok(await service.call(`${P}/add_policies_to_new_group`, { policies: [[{ policy_id: a.policy_id }, { policy_id: external.policy_id, external_policy: true }]] })).policy_group_ids;
    expect((await service.call(`${P}/update_inactive_policy_groups`, { group_ids: [group] })).body.data).toEqual({ deleted_group_ids: [] });
    ok(await service.call(`${P}/delete_external_policies`, { policies: ['EXT-GONE-1'] }));
    expect((await service.call(`${P}/update_inactive_policy_groups`, { group_ids: [group] })).body.data).toEqual({ deleted_group_ids: [group] });
    expect(await groupOf(a.policy_id)).toBeNull();
  });

  it('moves policies and external policies into existing groups; an unknown group changes nothing', async () => {
    const [a, b, c] = [await newPolicy(), await newPolicy(), await newPolicy()];
    const [group] = ok(await service.call(`${P}/add_policies_to_new_group`, { policies: [[{ policy_id: a.policy_id }, { policy_id: b.policy_id }]] })).policy_group_ids;
    ok(await service.call(`${P}/add_policies_to_existing_groups`, { policies: [{ policy_id: c.policy_id, policy_group_id: group }] }));
    expect(await groupOf(c.policy_id)).toBe(group);
    const external = ok(await service.call(`${P}/post_external_policies`, { policies: [{ policy_number: 'EXT-MOVE-1' }] })).inserted[0];
    ok(await service.call(`${P}/add_external_policies_to_existing_groups`, { external_policies: [{ policy_id: external.policy_id, policy_group_id: group }] }));
    const refused = await service.call(`${P}/add_policies_to_existing_groups`, { policies: [{ policy_id: a.policy_id, policy_group_id: crypto.randomUUID() }] });
    expect(refused.body).toMatchObject({ success: false, messages: [expect.stringMatching(/Policy group .* was not found/)] });
    expect(await groupOf(a.policy_id)).toBe(group);
    const unknownPolicy = await service.call(`${P}/add_policies_to_new_group`, { policies: [[{ policy_id: crypto.randomUUID() }, { policy_id: a.policy_id }]] });
    expect(unknownPolicy.body.success).toBe(false);
    expect(await groupOf(a.policy_id)).toBe(group);
  });
});
