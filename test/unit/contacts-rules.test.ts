import { describe, expect, it } from 'vitest';
import { planStoreRoles, renderAspectData, type AgencyFacts } from '../../shared/contacts/aspects.js';
import { normalizeContactContent } from '../../shared/contacts/content.js';
import { indexItems, planIndexChange } from '../../shared/contacts/index-store.js';
import type { ContactRecord } from '../../shared/contacts/model.js';
import { indexedWords, matchesSearch, MAX_INDEXED_WORDS, nameWords, sortName } from '../../shared/contacts/names.js';
import { ADMINISTRATOR_ROLE_ID, AGENT_ROLE_ID, findRole, mayGrantRole, NAMED_INSURED_ROLE_ID, roleAboveCaller } from '../../shared/contacts/roles.js';
import { contactContentSchema } from '../../shared/contacts/schemas.js';
import { retrieveContactListInput } from '../../functions/v1/contacts/retrieveContactList.js';
import { storeRolesInput } from '../../functions/v1/contacts/storeRoles.js';
import roles from '../../shared/catalog/carrier/roles.json' with { type: 'json' };
import type { Role } from '../../shared/catalog/model.js';

const catalog = roles.roles as Role[];
const ids = () => {
  let n = 0;
  return () => `id-${(n += 1)}`;
};
const content = (input: Record<string, unknown>) => normalizeContactContent(contactContentSchema().parse(input), ids());

describe('name search', () => {
  it('folds case, accents and apostrophes and splits on anything else', () => {
    expect(nameWords("  Renée O'Brien-CASTILLO, Jr. ")).toEqual(['renee', 'obrien', 'castillo', 'jr']);
    expect(sortName('Renée  Castillo')).toBe('renee castillo');
  });

  it('matches when every searched word begins a word of the name', () => {
    const words = nameWords('Castillo Brothers Construction');
    expect(matchesSearch(words, ['bro', 'cast'])).toBe(true);
    expect(matchesSearch(words, ['bro', 'smith'])).toBe(false);
  });

  it('indexes a bounded number of distinct words', () => {
    expect(indexedWords('a b c d e f g h i j k')).toHaveLength(MAX_INDEXED_WORDS);
    expect(indexedWords('Smith Smith')).toEqual(['smith']);
  });
});

describe('storeNewContact content', () => {
  it('reads dates from parts or whole, and the aliases of lists and keys', () => {
    const result = content({
      name: 'A B',
      type: 'Individual',
      dobYear: '1980', dobMonth: '4', dobDay: '3',
      dbs: '03/15/1999',
      agencyInceptionDate: '2020-01-01',
      agencyTerminationDateYear: 2021, agencyTerminationDateMonth: 1, agencyTerminationDateDay: 1,
      feinTax: '12',
      emails: [{ email: 'a@b.c', type: 'Work' }],
      phones: [{ type: 'Cell', email: '555 1234' }],
      addresses: [{ addressLine1: '1 Main', addressCity: 'X', addressState: 'IL', addressZip: 62701, type: 'Home' }],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({
      type: 'individual',
      agencyInceptionDate: '2020-01-01',
      agencyTerminationDate: '2021-01-01',
      details: { dob: '1980-04-03', dateBusinessStarted: '1999-03-15', feinTaxId: '12' },
      emailAddresses: [{ email: 'a@b.c', emailType: 'Work' }],
      phoneNumbers: [{ phone: '555 1234', phoneType: 'Cell' }],
      addresses: [{ addressLine1: '1 Main', addressZip: '62701', addressCountry: 'USA', addressType: 'Home' }],
    });
  });

  it('names every missing or malformed field', () => {
    const result = content({ dobYear: '1980', dob: 'yesterday', agencyInceptionDate: '2022-02-02', agencyTerminationDate: '2022-02-01', addresses: [{ addressCountry: 'France' }] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.messages).toEqual([
      'content.name: is required',
      'content.type: is required (individual or organization)',
      'content.dob: "yesterday" is not a date (expected YYYY-MM-DD)',
      'content.agencyTerminationDate: the agency termination date 2022-02-01 is before the agency inception date 2022-02-02',
      'content.addresses.0.addressLine1: is required',
      'content.addresses.0.addressCity: is required',
    ]);
  });

  it('does not require a state or zip outside the USA and Canada', () => {
    expect(content({ name: 'X', type: 'organization', addresses: [{ addressLine1: '1 Rue', addressCityOther: 'Paris', addressCountry: 'France' }] }).ok).toBe(true);
    expect(content({ name: 'X', type: 'organization', addresses: [{ addressLine1: '1 Rue', addressCity: 'Toronto', addressCountry: 'Canada' }] }).ok).toBe(false);
  });
});

const contact = (overrides: Partial<ContactRecord> = {}): ContactRecord => ({
  id: 'c1', name: 'Jane Smith', type: 'individual', roleIds: ['agent'], agencyIds: ['g1'], createdAt: '2026-01-01T00:00:00Z', version: 3, ...overrides,
});
const facts = (overrides: Partial<AgencyFacts> = {}): AgencyFacts => ({ existingAgencies: new Set(['g1', 'g2']), mayAttach: () => true, isAgency: false, terminatedInOtherRoles: false, ...overrides });
const rolesInput = (input: Record<string, unknown>) => storeRolesInput().parse({ contactId: '6a1f0c2e-1111-4222-8333-944455556666', roleId: '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc', ...input });

describe('storeRoles plan', () => {
  it('refuses a termination before the inception, also against the stored inception', () => {
    const late = planStoreRoles(rolesInput({ agencyDates: { agencyTerminationDateYear: '2019', agencyTerminationDateMonth: '12', agencyTerminationDateDay: '31' } }), contact({ agencyInceptionDate: '2020-01-01' }), {}, facts());
    expect(late).toEqual({ ok: false, messages: ['agencyDates: the agency termination date 2019-12-31 is before the agency inception date 2020-01-01'] });
    const same = planStoreRoles(rolesInput({ agencyDates: { agencyTerminationDateYear: '2020', agencyTerminationDateMonth: '1', agencyTerminationDateDay: '1' } }), contact({ agencyInceptionDate: '2020-01-01' }), {}, facts());
    expect(same.ok).toBe(true);
  });

  it('merges the sub-keys passed and leaves the rest', () => {
    const plan = planStoreRoles(rolesInput({ notices: { ccEmail: 'x@y.z' }, naicNumber: { naicNumber: '7' } }), contact(), { notices: { acceptNoticesByEmail: true }, vendorNumber: 'V' }, facts());
    expect(plan.ok && plan.aspects).toEqual({ notices: { acceptNoticesByEmail: true, ccEmail: 'x@y.z' }, naicNumber: '7', vendorNumber: 'V' });
  });

  it('keeps the notices-by-e-mail preference on the contact, where deliverables read it; cleared by null, untouched when not passed', () => {
    const byEmail = planStoreRoles(rolesInput({ notices: { acceptNoticesByEmail: true } }), contact(), {}, facts());
    expect(byEmail.ok && byEmail.contact.acceptNoticesByEmail).toBe(true);
    const paper = planStoreRoles(rolesInput({ notices: { acceptNoticesByEmail: false } }), contact({ acceptNoticesByEmail: true }), {}, facts());
    expect(paper.ok && paper.contact.acceptNoticesByEmail).toBe(false);
    const untouched = planStoreRoles(rolesInput({ notices: { ccEmail: 'x@y.z' } }), contact({ acceptNoticesByEmail: true }), {}, facts());
    expect(untouched.ok && untouched.contact.acceptNoticesByEmail).toBe(true);
    const cleared = planStoreRoles(rolesInput({ notices: { acceptNoticesByEmail: null } }), contact({ acceptNoticesByEmail: true }), {}, facts());
    expect(cleared.ok && cleared.contact).not.toHaveProperty('acceptNoticesByEmail');
  });

  it('changes agencies only to ones that exist and the caller reaches, keeping an agency in itself', () => {
    expect(planStoreRoles(rolesInput({ agencies: { toAdd: ['6a1f0c2e-1111-4222-8333-944455550000'] } }), contact(), {}, facts()).ok).toBe(false);
    const outOfReach = planStoreRoles(rolesInput({ agencies: { toAdd: ['6a1f0c2e-1111-4222-8333-944455550000'] } }), contact(), {}, facts({ existingAgencies: new Set(['6a1f0c2e-1111-4222-8333-944455550000']), mayAttach: () => false }));
    expect(outOfReach.ok).toBe(false);
    const agency = contact({ id: '6a1f0c2e-1111-4222-8333-944455551111', agencyIds: ['6a1f0c2e-1111-4222-8333-944455551111'] });
    const self = planStoreRoles(rolesInput({ agencies: { toDelete: [agency.id] } }), agency, {}, facts({ isAgency: true }));
    expect(self.ok).toBe(false);
  });

  it('requires matching passwords of enough length, and a username for a first login', () => {
    const mismatch = planStoreRoles(rolesInput({ loginInformation: { roleLoginUsername: 'jane', roleLoginPassword: 'abcdefgh', roleLoginRetypePassword: 'abcdefgx' } }), contact(), {}, facts());
    expect(mismatch).toEqual({ ok: false, messages: ['loginInformation.roleLoginRetypePassword: does not match roleLoginPassword'] });
    const short = planStoreRoles(rolesInput({ loginInformation: { roleLoginUsername: 'jane', roleLoginPassword: 'abc', roleLoginRetypePassword: 'abc' } }), contact(), {}, facts());
    expect(short.ok).toBe(false);
    const noName = planStoreRoles(rolesInput({ loginInformation: { roleLoginPassword: 'abcdefgh', roleLoginRetypePassword: 'abcdefgh' } }), contact(), {}, facts());
    expect(noName.ok).toBe(false);
    const ok = planStoreRoles(rolesInput({ loginInformation: { roleLoginUsername: 'jane', roleLoginPassword: 'abcdefgh', roleLoginRetypePassword: 'abcdefgh', roleLoginEmail: 'j@x.y' } }), contact(), {}, facts());
    expect(ok.ok && ok.login).toEqual({ username: 'jane', password: 'abcdefgh', login: { username: 'jane', confirmationEmail: 'j@x.y' } });
    expect(ok.ok && JSON.stringify(ok.contact)).not.toContain('abcdefgh');
  });
});

describe('aspect data', () => {
  it('answers the defaults, the role aspects, and splits policies by role', () => {
    const data = renderAspectData({
      contact: contact({ agencyInceptionDate: '2020-01-01', login: { username: 'jane', accessLevel: 'agent' } }),
      roleId: 'agent',
      aspectsByRole: new Map([['agent', { producerNumber: 'P1' }], ['mortgagee', { interestContent: { mortgageeStatement: 'm' } }]]),
      all: false,
      links: [{ policyId: 'p1', roleId: 'agent' }, { policyId: 'p2', roleId: 'mortgagee' }],
      agencyNames: new Map([['g1', 'Agency One']]),
    });
    expect(data).toEqual({
      disallowE2Val: false,
      agencyInactive: false,
      paycommissionto: 'c1',
      pagePermissionsExist: 'true',
      creditScoreAccountEnabled: false,
      is1099Reportable: false,
      producerNumber: 'P1',
      policies: [{ policyId: 'p1', roleId: 'agent' }],
      associatedInfo: [{ policyId: 'p2', roleId: 'mortgagee' }],
      agencyDates: { agencyInceptionDate: '2020-01-01' },
      agencies: [{ id: 'g1', name: 'Agency One', isDefault: false }],
      loginInformation: { username: 'jane', permissionLevel: 'agent' },
    });
  });
});

describe('index plan', () => {
  const base = { id: 'c1', name: 'Jane Smith', type: 'individual' as const, roleIds: ['r1'], agencyIds: ['g1'] };

  it('indexes each word once for every contact (gsi1) and the first role (gsi3), the listings riding on those items', () => {
    const items = indexItems(base);
    expect(items.map((item) => item.sk)).toEqual(['INDEX#WORD#ANY#jane', 'INDEX#WORD#ANY#smith', 'INDEX#LIST#r1#ALL', 'INDEX#LIST#r1#AGENCY#g1']);
    expect(items.filter((item) => item.gsi1pk).map((item) => `${item.gsi1pk} ${item.gsi1sk}`)).toEqual(['CWORD#ANY jane#c1', 'CWORD#ANY smith#c1']);
    expect(items.filter((item) => item.gsi3pk).map((item) => `${item.gsi3pk} ${item.gsi3sk}`)).toEqual(['CWORD#r1 jane#c1', 'CWORD#r1 smith#c1']);
    expect(items.filter((item) => item.gsi2pk).map((item) => item.gsi2pk)).toEqual(['CLIST#ANY#ALL', 'CLIST#ANY#AGENCY#g1', 'CLIST#r1#ALL', 'CLIST#r1#AGENCY#g1']);
  });

  it("indexes a further role's words on gsi1, and a name without words by listing items alone", () => {
    const twoRoles = indexItems({ ...base, roleIds: ['r1', 'r2'], agencyIds: [] });
    expect(twoRoles.filter((item) => item.gsi1pk).map((item) => `${item.gsi1pk} ${item.gsi1sk}`)).toEqual([
      'CWORD#ANY jane#c1', 'CWORD#ANY smith#c1', 'CWORD#r2 jane#c1', 'CWORD#r2 smith#c1',
    ]);
    expect(twoRoles.filter((item) => item.gsi2pk).map((item) => item.gsi2pk)).toEqual(['CLIST#ANY#ALL', 'CLIST#r1#ALL', 'CLIST#r2#ALL']);
    expect(twoRoles).toHaveLength(4);
    expect(indexItems({ ...base, name: '...', agencyIds: [] }).map((item) => `${item.sk} ${item.gsi2pk}`)).toEqual([
      'INDEX#LIST#ANY#ALL CLIST#ANY#ALL', 'INDEX#LIST#r1#ALL CLIST#r1#ALL',
    ]);
  });

  it('moves counters by exactly the listings gained and lost', () => {
    const plan = planIndexChange(base, { ...base, agencyIds: ['g2'] });
    expect(plan.counters).toEqual([
      { key: { pk: 'CONTACTCOUNT#ANY#AGENCY#g2', sk: 'COUNT' }, delta: 1 },
      { key: { pk: 'CONTACTCOUNT#r1#AGENCY#g2', sk: 'COUNT' }, delta: 1 },
      { key: { pk: 'CONTACTCOUNT#ANY#AGENCY#g1', sk: 'COUNT' }, delta: -1 },
      { key: { pk: 'CONTACTCOUNT#r1#AGENCY#g1', sk: 'COUNT' }, delta: -1 },
    ]);
    // Every item is rewritten; what the contact had before, in either layout, and has no more is deleted.
    expect(plan.puts.map((item) => item.sk)).toEqual(['INDEX#WORD#ANY#jane', 'INDEX#WORD#ANY#smith', 'INDEX#LIST#r1#ALL', 'INDEX#LIST#r1#AGENCY#g2']);
    expect(plan.deletes.map((key) => key.sk)).toEqual([
      'INDEX#LIST#r1#AGENCY#g1', 'INDEX#WORD#r1#jane', 'INDEX#WORD#r1#smith', 'INDEX#LIST#ANY#ALL', 'INDEX#LIST#ANY#AGENCY#g1',
    ]);
    expect(planIndexChange(base, base)).toEqual({ puts: [], deletes: [], counters: [] });
  });
});

describe('roles', () => {
  const agent = { isAdministrator: false, scope: 'agency' as const, permissions: new Set(catalog.find((r) => r.name === 'Agent')!.permissions) };

  it('finds a role by name in any case, or by id', () => {
    expect(findRole(catalog, ' named insured ')?.id).toBe('8626b373-c54d-498a-82bf-fd2d2f32b746');
    expect(findRole(catalog, '8626B373-C54D-498A-82BF-FD2D2F32B746')?.name).toBe('Named Insured');
    expect(findRole(catalog, 'Pilot')).toBeUndefined();
  });

  it('lets an agent give the customer-side roles only', () => {
    const grantable = catalog.filter((role) => mayGrantRole(agent, role)).map((role) => role.name);
    expect(grantable.sort()).toEqual(['Additional Interest', 'Finance Company', 'Mortgagee', 'Named Insured']);
  });

  it('lets an underwriter give every role but Administrator and the claims roles (which work claims he cannot), and nobody give more than they hold', () => {
    const underwriterRole = catalog.find((r) => r.name === 'Underwriter')!;
    const underwriter = { isAdministrator: false, scope: 'all' as const, permissions: new Set(underwriterRole.permissions) };
    expect(catalog.filter((role) => !mayGrantRole(underwriter, role)).map((role) => role.name)).toEqual(['Administrator', 'Claims Adjuster', 'Claims Manager']);
    const insured = { isAdministrator: false, scope: 'own' as const, permissions: new Set(['policies:read']) };
    expect(mayGrantRole(insured, findRole(catalog, 'Agent')!)).toBe(false);
    expect(mayGrantRole(insured, findRole(catalog, 'Mortgagee')!)).toBe(true);
  });

  it('finds the role that puts a contact above the caller', () => {
    expect(roleAboveCaller(agent, catalog, [AGENT_ROLE_ID, NAMED_INSURED_ROLE_ID])?.name).toBe('Agent');
    expect(roleAboveCaller(agent, catalog, [ADMINISTRATOR_ROLE_ID])?.name).toBe('Administrator');
    expect(roleAboveCaller(agent, catalog, [NAMED_INSURED_ROLE_ID, 'not-a-role'])).toBeUndefined();
  });
});

describe('retrieveContactList paging parameters', () => {
  it('reads pages as strings or integers, up to 10000', () => {
    expect(retrieveContactListInput().parse({ searchString: '', filter: 'x', currentPage: '2', pageSize: 10000 })).toMatchObject({ currentPage: 2, pageSize: 10000 });
    expect(retrieveContactListInput().safeParse({ searchString: '', filter: 'x', currentPage: '0', pageSize: '5' }).success).toBe(false);
    expect(retrieveContactListInput().safeParse({ searchString: '', filter: 'x', currentPage: '1', pageSize: '10001' }).success).toBe(false);
  });
});
