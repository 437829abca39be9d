/**
 * What a claim's letter says, pure: its wording (the state's where the claims rules give one),
 * the attachments that go with it, and the document it prints once the carrier and the addressee
 * are known. Read when the letter is rendered (the documents consumer, create_deliverable), never
 * by a claim's move, which records the letter's facts alone (claim-letter-moves.ts). No I/O;
 * unit-tested (test/unit/claim-letters.test.ts).
 */
import type { ClaimsRules } from '../catalog/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import { formatDocumentDate, formatMoney } from './format.js';
import type { Carrier, ClaimLetterDetails, ClaimLetterDocument, ClaimLetterFacts, ClaimLetterType, MailingAddress, NamedInsured, Producer } from './model.js';

const usDate = formatDocumentDate;

function paragraphsOf(type: ClaimLetterType, claim: ClaimLetterFacts, stateWording: string | undefined): string[] {
  const loss = `your loss of ${usDate(claim.lossDate)}`;
  switch (type) {
    case 'Claim Acknowledgement':
      return [
        stateWording ?? `We received notice of your claim on ${usDate(claim.reportedDate)} and have begun our review of it.`,
        `Your claim number is ${claim.claimNumber}: please quote it whenever you write or call us. An adjuster will contact you about ${loss} and tell you what we need from you to settle it.`,
        'Please keep the receipts for any emergency repairs and additional living expenses, and photographs of the damage before and after any repairs.',
      ];
    case 'Closing':
      return [`We have closed claim ${claim.claimNumber} for ${loss}.`, 'If you have new information about this loss, please contact us with the claim number: a closed claim can be reopened.'];
    case 'Denial':
      return [
        `We have completed our review of claim ${claim.claimNumber} for ${loss}. We regret that we are unable to pay your claim, for the reason given below.`,
        'If you have information that could change this decision, please send it to us with the claim number. Nothing in this letter waives any of the terms of your policy, or any of your rights or ours under it.',
      ];
    case 'Claim Payment': {
      const payment = claim.payment;
      if (!payment) throw new BusinessRuleError(`A Claim Payment letter of claim ${claim.claimNumber} is made by the payment it tells of (export_claim_payments), not by hand`);
      const how = payment.method === 'check' ? `by check number ${payment.checkNumber}` : `by electronic transfer (trace number ${payment.traceNumber})`;
      return [
        `We have issued a payment of ${formatMoney(payment.amountCents)} on claim ${claim.claimNumber} for ${loss}, ${how}, dated ${usDate(payment.issuedDate)}, payable to ${payment.payeeNames.join(' and ')}.`,
        `It pays ${payment.paidFor}.`,
        payment.method === 'check' && payment.payeeNames.length > 1
          ? 'The check is made out to each payee named above: each of them endorses it before it can be cashed or deposited.'
          : 'Please keep this letter with your records of the claim. If anything in it is not as you expected, please contact us with the claim number.',
      ];
    }
    case 'Reservation of Rights':
      return [
        `We are continuing to investigate claim ${claim.claimNumber} for ${loss}. We do so under a reservation of rights: while we investigate, we reserve our right to deny coverage for this loss in whole or in part, for the reason given below.`,
        'Our investigation, and anything we do in the course of it, waives none of the terms of your policy and none of our rights under it, nor any of yours. We will write to you again when we have decided.',
      ];
  }
}

/**
 * What a letter of the claim says, from its facts and the product's claims rules as they stand
 * when it is rendered: the state's acknowledgement wording and attachments (their text from the
 * rules' attachmentTexts), the peril's name.
 */
export function claimLetterDetails(type: ClaimLetterType, claim: ClaimLetterFacts, rules: Pick<ClaimsRules, 'perils' | 'letters' | 'attachmentTexts'>): ClaimLetterDetails {
  const stateLetter = rules.letters.find((letter) => letter.state === claim.state);
  const acknowledgement = type === 'Claim Acknowledgement';
  const attachments = (acknowledgement ? (stateLetter?.attachments ?? []) : []).map((title) => {
    const text = (rules.attachmentTexts ?? []).find((candidate) => candidate.title === title);
    if (!text) throw new BusinessRuleError(`The claims rules attach ${title} to a ${claim.state} claim's acknowledgement but give no text of it (attachmentTexts): publish claims rules that do`);
    return { title: text.title, paragraphs: [...text.paragraphs] };
  });
  return {
    claimId: claim.claimId,
    claimNumber: claim.claimNumber,
    insuredName: claim.insuredName,
    lossDate: claim.lossDate,
    reportedDate: claim.reportedDate,
    peril: rules.perils.find((peril) => peril.code === claim.perilCode)?.name ?? claim.perilCode,
    description: claim.description,
    lossAddress: claim.lossAddress,
    state: claim.state,
    paragraphs: paragraphsOf(type, claim, acknowledgement ? stateLetter?.acknowledgement : undefined),
    reason: acknowledgement ? null : claim.reason,
    attachments,
  };
}

/** The letter as it prints: its details, the carrier, the addressee at the address found for them (the loss address when none), the agency. */
export function claimLetterDocument(
  type: ClaimLetterType,
  letter: ClaimLetterDetails,
  sources: { policyNumber: string; carrier: Carrier; addressee?: { name: string; address?: MailingAddress }; producer?: Producer; issueDate: string },
): ClaimLetterDocument {
  const hasAddress = (address: MailingAddress | undefined): address is MailingAddress => !!address && !!(address.line1 || address.city || address.zip);
  const addressee: NamedInsured = {
    name: sources.addressee?.name || letter.insuredName || 'Named Insured',
    mailingAddress: hasAddress(sources.addressee?.address) ? sources.addressee.address : letter.lossAddress,
  };
  return {
    type,
    carrier: sources.carrier,
    claimNumber: letter.claimNumber,
    policyNumber: sources.policyNumber,
    addressee,
    lossDate: letter.lossDate,
    reportedDate: letter.reportedDate,
    peril: letter.peril,
    lossAddress: letter.lossAddress,
    description: letter.description,
    paragraphs: letter.paragraphs,
    reason: letter.reason,
    attachments: letter.attachments,
    ...(sources.producer ? { producer: sources.producer } : {}),
    issueDate: sources.issueDate,
  };
}
