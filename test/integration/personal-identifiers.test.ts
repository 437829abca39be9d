/**
 * Personal identifiers (issue 7, item 6): sealed in the table, shown in full to
 * Administrators and Underwriters, masked to the last four for everyone else, agents
 * included; records from before sealing read either way and are sealed by the migration.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactKey, contactRoleKey, contactsMigrationKey } from '../../shared/contacts/keys.js';
import { SEAL_IDENTIFIERS_MIGRATION, sealStoredIdentifiers } from '../../shared/contacts/seal-identifiers-migration.js';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { startTestService, successData, type TestService } from '../support/service.js';

const NAMED_INSURED = '8626b373-c54d-498a-82bf-fd2d2f32b746';

let service: TestService;
let agencyId: string;
let agentKey: string;
let underwriterKey: string;

async function newContact(name: string, role: string, content: Record<string, unknown> = {}): Promise<string> {
  const answer = await service.call('/api/v1/contacts/storeNewContact', { role, content: { name, type: 'individual', ...content } });
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ success: true });
  return answer.body.id;
}

const keyOf = async (contactId: string) =>
  successData(await service.call('/api/v2/auth/create_api_key', { contact_id: contactId, description: 'identifiers test' })).api_key as string;

const stored = async (key: { pk: string; sk: string }) =>
  (await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: key, ConsistentRead: true }))).Item!;

const personalInformation = async (contactId: string, apiKey?: string) => {
  const answer = await service.call('/api/v1/contacts/retrieveAspectData', { id: contactId, roleId: NAMED_INSURED, hasPermissions: true }, apiKey ? { apiKey } : {});
  return successData(answer).personalInformation;
};

beforeAll(async () => {
  service = await startTestService();
  agencyId = await newContact('Maple Agency', 'Agency');
  [agentKey, underwriterKey] = await Promise.all([keyOf(await newContact('Avery Agent', 'Agent', { agencyId })), keyOf(await newContact('Uri Underwriter', 'Underwriter'))]);
});
afterAll(async () => {
  await service?.stop();
});

describe('personal identifiers', () => {
  it('are sealed in the table, whether given to storeNewContact or to storeRoles', async () => {
    const insuredId = await newContact('Pat Doe', 'Named Insured', { agencyId, ssn: '123-45-6789', feinTaxId: '12-3456789' });
    successData(await service.call('/api/v1/contacts/storeRoles', { contactId: insuredId, roleId: NAMED_INSURED, personalInformation: { ssn: '987-65-4321', driversLicense: 'D1234-5678', dba: 'Pat' } }));

    const profile = await stored(contactKey(insuredId));
    const role = await stored(contactRoleKey(insuredId, NAMED_INSURED));
    for (const value of [profile.details.ssn, profile.details.feinTaxId, role.aspects.personalInformation.ssn, role.aspects.personalInformation.driversLicense]) {
      expect(value).toMatch(/^sealed:v1\./);
    }
    const raw = JSON.stringify([profile, role]);
    for (const digits of ['6789', '3456789', '4321', '5678']) expect(raw).not.toContain(digits);
    expect(role.aspects.personalInformation.dba).toBe('Pat');
  });

  it('are shown in full to Administrators and Underwriters, and masked to an agent of the agency', async () => {
    const insuredId = await newContact('Sam Roe', 'Named Insured', { agencyId });
    successData(await service.call('/api/v1/contacts/storeRoles', { contactId: insuredId, roleId: NAMED_INSURED, personalInformation: { ssn: '123456789', driversLicense: 'D1234-5678' } }));

    expect(await personalInformation(insuredId)).toMatchObject({ ssn: '123456789', driversLicense: 'D1234-5678' });
    expect(await personalInformation(insuredId, underwriterKey)).toMatchObject({ ssn: '123456789', driversLicense: 'D1234-5678' });
    const masked = await personalInformation(insuredId, agentKey);
    expect(masked).toMatchObject({ ssn: '***-**-6789', driversLicense: '*****-5678' });
    expect(JSON.stringify(masked)).not.toContain('12345');
  });

  it('written in clear before sealing are read either way, and sealed by the migration step', async () => {
    const insuredId = await newContact('Lee Legacy', 'Named Insured', { agencyId });
    // As an older release stored them: in clear, on the role record and the profile.
    await documentClient().send(
      new UpdateCommand({
        TableName: config.tableName(),
        Key: contactRoleKey(insuredId, NAMED_INSURED),
        UpdateExpression: 'SET aspects = :aspects',
        ExpressionAttributeValues: { ':aspects': { personalInformation: { ssn: '555-12-3456' } } },
      }),
    );
    await documentClient().send(
      new UpdateCommand({ TableName: config.tableName(), Key: contactKey(insuredId), UpdateExpression: 'SET details.ssn = :ssn', ExpressionAttributeValues: { ':ssn': '555-12-3456' } }),
    );
    expect((await personalInformation(insuredId)).ssn).toBe('555-12-3456');
    expect((await personalInformation(insuredId, agentKey)).ssn).toBe('***-**-3456');

    // The bootstrap has run the migration for this table already: make it run again.
    await documentClient().send(new DeleteCommand({ TableName: config.tableName(), Key: contactsMigrationKey(SEAL_IDENTIFIERS_MIGRATION) }));
    expect((await sealStoredIdentifiers()).sealed).toBeGreaterThanOrEqual(2);
    expect((await stored(contactRoleKey(insuredId, NAMED_INSURED))).aspects.personalInformation.ssn).toMatch(/^sealed:v1\./);
    expect((await stored(contactKey(insuredId))).details.ssn).toMatch(/^sealed:v1\./);
    expect((await personalInformation(insuredId)).ssn).toBe('555-12-3456');
    expect((await personalInformation(insuredId, agentKey)).ssn).toBe('***-**-3456');
    // Once done, it is done: a later start reads one marker and seals nothing.
    expect(await sealStoredIdentifiers()).toEqual({ sealed: 0 });
  });
});
