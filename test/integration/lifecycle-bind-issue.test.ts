/**
 * quote → bind → issue, each refused out-of-order move changing nothing, and the issue
 * seam: contributions land in the commit's transaction, or nothing does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommittedRevision } from '../../shared/lifecycle/model.js';
import { bindPolicy as bindMove } from '../../shared/lifecycle/bind.js';
import { issuePolicy as issueMove } from '../../shared/lifecycle/issue.js';
import { wired } from '../../shared/lifecycle/joining.js';
import type { TransactionWrite } from '../../shared/platform/transactions.js';
import { config } from '../../shared/platform/config.js';
import type { Principal } from '../../shared/platform/principal.js';
import { policiesAtBind, policiesAtIssue } from '../../shared/policies/joins-moves.js';
import { loadRevision } from '../../shared/policies/store.js';
import { todayIso } from '../../shared/platform/dates.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
let service: TestService;
const administrator: Principal = {
  contactId: 'lifecycle-test', credential: 'api_key', roleIds: [], heldRoleIds: [], permissions: new Set(['*']), agencyIds: [], scope: 'all', isAdministrator: true,
};
/** The issue move wired with only the given contributions (beside the policies area's own commit). */
const issuePolicy = (principal: Principal, by: { policyId: string }, issue: Array<(committed: CommittedRevision) => Promise<TransactionWrite[]>>) =>
  wired({ commit: [policiesAtIssue], issue: issue.map((writes) => async (committed: CommittedRevision) => ({ area: 'test', writes: await writes(committed) })) }, issueMove)(principal, by);
/** The bind move wired with the policies area's own part and the given contributions. */
const bindPolicy = (principal: Principal, by: { policyId: string }, bind: Array<(bound: { revisionId: string }) => Promise<TransactionWrite[]>>) =>
  wired({ bind: [policiesAtBind, ...bind.map((writes) => async (bound: { revisionId: string }) => ({ area: 'test', writes: await writes(bound) }))] }, bindMove)(principal, by);
const usToday = () => { const iso = todayIso(); return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`; };

async function quote(): Promise<{ policyId: string; policyNumber: string }> {
  const data = ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: usToday(), line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Lee Lifecycle' }],
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    }),
  );
  return { policyId: data.policy_id, policyNumber: data.quote_number };
}

const revisionOf = async (policyId: string) => ok(await service.call(`${P}/retrieve_policy`, { policy_id: policyId })).active_revision;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('bind and issue', () => {
  it('quote → bind (Submitted) → issue (committed, Active, commit date) answering number, id and commission', async () => {
    const { policyId, policyNumber } = await quote();
    const refused = await service.call(`${P}/issue`, { issue_info: { policy_id: policyId } });
    expect(refused.body.success).toBe(false);
    expect(refused.body.messages[0]).toMatch(/is Unsubmitted/);
    expect(await revisionOf(policyId)).toMatchObject({ revision_state: 'open', policy_status: 'Unsubmitted' });

    ok(await service.call(`${P}/bind`, { bind_info: { policy_number: policyNumber } }));
    expect(await revisionOf(policyId)).toMatchObject({ revision_state: 'open', policy_status: 'Submitted' });
    expect((await service.call(`${P}/bind`, { bind_info: { policy_id: policyId } })).body.success).toBe(false);

    const issued = ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policyId, policy_number: 'ignored-when-id-given' } }));
    expect(issued).toEqual({ policy_number: policyNumber, policy_id: policyId, commission_rate: 0, override_commission: false, status: 'Active' });
    const revision = await revisionOf(policyId);
    expect(revision).toMatchObject({ revision_state: 'committed', policy_status: 'Active', commit_date: todayIso(), annual_premium: 826.62 });

    const versionAfterIssue = (await loadRevision(revision.id))!.header.version;
    for (const [path, body] of [['issue', { issue_info: { policy_id: policyId } }], ['bind', { bind_info: { policy_id: policyId } }]] as const) {
      const again = await service.call(`${P}/${path}`, body);
      expect(again.body.success, path).toBe(false);
    }
    expect((await loadRevision(revision.id))!.header.version).toBe(versionAfterIssue);
    expect(await revisionOf(policyId)).toMatchObject({ revision_state: 'committed', policy_status: 'Active' });
  });

  it('runs every contribution in the commit transaction; a failing one leaves the quote bound and uncommitted', async () => {
    const { policyId } = await quote();
    ok(await service.call(`${P}/bind`, { bind_info: { policy_id: policyId } }));
    const seen: CommittedRevision[] = [];
    const marker = (committed: CommittedRevision) => ({ pk: `TEST#${committed.revisionId}`, sk: 'ISSUED' });
    const good = async (committed: CommittedRevision) => {
      seen.push(committed);
      return [{ Put: { TableName: config.tableName(), Item: { ...marker(committed), at: committed.commitDate } } }];
    };
    const failing = async (committed: CommittedRevision) => [
      { ConditionCheck: { TableName: config.tableName(), Key: { pk: `TEST#absent#${committed.revisionId}`, sk: 'X' }, ConditionExpression: 'attribute_exists(pk)' } },
    ];
    await expect(issuePolicy(administrator, { policyId }, [good, failing])).rejects.toThrow();
    expect(await revisionOf(policyId)).toMatchObject({ revision_state: 'open', policy_status: 'Submitted' });

    await issuePolicy(administrator, { policyId }, [good]);
    expect(seen.at(-1)).toMatchObject({ policyId, annualPremiumCents: 826_62, annualFeeCents: 25_00, writtenPremiumCents: 826_62, commitDate: todayIso(), namedInsuredContactIds: [expect.any(String)] });
    expect(await revisionOf(policyId)).toMatchObject({ revision_state: 'committed', policy_status: 'Active' });
  });

  it('rates a quote an edit left unrated in the move\'s own transaction: a refused bind or issue leaves it unrated, a landed one stores its rating', async () => {
    const { policyId } = await quote();
    const revisionId = (await revisionOf(policyId)).id as string;
    const details = async () => ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
    const dwelling = (await details()).items.find((item: { name: string }) => item.name === 'Dwelling');
    const unrate = async (limit: number) => ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit }] }));
    const absent = (name: string) => async (moved: { revisionId: string }) => [
      { ConditionCheck: { TableName: config.tableName(), Key: { pk: `TEST#absent#${name}#${moved.revisionId}`, sk: 'X' }, ConditionExpression: 'attribute_exists(pk)' } },
    ];

    await unrate(300000);
    expect(await revisionOf(policyId)).toMatchObject({ annual_premium: 0 });
    await expect(bindPolicy(administrator, { policyId }, [absent('bind')])).rejects.toThrow();
    expect(await revisionOf(policyId)).toMatchObject({ policy_status: 'Unsubmitted', annual_premium: 0 });
    await bindPolicy(administrator, { policyId }, []);
    expect(await revisionOf(policyId)).toMatchObject({ policy_status: 'Submitted', annual_premium: 982.55 });
    expect((await details()).items.find((item: { name: string }) => item.name === 'Dwelling')).toMatchObject({ limit: 300000, annual_premium: 1039.5 });

    await unrate(250000);
    await expect(issuePolicy(administrator, { policyId }, [absent('issue')])).rejects.toThrow();
    expect(await revisionOf(policyId)).toMatchObject({ revision_state: 'open', policy_status: 'Submitted', annual_premium: 0 });
    const seen: CommittedRevision[] = [];
    await issuePolicy(administrator, { policyId }, [async (committed) => (seen.push(committed), [])]);
    expect(await revisionOf(policyId)).toMatchObject({ revision_state: 'committed', policy_status: 'Active', annual_premium: 826.62 });
    expect((await details()).items.find((item: { name: string }) => item.name === 'Dwelling')).toMatchObject({ limit: 250000, annual_premium: 866.25 });
    // The contributions were given the revision as the commit stores it, rated.
    expect(seen[0]).toMatchObject({ annualPremiumCents: 826_62 });
    expect(seen[0].asRead?.revision.items.find((item) => item.name === 'Dwelling')).toMatchObject({ annualPremiumCents: 866_25 });
  });
});
