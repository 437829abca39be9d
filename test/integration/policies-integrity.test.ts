/**
 * What protects policy data: atomic numbering under concurrency, no lost update of
 * a revision, no change to a committed revision, and records out of an agent's reach.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureApiKey } from '../../shared/auth/store.js';
import { newToken } from '../../shared/auth/secrets.js';
import { createContactProfileIfAbsent } from '../../shared/contacts/store.js';
import { changeRevision, loadRevision } from '../../shared/policies/store.js';
import { setRevisionState } from '../support/revision-state.js';
import { startTestService, type TestService } from '../support/service.js';
import { holdWritesUntilAllArrive } from '../support/write-barrier.js';

const P = '/api/v2/policies';
const AGENT_ROLE = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
const WATER_BACKUP = '52f30227-604e-4559-9a60-544998a62893';
const LOSSES = 'e29555d3-7101-4947-a3af-a279d8774c09';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

async function agentKey(agencyId: string): Promise<string> {
  const contactId = crypto.randomUUID();
  await createContactProfileIfAbsent({ id: contactId, name: `Agent of ${agencyId}`, type: 'individual', roleIds: [AGENT_ROLE], agencyIds: [agencyId], createdAt: new Date().toISOString(), version: 1 });
  const key = newToken('ias');
  await ensureApiKey(contactId, key, 'test agent');
  return key;
}

async function policyWithWaterBackup() {
  const created = await service.call(`${P}/create_policy`, {});
  const revisionId = created.body.data.revision_id as string;
  const risk = await service.call(`${P}/create_risk`, { revision_id: revisionId });
  const added = await service.call(`${P}/add_line_item`, { revision_id: revisionId, item_id: WATER_BACKUP });
  return { policy: created.body.data, revisionId, propertyId: risk.body.data.id as string, itemId: added.body.data.added_items[0].id as string };
}

describe('policy numbering', () => {
  it('50 concurrent create_policy calls get 50 distinct consecutive numbers', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => service.call(`${P}/create_policy`, {})));
    for (const answer of answers) expect(answer.body.success, JSON.stringify(answer.body.messages)).toBe(true);
    const numbers = answers.map((answer) => answer.body.data.policy_number as string);
    const year = new Date().getUTCFullYear();
    for (const number of numbers) expect(number).toMatch(new RegExp(`^10-${year}-\\d+$`));
    const sequence = numbers.map((number) => Number(number.split('-')[2])).sort((a, b) => a - b);
    expect(new Set(sequence).size).toBe(50);
    expect(sequence[49] - sequence[0]).toBe(49);
    const next = await service.call(`${P}/new_policy_information`, {});
    expect(next.body.data.next_policy_number).toBe(`10-${year}-${sequence[49] + 1}`);
  });
});

describe('revision integrity', () => {
  it('two concurrent updates of the same revision: exactly one wins, the other is told to reload', async () => {
    const { propertyId, itemId, revisionId } = await policyWithWaterBackup();
    // Both requests read the revision before either writes: the race a lost update needs.
    const barrier = holdWritesUntilAllArrive(2);
    let outcomes;
    try {
      outcomes = await Promise.all([
        service.call(`${P}/update_rating_information`, { property_id: propertyId, items: [{ id: itemId, limit: 10000 }] }),
        service.call(`${P}/update_rating_information`, { property_id: propertyId, items: [{ id: itemId, limit: 25000 }] }),
      ]);
    } finally {
      barrier.remove();
    }
    expect(barrier.arrived()).toBe(2);
    const winners = outcomes.filter((answer) => answer.body.success);
    const losers = outcomes.filter((answer) => !answer.body.success);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    expect(losers[0].body.messages).toEqual([`Revision ${revisionId} was changed by another request; reload it and try again`]);
    const details = await service.call(`${P}/retrieve_risk_details`, { risk_id: propertyId });
    const stored = details.body.data.items.find((item: any) => item.id === itemId);
    expect(stored.limit).toBe(winners[0].body.data.items[0].limit);
  });

  it('two changes based on the same version of a revision: the second is refused, the first kept', async () => {
    const { revisionId, itemId } = await policyWithWaterBackup();
    const snapshot = (await loadRevision(revisionId))!;
    const item = snapshot.items.find((candidate) => candidate.id === itemId)!;
    await changeRevision(snapshot.header, { replace: [{ ...item, limitCents: 1_000_000 }] });
    await expect(changeRevision(snapshot.header, { replace: [{ ...item, limitCents: 2_500_000 }] })).rejects.toThrow(
      `Revision ${revisionId} was changed by another request; reload it and try again`,
    );
    const after = (await loadRevision(revisionId))!;
    expect(after.items.find((candidate) => candidate.id === itemId)!.limitCents).toBe(1_000_000);
    expect(after.header.version).toBe(snapshot.header.version + 1);
  });

  it('many concurrent updates of one revision never lose an acknowledged change', async () => {
    const { revisionId } = await policyWithWaterBackup();
    const questions = ['e29555d3-7101-4947-a3af-a279d8774c09', '7a49ec9a-64fc-41fd-bf61-55a1e593fa10', '67344a3c-7863-4d65-8ae5-4b8157514146'];
    const answers = await Promise.all(
      questions.map((questionId) =>
        service.call(`${P}/update_underwriting_questions`, { revision_id: revisionId, underwriting_questions: [{ questionId, yesNoAnswer: 'yes', explanation: 'x' }] }),
      ),
    );
    const acknowledged = questions.filter((_, index) => answers[index].body.success);
    expect(acknowledged.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) {
      if (answer.body.success) expect(answer.body).toEqual({ success: true, message: 'The underwriting questions were saved', data: [] });
      else expect(answer.body.messages[0]).toMatch(/reload it and try again/);
    }
    const revision = await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId });
    const stored = revision.body.data.underwriting_questions.map((answer: any) => answer.questionId);
    for (const questionId of acknowledged) expect(stored).toContain(questionId);
  });

  it('a change to a committed revision is refused, naming the state', async () => {
    const { revisionId, propertyId, itemId } = await policyWithWaterBackup();
    await setRevisionState(revisionId, 'committed');
    const attempts = await Promise.all([
      service.call(`${P}/update_rating_information`, { property_id: propertyId, items: [{ id: itemId, limit: 10000 }] }),
      service.call(`${P}/create_risk`, { revision_id: revisionId }),
      service.call(`${P}/update_underwriting_questions`, { revision_id: revisionId, underwriting_questions: [{ questionId: LOSSES, yesNoAnswer: 'no' }] }),
      service.call(`${P}/update_property_location`, { location: { id: propertyId, address_line1: 'x' } }),
    ]);
    for (const attempt of attempts) {
      expect(attempt.status).toBe(200);
      expect(attempt.body.success).toBe(false);
      expect(attempt.body.messages[0]).toBe(`Revision ${revisionId} is committed; only an open revision can be changed`);
    }
    const details = await service.call(`${P}/retrieve_risk_details`, { risk_id: propertyId });
    expect(details.body.data.items.find((item: any) => item.id === itemId).limit).toBe(5000);
  });
});

describe('reach', () => {
  it("an agent sees its agency's policies, and another agency's as if they did not exist", async () => {
    const agencyA = crypto.randomUUID();
    const agentA = await agentKey(agencyA);
    const agentB = await agentKey(crypto.randomUUID());
    const created = await service.call(`${P}/create_policy`, { as_agent: true }, { apiKey: agentA });
    expect(created.body.success, JSON.stringify(created.body.messages)).toBe(true);
    const { policy_id, revision_id, policy_number } = created.body.data;
    const own = await service.call(`${P}/retrieve_policy`, { policy_id }, { apiKey: agentA });
    expect(own.body.success).toBe(true);
    expect(own.body.data.policy_contacts.agency.id).toBe(agencyA);
    const other = await service.call(`${P}/retrieve_policy`, { policy_number }, { apiKey: agentB });
    expect(other.body).toMatchObject({ success: false, messages: [`Policy number ${policy_number} was not found`] });
    const change = await service.call(`${P}/create_risk`, { revision_id }, { apiKey: agentB });
    expect(change.body).toMatchObject({ success: false, messages: [`Revision ${revision_id} was not found`] });
  });

  it('a caller without a credential gets 401', async () => {
    const answer = await service.call(`${P}/retrieve_policy`, { policy_number: '10-2026-1' }, { apiKey: null });
    expect(answer.status).toBe(401);
  });
});
