/**
 * A claim's letters without any server: which letters a claim's move asks for, what they say by
 * the product's claims rules (New York's and Florida's wording, Florida's Homeowner Claims Bill
 * of Rights), and the PDF a reader gets (its text as pdftotext reads it).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { ClaimsRules } from '../../shared/catalog/index.js';
import referenceRules from '../../shared/catalog/reference/claims-rules.json' with { type: 'json' };
import { validatePackage } from '../../shared/catalog/package-validation.js';
import { referencePackageDocument } from '../../shared/catalog/reference-package.js';
import { DEFAULT_CARRIER } from '../../shared/documents/assemble.js';
import { claimLetterFacts, lettersOfClaimMove } from '../../shared/documents/claim-letter-moves.js';
import { claimLetterDetails, claimLetterDocument } from '../../shared/documents/claim-letters.js';
import type { ClaimLetterType, ClaimOfLetter } from '../../shared/documents/model.js';
import { renderClaimLetter } from '../../shared/documents/render/claim-letter.js';

const rules = referenceRules as ClaimsRules;

const claim = (over: Partial<ClaimOfLetter> = {}): ClaimOfLetter => ({
  claimId: 'c1',
  claimNumber: 'CL-2026-1',
  policyId: 'p1',
  policyNumber: '10-2026-1',
  agencyId: null,
  contactIds: [],
  insuredContactId: null,
  insuredName: 'Pat Example',
  state: 'NY',
  lossDate: '2026-08-30',
  reportedDate: '2026-09-01',
  perilCode: 'WTR',
  description: 'A pipe burst in the kitchen',
  lossAddress: { line1: '42 Maple Avenue', line2: '', city: 'New York', state: 'NY', zip: '10001' },
  coverage: { revisionId: 'r1' },
  status: 'open',
  statusHistory: [{ status: 'open', reason: null }],
  denial: null,
  ...over,
});

const at = '2026-09-10T12:00:00.000Z';
const move = (kind: string, before: ClaimOfLetter | undefined, after: ClaimOfLetter, reason: string | null = null) => ({ kind, at, reason, before: before ? { claim: before } : undefined, after: { claim: after } });

function pagesOf(pdf: Uint8Array): string[] {
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: Buffer.from(pdf) }).toString('utf8').split('\f').slice(0, -1);
}

async function rendered(type: ClaimLetterType, of: ClaimOfLetter, reason: string | null = null) {
  const details = claimLetterDetails(type, claimLetterFacts(type, of, reason), rules);
  return pagesOf(await renderClaimLetter(claimLetterDocument(type, details, { policyNumber: of.policyNumber, carrier: DEFAULT_CARRIER, issueDate: '2026-09-10' })));
}

describe('the letters a claim move asks for', () => {
  it('asks the acknowledgement of a report, a denial letter of a denial, the closing letter of a close, a reservation of rights of that move', () => {
    const open = claim();
    expect(lettersOfClaimMove(move('reported', undefined, open))).toEqual(['Claim Acknowledgement']);
    expect(lettersOfClaimMove(move('denied', open, claim({ denial: { reason: 'Wear and tear', at } })))).toEqual(['Denial']);
    const closed = claim({ status: 'closed', statusHistory: [{ status: 'open', reason: null }, { status: 'closed', reason: 'Paid in full' }] });
    expect(lettersOfClaimMove(move('closed', open, closed))).toEqual(['Closing']);
    // Denied and closed in one change: the denial says it all.
    expect(lettersOfClaimMove(move('closed', open, { ...closed, denial: { reason: 'Wear and tear', at } }))).toEqual(['Denial']);
    expect(lettersOfClaimMove(move('reservation_of_rights', open, open, 'Late notice'))).toEqual(['Reservation of Rights']);
    // Other changes ask for none; a denial recorded before this move is no new denial.
    expect(lettersOfClaimMove(move('updated', open, { ...open, description: 'Two pipes' }))).toEqual([]);
    const deniedEarlier = claim({ denial: { reason: 'Wear and tear', at: '2026-09-01T00:00:00.000Z' } });
    expect(lettersOfClaimMove(move('updated', deniedEarlier, { ...deniedEarlier, description: 'Two pipes' }))).toEqual([]);
  });
});

describe('what a letter says', () => {
  it("acknowledges a New York claim in New York's wording, with its number and particulars", async () => {
    const [first, ...more] = await rendered('Claim Acknowledgement', claim());
    expect(more).toEqual([]);
    const flat = first.replace(/\s+/g, ' ');
    expect(flat).toContain('Claim Number CL-2026-1');
    expect(flat).toContain('As New York regulation 64 requires, we acknowledge it and begin our investigation within 15 business days.');
    expect(flat).toContain('Dear Pat Example,');
    expect(first).toContain('Water Damage');
    expect(first).toContain('08/30/2026');
    expect(first).toContain('10-2026-1');
  });

  it("acknowledges a Florida claim in Florida's wording, the Homeowner Claims Bill of Rights on a page of its own", async () => {
    const pages = await rendered('Claim Acknowledgement', claim({ state: 'FL', lossAddress: { line1: '1 Ocean Drive', line2: '', city: 'Miami', state: 'FL', zip: '33101' } }));
    expect(pages).toHaveLength(2);
    expect(pages[0].replace(/\s+/g, ' ')).toContain('acknowledge it within 7 days, as Florida law requires');
    expect(pages[0]).toContain('Enclosed: Florida Homeowner Claims Bill of Rights');
    const bill = pages[1].replace(/\s+/g, ' ');
    expect(bill).toContain('Florida Homeowner Claims Bill of Rights');
    expect(bill).toContain('YOU HAVE THE RIGHT TO:');
    expect(bill).toContain('acknowledgment of your reported claim within 7 days');
    expect(bill).toContain('1-877-693-5236');
    expect(bill).toContain('Page 2 of 2');
  });

  it('acknowledges a claim of a state without wording of its own in the default words', async () => {
    const [first] = await rendered('Claim Acknowledgement', claim({ state: 'TX' }));
    expect(first.replace(/\s+/g, ' ')).toContain('We received notice of your claim on 09/01/2026 and have begun our review of it.');
  });

  it('gives the denial its reason, the closing letter the reason it closed, the reservation of rights its reason', async () => {
    const denial = (await rendered('Denial', claim({ denial: { reason: 'Gradual seepage over months is excluded', at } }))).join('\n');
    expect(denial).toContain('Reason for the denial');
    expect(denial).toContain('Gradual seepage over months is excluded');
    const closing = (await rendered('Closing', claim({ status: 'closed', statusHistory: [{ status: 'closed', reason: 'Paid in full' }] }))).join('\n');
    expect(closing).toContain('We have closed claim CL-2026-1');
    expect(closing).toContain('Paid in full');
    const reservation = (await rendered('Reservation of Rights', claim(), 'The loss was reported five months late')).join('\n');
    expect(reservation).toContain('reservation of rights');
    expect(reservation).toContain('The loss was reported five months late');
  });

  it('refuses an acknowledgement whose state attaches a text the rules do not give', () => {
    const broken = { ...rules, attachmentTexts: [] };
    expect(() => claimLetterDetails('Claim Acknowledgement', claimLetterFacts('Claim Acknowledgement', claim({ state: 'FL' }), null), broken)).toThrow(/Florida Homeowner Claims Bill of Rights .*no text/);
  });
});

describe('the claims rules as package data', () => {
  it('refuse a package whose letter attaches a text it does not give', () => {
    const document = referencePackageDocument();
    expect(validatePackage(document, () => []).problems.filter((problem) => problem.file === 'claims-rules.json')).toEqual([]);
    const without = { ...document, 'claims-rules.json': { ...(document['claims-rules.json'] as ClaimsRules), attachmentTexts: [] } };
    expect(validatePackage(without, () => []).problems).toEqual(expect.arrayContaining([expect.objectContaining({ file: 'claims-rules.json', path: 'letters.0.attachments.0', problem: expect.stringMatching(/no text of Florida Homeowner Claims Bill of Rights/) })]));
  });
});
