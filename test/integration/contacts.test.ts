/**
 * Contacts through the local server: storeNewContact in every alias form, storeRoles and
 * retrieveAspectData, name lookups and lists, and what an agent may reach.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../shared/auth/store.js';
import { verifyPassword } from '../../shared/platform/passwords.js';
import { detailsContext, openIdentifier } from '../../shared/contacts/personal-identifiers.js';
import { getContact, getLoginCredential, linkContactToPolicy } from '../../shared/contacts/store.js';
import { queryAll } from '../../shared/platform/dynamo.js';
import { startTestService, type TestService } from '../support/service.js';

const ROLE = {
  administrator: '7be0803d-445c-4e35-8419-52b07cd4d537',
  agency: 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692',
  agent: '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc',
  namedInsured: '8626b373-c54d-498a-82bf-fd2d2f32b746',
  mortgagee: '069ad0ce-bb95-41c0-baf9-b9d58afc92cb',
  vendor: 'a0b415a3-fb1b-4f12-aa37-974480d19964',
};

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

async function newContact(content: Record<string, unknown>, role?: string, apiKey?: string) {
  const answer = await service.call('/api/v1/contacts/storeNewContact', { ...(role ? { role } : {}), content }, apiKey ? { apiKey } : {});
  expect(answer.status).toBe(200);
  return answer.body as { success: boolean; id: string; address_ids: string[]; message: string[] };
}

async function created(content: Record<string, unknown>, role?: string, apiKey?: string): Promise<string> {
  const body = await newContact(content, role, apiKey);
  expect(body.message).toEqual([]);
  expect(body.success).toBe(true);
  return body.id;
}

const aspectData = (id: string, roleId: string, extra: Record<string, unknown> = {}, apiKey?: string) =>
  service.call('/api/v1/contacts/retrieveAspectData', { id, roleId, hasPermissions: 'true', ...extra }, apiKey ? { apiKey } : {});

const storeRoles = (body: Record<string, unknown>, apiKey?: string) => service.call('/api/v1/contacts/storeRoles', body, apiKey ? { apiKey } : {});

const lookup = (name: string, role: string, role_type: string, apiKey?: string) =>
  service.call('/api/v1/contacts/lookupContactByName', { name, role, role_type }, apiKey ? { apiKey } : {});

const list = (body: Record<string, unknown>, apiKey?: string) => service.call('/api/v1/contacts/retrieveContactList', body, apiKey ? { apiKey } : {});

describe('storeNewContact', () => {
  it('creates a contact from date parts, feinTaxId and the long list names, answering its id and address ids', async () => {
    const body = await newContact(
      {
        name: 'Margaret Alvarez-Hughes',
        type: 'individual',
        dobYear: '1980',
        dobMonth: '4',
        dobDay: '23',
        dbsYear: 2001,
        dbsMonth: 2,
        dbsDay: 3,
        agencyInceptionDateYear: '2019',
        agencyInceptionDateMonth: '01',
        agencyInceptionDateDay: '15',
        agencyTerminationDateYear: '2030',
        agencyTerminationDateMonth: '12',
        agencyTerminationDateDay: '31',
        feinTaxId: '12-3456789',
        confirmationEmail: 'margaret@example.com',
        purchaseDate: '2024-06-01',
        emailAddresses: [{ email: 'margaret@example.com', emailType: 'Work' }],
        phoneNumbers: [{ phoneType: 'Mobile', email: '555-201-3344' }],
        addresses: [
          { addressLine1: '12 Oak Street', addressCity: 'Springfield', addressState: 'IL', addressZip: '62701', addressCountry: 'USA', addressType: 'Mailing' },
          { addressLine1: '9 Elm Road', addressCity: 'Peoria', addressState: 'IL', addressZip: '61602', addressCountry: 'USA', addressType: 'Billing' },
        ],
      },
      'Named Insured',
    );
    expect(body.success).toBe(true);
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.address_ids).toHaveLength(2);

    const stored = await getContact(body.id);
    expect(stored?.details).toMatchObject({ dob: '1980-04-23', dateBusinessStarted: '2001-02-03', purchaseDate: '2024-06-01' });
    // The tax id is stored sealed (see personal-identifiers.test.ts), and opens to what was given.
    expect(stored?.details?.feinTaxId).toMatch(/^sealed:/);
    expect(openIdentifier(stored?.details?.feinTaxId as string, detailsContext(body.id)('feinTaxId'))).toBe('12-3456789');
    expect(stored?.roleIds).toEqual([ROLE.namedInsured]);

    const found = await lookup('margaret', 'Named Insured', 'individual');
    expect(found.body.success).toBe(true);
    const element = found.body.data.find((contact: { id: string }) => contact.id === body.id);
    expect(element.name).toBe('Margaret Alvarez-Hughes');
    expect(element.extra.addresses.map((a: { id: string }) => a.id)).toEqual(body.address_ids);
    expect(element.extra.addresses[0]).toMatchObject({ addressLine1: '12 Oak Street', addressType: 'Mailing' });
    expect(element.extra.emailAddresses[0]).toMatchObject({ email: 'margaret@example.com', emailType: 'Work' });
    expect(element.extra.phoneNumbers[0]).toMatchObject({ phone: '555-201-3344', phoneType: 'Mobile' });

    const aspects = await aspectData(body.id, ROLE.namedInsured);
    expect(aspects.body.data.agencyDates).toEqual({ agencyInceptionDate: '2019-01-15', agencyTerminationDate: '2030-12-31' });

    // The profile is the one record of its addresses, phones and e-mails: no second copy that a later change would leave behind.
    expect(stored?.addresses?.map((address) => address.id)).toEqual(body.address_ids);
    const owned = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `CONTACT#${body.id}` }, ConsistentRead: true });
    expect([...new Set(owned.map((item) => String(item.sk).replace(/#.*/, '#')))].sort()).toEqual(['INDEX#', 'PROFILE', 'ROLE#']);
  });

  it('accepts the short aliases: dob and dbs as dates, feinTax, emails, phones, type, and foreign addresses', async () => {
    const body = await newContact({
      name: 'Lakeside Roofing Ltd',
      type: 'Organization',
      roles: ['Vendor'],
      dob: '1975-07-04',
      dbs: '03/15/1999',
      agencyInceptionDate: '2020-05-01',
      agencyTerminationDate: '2021-05-01',
      feinTax: '98-7654321',
      emails: [{ email: 'office@lakeside.example', type: 'Office' }],
      phones: [{ type: 'Fax', email: '+44 20 7946 0000' }],
      addresses: [
        { addressLine1: '1 Harbour Way', addressCityOther: 'Bristol', addressCountyOther: 'Avon', addressStateOther: 'England', addressCountry: 'United Kingdom', addressZip: 'BS1 5TY', type: 'Head office' },
        { addressLine1: '20 King St W', addressCity: 'Toronto', addressStateCanada: 'ON', addressZip: 'M5H 1A1', addressCountry: 'Canada', type: 'Branch' },
      ],
    });
    expect(body.success).toBe(true);
    expect(body.address_ids).toHaveLength(2);
    const stored = await getContact(body.id);
    expect(stored).toMatchObject({ type: 'organization', roleIds: [ROLE.vendor], agencyInceptionDate: '2020-05-01', agencyTerminationDate: '2021-05-01' });
    expect(stored?.details).toMatchObject({ dob: '1975-07-04', dateBusinessStarted: '1999-03-15' });
    expect(openIdentifier(stored?.details?.feinTaxId as string, detailsContext(body.id)('feinTaxId'))).toBe('98-7654321');
    expect(stored?.emailAddresses?.[0]).toMatchObject({ email: 'office@lakeside.example', emailType: 'Office' });
    expect(stored?.phoneNumbers?.[0]).toMatchObject({ phone: '+44 20 7946 0000', phoneType: 'Fax' });
    expect(stored?.addresses?.[0]).toMatchObject({ addressCityOther: 'Bristol', addressCountyOther: 'Avon', addressStateOther: 'England', addressType: 'Head office' });
    expect(stored?.addresses?.[1]).toMatchObject({ addressStateCanada: 'ON', addressType: 'Branch' });

    const listed = await list({ searchString: 'lakeside', filter: 'Vendor', currentPage: '1', pageSize: '10' });
    expect(listed.body.records).toHaveLength(1);
    expect(listed.body.records[0]).toMatchObject({ id: body.id, type: 'organization', details: { name: 'Lakeside Roofing Ltd', role: 'Vendor', is_approved_vendor: true, email: 'office@lakeside.example', phone: '+44 20 7946 0000' } });
  });

  it('accepts dateBusinessStarted as the date business started', async () => {
    const id = await created({ name: 'Birchwood Holdings', type: 'organization', dateBusinessStarted: '2011-09-30' });
    expect((await getContact(id))?.details).toMatchObject({ dateBusinessStarted: '2011-09-30' });
  });

  it('refuses missing or malformed content, naming the fields, and stores nothing', async () => {
    const before = await list({ searchString: '', filter: '', currentPage: 1, pageSize: 1 });
    const missing = await newContact({ type: 'individual', addresses: [{ addressCity: 'Springfield' }] });
    expect(missing.success).toBe(false);
    expect(missing.message).toEqual(expect.arrayContaining(['content.name: is required', 'content.addresses.0.addressLine1: is required']));
    const malformed = await newContact({ name: 'Wrong Dates', type: 'individual', dobYear: '1990', dobMonth: '2', dobDay: '30', emails: [{ email: 'not-an-email' }] });
    expect(malformed.success).toBe(false);
    expect(malformed.message.join(' ')).toMatch(/content\.dob/);
    expect(malformed.message.join(' ')).toMatch(/content\.emails\.0\.email/);
    const noContent = await service.call('/api/v1/contacts/storeNewContact', { role: 'Vendor' });
    expect(noContent.body.success).toBe(false);
    const terminationFirst = await newContact({ name: 'Early End', type: 'individual', agencyInceptionDate: '2022-01-01', agencyTerminationDate: '2021-01-01' });
    expect(terminationFirst.success).toBe(false);
    const unknownRole = await newContact({ name: 'No Such Role', type: 'individual' }, 'Astronaut');
    expect(unknownRole.message).toEqual(['role: no role named "Astronaut"']);

    const after = await list({ searchString: '', filter: '', currentPage: 1, pageSize: 1 });
    expect(after.body.maxRecords).toBe(before.body.maxRecords);
    expect((await lookup('wrong', 'Named Insured', 'individual')).body.data).toEqual([]);
  });
});

describe('storeRoles and retrieveAspectData', () => {
  let agencyId: string;
  let agentId: string;

  beforeAll(async () => {
    agencyId = await created({ name: 'Summit Insurance Agency', type: 'organization' }, 'Agency');
    agentId = await created({ name: 'Dana Whitfield', type: 'individual', agencyId }, 'Agent');
  });

  it('stores the aspect objects passed and answers them as aspect data', async () => {
    const answer = await storeRoles({
      contactId: agencyId,
      roleId: ROLE.agency,
      agencyInactive: false,
      e2ValDisallow: 'true',
      agencyDates: { agencyInceptionDateYear: '2018', agencyInceptionDateMonth: '3', agencyInceptionDateDay: '1' },
      agencyGroup: { agencyGroupId: 'north', belongsTo: true },
      agencyNumber: { agencyNumber: 'AG-100' },
      agencyGroupNumber: { agencyGroupNumber: 'GRP-7' },
      naicNumber: { naicNumber: '12345' },
      producerNumber: { producerNumber: 'P-9' },
      vendorNumber: { vendorNumber: 'V-1' },
      creditScoreAccount: { creditScoreAccount: 'CS-55' },
      commissionPayment: { issueComPaymentsElectronically: true, chosenCommissionAccount: agencyId },
      commissionStructure: { chosenStructure: 'standard' },
      defaultSurplusLinesProducer: { defaultSurplusLineProducerId: agentId },
      interestContent: { mortgageeStatement: 'Loss payable to lender' },
      notices: { acceptNoticesByEmail: true, ccEmail: 'cc@summit.example', emailPrintList: 'false' },
      paymentsIssued: { issuePaymentsElectronically: false, chosenAccount: '' },
      personalInformation: { ssn: '123-45-6789', dobMonth: '5', dobDay: '6', dobYear: '1970', sameAsSsn: false },
      quotingRestriction: { followAgencyQuotingRestriction: true },
      sweepAccount: { hasSweepAccount: true, chosenSweepAccount: agencyId },
      termination: { reasonTerminated: 'none', isTerminated: false },
    });
    expect(answer.body).toMatchObject({ success: true, message: [], data: [] });

    const { body } = await aspectData(agencyId, ROLE.agency);
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      disallowE2Val: true,
      agencyInactive: false,
      agencyNumber: 'AG-100',
      agencyGroupNumber: 'GRP-7',
      naicNumber: '12345',
      producerNumber: 'P-9',
      vendorNumber: 'V-1',
      creditScoreAccount: 'CS-55',
      is1099Reportable: false,
      agencyDates: { agencyInceptionDate: '2018-03-01' },
      agencyGroup: { agencyGroupId: 'north', belongsTo: true },
      commissionPayment: { issueComPaymentsElectronically: true, chosenCommissionAccount: agencyId },
      commissionStructure: { chosenStructure: 'standard' },
      defaultSurplusLinesProducer: { defaultSurplusLineProducerId: agentId },
      interestContent: { mortgageeStatement: 'Loss payable to lender' },
      notices: { acceptNoticesByEmail: true, ccEmail: 'cc@summit.example', emailPrintList: false },
      paymentsIssued: { issuePaymentsElectronically: false },
      personalInformation: { ssn: '123-45-6789', dobYear: '1970', sameAsSsn: false },
      quotingRestriction: { followAgencyQuotingRestriction: true },
      sweepAccount: { hasSweepAccount: true, chosenSweepAccount: agencyId },
      termination: { reasonTerminated: 'none', isTerminated: false },
    });
    expect(body.data.paymentsIssued).not.toHaveProperty('chosenAccount');
    expect(typeof body.data.pagePermissionsExist).toBe('string');
    expect(body.data.agencies).toEqual([expect.objectContaining({ id: agencyId, name: 'Summit Insurance Agency' })]);
  });

  it('updates only the keys passed', async () => {
    await storeRoles({ contactId: agencyId, roleId: ROLE.agency, agencyNumber: { agencyNumber: 'AG-200' }, notices: { ccEmail: 'new@summit.example' } });
    const { body } = await aspectData(agencyId, ROLE.agency);
    expect(body.data.agencyNumber).toBe('AG-200');
    expect(body.data.naicNumber).toBe('12345');
    expect(body.data.notices).toMatchObject({ acceptNoticesByEmail: true, ccEmail: 'new@summit.example' });
    expect(body.data.termination).toEqual({ reasonTerminated: 'none', isTerminated: false });
  });

  it('refuses a termination date before the inception date and writes nothing of that call', async () => {
    const answer = await storeRoles({
      contactId: agencyId,
      roleId: ROLE.agency,
      naicNumber: { naicNumber: '99999' },
      agencyDates: {
        agencyInceptionDateYear: '2020', agencyInceptionDateMonth: '06', agencyInceptionDateDay: '01',
        agencyTerminationDateYear: '2020', agencyTerminationDateMonth: '05', agencyTerminationDateDay: '31',
      },
    });
    expect(answer.body.success).toBe(false);
    expect(answer.body.message).toHaveLength(1);
    expect(answer.body.message[0]).toMatch(/termination date 2020-05-31 is before the agency inception date 2020-06-01/);
    expect(answer.body.data).toEqual(answer.body.message);

    const { body } = await aspectData(agencyId, ROLE.agency);
    expect(body.data.naicNumber).toBe('12345');
    expect(body.data.agencyDates).toEqual({ agencyInceptionDate: '2018-03-01' });

    const againstStored = await storeRoles({
      contactId: agencyId,
      roleId: ROLE.agency,
      agencyDates: { agencyTerminationDateYear: '2017', agencyTerminationDateMonth: '1', agencyTerminationDateDay: '1' },
    });
    expect(againstStored.body.success).toBe(false);
  });

  it('answers its list of error messages in data on malformed input too', async () => {
    const answer = await storeRoles({ contactId: 'not-a-uuid', roleId: ROLE.agency, agencyInactive: 'sometimes' });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(false);
    expect(answer.body.message.length).toBeGreaterThanOrEqual(2);
    expect(answer.body.data).toEqual(answer.body.message);
  });

  it('sets up a login with a hashed password that is never returned', async () => {
    const mismatch = await storeRoles({
      contactId: agentId,
      roleId: ROLE.agent,
      loginInformation: { roleLoginUsername: 'dana.w', roleLoginPassword: 'correct horse', roleLoginRetypePassword: 'correct h0rse' },
    });
    expect(mismatch.body.success).toBe(false);
    expect(mismatch.body.message).toEqual(['loginInformation.roleLoginRetypePassword: does not match roleLoginPassword']);

    const answer = await storeRoles({
      contactId: agentId,
      roleId: ROLE.agent,
      loginInformation: {
        roleLoginUsername: 'dana.w',
        roleLoginPassword: 'correct horse',
        roleLoginRetypePassword: 'correct horse',
        roleLoginEmail: 'dana@summit.example',
        timezone: 'America/Chicago',
        roleLoginAccessLevel: ROLE.agent,
      },
    });
    expect(answer.body).toMatchObject({ success: true, message: [] });
    const credential = await getLoginCredential('Dana.W');
    expect(credential?.contactId).toBe(agentId);
    expect(credential?.passwordHash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', credential!.passwordHash)).toBe(true);

    const { body } = await aspectData(agentId, ROLE.agent);
    expect(body.data.loginInformation).toEqual({ username: 'dana.w', confirmationEmail: 'dana@summit.example', permissionLevel: ROLE.agent, timezone: 'America/Chicago' });
    expect(JSON.stringify(body)).not.toContain('correct horse');
    expect(JSON.stringify(body)).not.toContain('scrypt');

    const other = await created({ name: 'Someone Else', type: 'individual' }, 'Vendor');
    const taken = await storeRoles({
      contactId: other,
      roleId: ROLE.vendor,
      loginInformation: { roleLoginUsername: 'DANA.W', roleLoginPassword: 'another secret', roleLoginRetypePassword: 'another secret' },
    });
    expect(taken.body.success).toBe(false);
    expect(taken.body.message[0]).toMatch(/already taken/);
  });

  it('manages agencies and the default agency of an agent', async () => {
    const second = await created({ name: 'Harbor Point Agency', type: 'organization' }, 'Agency');
    const added = await storeRoles({ contactId: agentId, roleId: ROLE.agent, agencies: { toAdd: [second] }, defaultAgency: second });
    expect(added.body).toMatchObject({ success: true, message: [] });
    let data = (await aspectData(agentId, ROLE.agent)).body.data;
    expect(data.agencies.map((a: { id: string }) => a.id).sort()).toEqual([agencyId, second].sort());
    expect(data.defaultAgency).toBe(second);

    const unknown = await storeRoles({ contactId: agentId, roleId: ROLE.agent, agencies: { toAdd: [agentId] } });
    expect(unknown.body.success).toBe(false);
    expect(unknown.body.message[0]).toMatch(/agencies\.toAdd/);

    await storeRoles({ contactId: agentId, roleId: ROLE.agent, agencies: { toDelete: [second] } });
    data = (await aspectData(agentId, ROLE.agent)).body.data;
    expect(data.agencies.map((a: { id: string }) => a.id)).toEqual([agencyId]);
    expect(data.defaultAgency).toBeUndefined();
    expect((await getContact(agentId))?.agencyIds).toEqual([agencyId]);
  });

  it('adds the role to a contact that did not hold it', async () => {
    const answer = await storeRoles({ contactId: agentId, roleId: ROLE.mortgagee, interestContent: { mortgageeStatement: 'ISAOA' } });
    expect(answer.body.success).toBe(true);
    expect((await getContact(agentId))?.roleIds).toEqual([ROLE.agent, ROLE.mortgagee]);
    const found = await lookup('whitfield', 'Mortgagee', 'individual');
    expect(found.body.data.map((c: { id: string }) => c.id)).toEqual([agentId]);
  });

  it('answers every role with all, and the policies of the role once they exist', async () => {
    let data = (await aspectData(agentId, ROLE.agent)).body.data;
    expect(data.policies).toBeUndefined();
    await linkContactToPolicy(agentId, { policyId: '11111111-1111-4111-8111-111111111111', policyNumber: '10-2026-1', roleId: ROLE.agent });
    await linkContactToPolicy(agentId, { policyId: '22222222-2222-4222-8222-222222222222', policyNumber: '10-2026-2', roleId: ROLE.mortgagee });
    data = (await aspectData(agentId, ROLE.agent)).body.data;
    expect(data.policies).toEqual([expect.objectContaining({ policyId: '11111111-1111-4111-8111-111111111111', policyNumber: '10-2026-1', roleId: ROLE.agent })]);
    expect(data.associatedInfo).toEqual([expect.objectContaining({ policyNumber: '10-2026-2', roleId: ROLE.mortgagee })]);
    expect(data.interestContent).toBeUndefined();

    const all = (await aspectData(agentId, ROLE.agent, { all: 'true' })).body.data;
    expect(all.interestContent).toEqual({ mortgageeStatement: 'ISAOA' });
    expect(all.loginInformation.username).toBe('dana.w');
    expect(all.policies).toHaveLength(2);
  });

  it('requires hasPermissions to be true when called with an API key', async () => {
    const answer = await service.call('/api/v1/contacts/retrieveAspectData', { id: agencyId, roleId: ROLE.agency, hasPermissions: false });
    expect(answer.body.success).toBe(false);
    expect(answer.body.message).toEqual(['hasPermissions: must be true when calling with an API key']);
    const missing = await service.call('/api/v1/contacts/retrieveAspectData', { id: agencyId, roleId: ROLE.agency });
    expect(missing.body).toMatchObject({ success: false, message: ['hasPermissions: is required'] });
    const malformed = await service.call('/api/v1/contacts/retrieveAspectData', { id: agencyId, roleId: ROLE.agency, hasPermissions: 'maybe' });
    expect(malformed.body).toMatchObject({ success: false, message: ['hasPermissions: must be true or false'] });
  });

  it('answers an unknown contact as not found', async () => {
    const answer = await aspectData('00000000-0000-4000-8000-0000000000ff', ROLE.agency);
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(false);
    const roles = await storeRoles({ contactId: '00000000-0000-4000-8000-0000000000ff', roleId: ROLE.agency, naicNumber: { naicNumber: '1' } });
    expect(roles.body).toMatchObject({ success: false, data: ['contactId: contact 00000000-0000-4000-8000-0000000000ff was not found'] });
  });
});

describe('lookupContactByName', () => {
  it('matches any word of the name, ignoring case and accents, within the role and type', async () => {
    const renee = await created({ name: 'Renée O\'Brien Castillo', type: 'individual' }, 'Named Insured');
    const company = await created({ name: 'Castillo Brothers Construction', type: 'organization' }, 'Named Insured');
    await created({ name: 'Castillo Lending', type: 'organization' }, 'Mortgagee');

    const byLastWord = await lookup('CASTILLO', 'named insured', 'individual');
    expect(byLastWord.body.data.map((c: { id: string }) => c.id)).toEqual([renee]);
    expect((await lookup('renee', 'Named Insured', 'individual')).body.data.map((c: { id: string }) => c.id)).toEqual([renee]);
    expect((await lookup('obrien', 'Named Insured', 'individual')).body.data.map((c: { id: string }) => c.id)).toEqual([renee]);
    expect((await lookup('castillo bro', 'Named Insured', 'organization')).body.data.map((c: { id: string }) => c.id)).toEqual([company]);
    expect((await lookup('castillo', 'Named Insured', 'Organization')).body.data.map((c: { id: string }) => c.id)).toEqual([company]);
    expect((await lookup('zzz', 'Named Insured', 'individual')).body.data).toEqual([]);

    const badRole = await lookup('castillo', 'Pilot', 'individual');
    expect(badRole.body).toMatchObject({ success: false, message: ['role: no role named "Pilot"'] });
    const badType = await lookup('castillo', 'Named Insured', 'robot');
    expect(badType.body.success).toBe(false);
    expect(badType.body.message[0]).toMatch(/^role_type:/);
  });
});

describe('retrieveContactList', () => {
  it('searches names within a role and pages the answer', async () => {
    const ids = [];
    for (const name of ['Quincy Adams', 'Quinn Baker', 'Quimby Carter']) ids.push(await created({ name, type: 'individual' }, 'Mortgagee'));
    const page1 = await list({ searchString: 'qui', filter: 'Mortgagee', currentPage: '1', pageSize: '2' });
    expect(page1.body).toMatchObject({ success: true, activePage: 1, maxPages: 2, maxRecords: 3 });
    expect(page1.body.records.map((r: { details: { name: string } }) => r.details.name)).toEqual(['Quimby Carter', 'Quincy Adams']);
    const page2 = await list({ searchString: 'QUI', filter: 'Mortgagee', currentPage: 2, pageSize: 2 });
    expect(page2.body.records.map((r: { details: { name: string } }) => r.details.name)).toEqual(['Quinn Baker']);
    const unknown = await list({ searchString: '', filter: 'Pilot', currentPage: '1', pageSize: '2' });
    expect(unknown.body.success).toBe(false);
    const tooBig = await list({ searchString: '', filter: 'Mortgagee', currentPage: '1', pageSize: '10001' });
    expect(tooBig.body.success).toBe(false);
    expect(tooBig.body.message[0]).toMatch(/^pageSize:/);
    const notNumber = await list({ searchString: '', filter: 'Mortgagee', currentPage: 'one', pageSize: '2' });
    expect(notNumber.body.message[0]).toMatch(/^currentPage:/);
  });

  it('says which paging field is missing or not a whole number', async () => {
    const missing = await list({ searchString: '', filter: 'Mortgagee' });
    expect(missing.body).toMatchObject({ success: false, message: ['currentPage: is required', 'pageSize: is required'] });
    const malformed = await list({ searchString: '', filter: 'Mortgagee', currentPage: 'one', pageSize: 2.5 });
    expect(malformed.body.message).toEqual(['currentPage: must be a whole number', 'pageSize: must be a whole number']);
  });
});

describe('what an agent reaches', () => {
  let northAgency: string;
  let southAgency: string;
  let northAgentKey: string;
  let southInsured: string;
  let northInsured: string;

  beforeAll(async () => {
    northAgency = await created({ name: 'North Shore Agency', type: 'organization' }, 'Agency');
    southAgency = await created({ name: 'South Bay Agency', type: 'organization' }, 'Agency');
    const northAgent = await created({ name: 'Nora Northcott', type: 'individual', agencyId: northAgency }, 'Agent');
    northAgentKey = (await createApiKey(northAgent, 'north agent')).apiKey;
    northInsured = await created({ name: 'Ned Reachable', type: 'individual', agencyId: northAgency }, 'Named Insured');
    southInsured = await created({ name: 'Sam Unreachable', type: 'individual', agencyId: southAgency }, 'Named Insured');
  });

  it("does not see another agency's contact", async () => {
    const other = await aspectData(southInsured, ROLE.namedInsured, {}, northAgentKey);
    expect(other.status).toBe(200);
    expect(other.body.success).toBe(false);
    expect(other.body.message[0]).toMatch(/not found/);
    const own = await aspectData(northInsured, ROLE.namedInsured, {}, northAgentKey);
    expect(own.body.success).toBe(true);

    expect((await lookup('unreachable', 'Named Insured', 'individual', northAgentKey)).body.data).toEqual([]);
    expect((await lookup('reachable', 'Named Insured', 'individual', northAgentKey)).body.data.map((c: { id: string }) => c.id)).toEqual([northInsured]);

    const listed = await list({ searchString: '', filter: 'Named Insured', currentPage: 1, pageSize: 100 }, northAgentKey);
    expect(listed.body.records.map((r: { id: string }) => r.id)).toEqual([northInsured]);
    expect(listed.body.maxRecords).toBe(1);
    const searched = await list({ searchString: 'sam', filter: 'Named Insured', currentPage: 1, pageSize: 100 }, northAgentKey);
    expect(searched.body.records).toEqual([]);
  });

  it("cannot change another agency's contact, nor attach one to another agency", async () => {
    const change = await storeRoles({ contactId: southInsured, roleId: ROLE.namedInsured, termination: { isTerminated: true } }, northAgentKey);
    expect(change.body.success).toBe(false);
    expect(change.body.message[0]).toMatch(/not found/);
    const attach = await storeRoles({ contactId: northInsured, roleId: ROLE.namedInsured, agencies: { toAdd: [southAgency] } }, northAgentKey);
    expect(attach.body.success).toBe(false);
    const create = await newContact({ name: 'Sneaky', type: 'individual', agencyId: southAgency }, 'Named Insured', northAgentKey);
    expect(create.success).toBe(false);
  });

  it('attaches the contacts it creates to its agency, and may not give roles beyond its own', async () => {
    const id = await created({ name: 'Nadia Newcomer', type: 'individual' }, 'Named Insured', northAgentKey);
    expect((await getContact(id))?.agencyIds).toEqual([northAgency]);
    expect((await aspectData(id, ROLE.namedInsured, {}, northAgentKey)).body.success).toBe(true);

    const admin = await newContact({ name: 'Power Grab', type: 'individual' }, 'Administrator', northAgentKey);
    expect(admin).toMatchObject({ success: false, message: ['role: you may not give the Administrator role'] });
    const escalate = await storeRoles({ contactId: id, roleId: ROLE.administrator }, northAgentKey);
    expect(escalate.body.success).toBe(false);
  });
});
