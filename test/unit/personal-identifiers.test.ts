import { describe, expect, it } from 'vitest';
import {
  identifierContext,
  isSealed,
  maskIdentifier,
  openIdentifier,
  revealFields,
  sealAspects,
  sealFields,
  sealIdentifier,
  seesIdentifiersInFull,
} from '../../shared/contacts/personal-identifiers.js';
import { ADMINISTRATOR_ROLE_ID, AGENT_ROLE_ID, UNDERWRITER_ROLE_ID } from '../../shared/contacts/roles.js';
import { seal, unseal } from '../../shared/platform/sealing.js';

const context = (field: string) => identifierContext('c-1', field);

describe('sealing', () => {
  it('opens only with the context it was sealed for, and never holds the clear value', () => {
    const sealed = seal('123-45-6789', 'contact:c-1:ssn');
    expect(sealed).not.toContain('6789');
    expect(unseal(sealed, 'contact:c-1:ssn')).toBe('123-45-6789');
    expect(unseal(sealed, 'contact:c-2:ssn')).toBeUndefined();
    expect(seal('123-45-6789', 'contact:c-1:ssn')).not.toBe(sealed);
  });

  it('seals an identifier once, and reads a sealed or a clear one', () => {
    const sealed = sealIdentifier('123-45-6789', context('ssn'));
    expect(isSealed(sealed)).toBe(true);
    expect(sealIdentifier(sealed, context('ssn'))).toBe(sealed);
    expect(openIdentifier(sealed, context('ssn'))).toBe('123-45-6789');
    expect(openIdentifier('123-45-6789', context('ssn'))).toBe('123-45-6789');
  });
});

describe('masking', () => {
  it('shows the last four of an SSN, in the one documented form whatever form it was given in', () => {
    expect(maskIdentifier('ssn', '123-45-6789')).toBe('***-**-6789');
    expect(maskIdentifier('ssn', '123456789')).toBe('***-**-6789');
  });

  it('keeps the separators of a tax id or a licence and shows their last four', () => {
    expect(maskIdentifier('feinTaxId', '12-3456789')).toBe('**-***6789');
    expect(maskIdentifier('driversLicense', 'D1234-5678')).toBe('*****-5678');
  });

  it('masks a value of four characters or fewer whole', () => {
    expect(maskIdentifier('ssn', '6789')).toBe('****');
    expect(maskIdentifier('driversLicense', 'A1')).toBe('****');
  });
});

describe('who sees identifiers in full', () => {
  it('is Administrators and Underwriters', () => {
    expect(seesIdentifiersInFull({ isAdministrator: true, roleIds: [ADMINISTRATOR_ROLE_ID] })).toBe(true);
    expect(seesIdentifiersInFull({ isAdministrator: false, roleIds: [UNDERWRITER_ROLE_ID] })).toBe(true);
    expect(seesIdentifiersInFull({ isAdministrator: false, roleIds: [AGENT_ROLE_ID] })).toBe(false);
  });
});

describe('records', () => {
  it('seal the named fields of a record and leave the others', () => {
    const sealed = sealFields({ ssn: '123-45-6789', dba: 'Pat', feinTaxId: '' }, ['ssn', 'feinTaxId'], context);
    expect(isSealed(sealed.ssn)).toBe(true);
    expect(sealed).toMatchObject({ dba: 'Pat', feinTaxId: '' });
    expect(revealFields(sealed, ['ssn'], context, true)).toEqual({ ssn: '123-45-6789', dba: 'Pat', feinTaxId: '' });
    expect(revealFields(sealed, ['ssn'], context, false)).toEqual({ ssn: '***-**-6789', dba: 'Pat', feinTaxId: '' });
  });

  it('show an identifier that cannot be opened (another contact, another key) as null', () => {
    const elsewhere = sealFields({ ssn: '123-45-6789' }, ['ssn'], (field) => identifierContext('c-2', field));
    expect(revealFields(elsewhere, ['ssn'], context, true)).toEqual({ ssn: null });
  });

  it("seal the personalInformation identifiers of a role's aspects", () => {
    const aspects = sealAspects('c-1', { personalInformation: { ssn: '123-45-6789', driversLicense: 'D1', ssnGroup: 'g' }, notices: { ccEmail: 'x' } });
    const personal = aspects.personalInformation as Record<string, string>;
    expect(isSealed(personal.ssn) && isSealed(personal.driversLicense)).toBe(true);
    expect(personal.ssnGroup).toBe('g');
    expect(aspects.notices).toEqual({ ccEmail: 'x' });
  });
});
