/**
 * The documents area's model: what a printed or mailed policy document says, as plain data.
 * A document is assembled from a revision (by the policies and billing areas) and then
 * rendered (PDF or HTML) without looking anything else up, so the same data always gives
 * the same document. Money is integer cents; dates are `YYYY-MM-DD`.
 */
import type { Cents } from '../platform/money.js';

/** The deliverables the service generates, named as `create_deliverable` takes them. */
export const DELIVERABLE_TYPES = [
  'Declaration',
  'Policy Application',
  'Quote Summary',
  'Installment Billing Statement',
  'Notice of Cancellation',
  'Endorsement Declaration',
  'Renewal Declaration',
  'Renewal Billing Statement',
  'Conditional Renewal Notice',
  'Notice of Non-Renewal',
  'Notice of Reinstatement',
] as const;

export type DeliverableType = (typeof DELIVERABLE_TYPES)[number];

export function isDeliverableType(value: unknown): value is DeliverableType {
  return typeof value === 'string' && (DELIVERABLE_TYPES as readonly string[]).includes(value);
}

/**
 * The letters of a claim (reference_type `claims`): to the insured, from the claim's facts alone
 * (the claims area's moves ask for them; create_deliverable makes one by hand).
 */
export const CLAIM_LETTER_TYPES = ['Claim Acknowledgement', 'Closing', 'Denial', 'Reservation of Rights', 'Claim Payment'] as const;

export type ClaimLetterType = (typeof CLAIM_LETTER_TYPES)[number];

export function isClaimLetterType(value: unknown): value is ClaimLetterType {
  return typeof value === 'string' && (CLAIM_LETTER_TYPES as readonly string[]).includes(value);
}

export interface MailingAddress {
  line1: string;
  line2?: string;
  city: string;
  state: string;
  zip: string;
}

export interface Carrier {
  name: string;
  address: MailingAddress;
  phone?: string;
}

export interface NamedInsured {
  name: string;
  mailingAddress: MailingAddress;
}

/** The agency (and agent) that produced the policy: printed so the insured knows whom to call. */
export interface Producer {
  agencyName: string;
  agentName?: string;
  phone?: string;
  address?: MailingAddress;
}

export interface PolicyPeriod {
  effectiveDate: string;
  expirationDate: string;
}

/**
 * A coverage as printed: a limit and deductible where the coverage has them (a nonRate
 * coverage such as Loss of Use has a limit and no premium of its own, shown as 0.00).
 */
export interface CoverageLine {
  name: string;
  limit?: Cents;
  deductible?: Cents;
  premium: Cents;
}

/** One insured property (a risk) with its Section I coverages. */
export interface InsuredProperty {
  /** `Property #1`, as the revision names it. */
  name: string;
  address: MailingAddress;
  yearBuilt?: string;
  construction?: string;
  protectionClass?: string;
  coverages: CoverageLine[];
}

/** A premium adjustment (discount or surcharge) or a fee: a name and a signed amount. */
export interface ChargeLine {
  name: string;
  amount: Cents;
}

export interface FormReference {
  code: string;
  edition: string;
  description: string;
}

export interface DocumentTotals {
  premium: Cents;
  fees: Cents;
  total: Cents;
}

export interface InstallmentLine {
  /** 1 for the first installment of the schedule. */
  number: number;
  billDate?: string;
  dueDate: string;
  amount: Cents;
}

export interface BillingDetails {
  /** The billing schedule's label: `Full Pay`, `Two Pay`, `Quarterly`, `Monthly`. */
  scheduleLabel: string;
  installments: InstallmentLine[];
  /** What a billing statement asks for now; absent on documents that only list the plan. */
  amountDue?: Cents;
  amountDueDate?: string;
}

export interface CancellationDetails {
  reason: string;
  cancelDate: string;
  returnPremium: Cents;
  /** Sent ahead of the date (a pending cancellation, non-payment): the policy WILL end unless it is set right. */
  pending?: boolean;
}

/** A mid-term change as its Endorsement Declaration prints it. */
export interface EndorsementDetails {
  effectiveDate: string;
  changes: Array<{ label: string; before: string; after: string }>;
  /** Per item: the annual premium before and after, and the additional (negative: return) premium. */
  items: Array<{ name: string; oldAnnual: Cents; newAnnual: Cents; additional: Cents }>;
  /** Additional (negative: return) premium of the change, for the rest of the term. */
  premiumChange: Cents;
}

/** What a renewal notice says: a renewal held for review (conditional), or a policy that will not renew. */
export interface RenewalNoticeDetails {
  kind: 'conditional' | 'non-renewal';
  /** The day the current term ends. */
  expirationDate: string;
  /** Non-renewal: the carrier's reason, and its words when given. */
  reason?: string;
  description?: string;
  /** Conditional: the premium of the term ending, of the renewal offered, and the change in percent. */
  previousPremium?: Cents;
  renewalPremium?: Cents;
  changePercent?: string;
}

/** What a Notice of Reinstatement says: from when cover is back, and the gap if there was one. */
export interface ReinstatementDetails {
  cancelDate: string;
  reinstatementDate: string;
  lapseDays: number;
}

/** Everything one policy document prints. */
export interface PolicyDocument {
  type: DeliverableType;
  carrier: Carrier;
  /** The policy (or quote) number: `10-2026-1`. */
  policyNumber: string;
  /** The policy type's name: `Homeowner - HO3`. */
  policyType: string;
  namedInsureds: NamedInsured[];
  producer?: Producer;
  term: PolicyPeriod;
  properties: InsuredProperty[];
  /** Section II and other policy-level coverages. */
  policyCoverages: CoverageLine[];
  adjustments: ChargeLine[];
  fees: ChargeLine[];
  forms: FormReference[];
  totals: DocumentTotals;
  /** The billing schedule, where the document shows one (statements, quotes, declarations). */
  billing?: BillingDetails;
  /** Required on a Notice of Cancellation. */
  cancellation?: CancellationDetails;
  /** What an Endorsement Declaration lists as changed. */
  endorsement?: EndorsementDetails;
  /** A Conditional Renewal Notice's or Notice of Non-Renewal's particulars. */
  renewalNotice?: RenewalNoticeDetails;
  /** A Notice of Reinstatement's particulars. */
  reinstatement?: ReinstatementDetails;
  /** The date the document is issued and printed on; also its PDF creation date. */
  issueDate: string;
}

/** Totals as the parts of a document add up: what a document generator should store. */
export function totalsFromParts(document: Pick<PolicyDocument, 'properties' | 'policyCoverages' | 'adjustments' | 'fees'>): DocumentTotals {
  const add = (amounts: Cents[]) => amounts.reduce((total, amount) => total + amount, 0);
  const premium = add([
    ...document.properties.flatMap((property) => property.coverages.map((coverage) => coverage.premium)),
    ...document.policyCoverages.map((coverage) => coverage.premium),
    ...document.adjustments.map((adjustment) => adjustment.amount),
  ]);
  const fees = add(document.fees.map((fee) => fee.amount));
  return { premium, fees, total: premium + fees };
}

/**
 * A generated file waiting for (or done with) the print run, as `getToBePrinted` lists it:
 * a deliverable's file, or an attachment printed with its parent.
 */
export interface PrintFile {
  fileId: string;
  policyNumber: string;
  printDate: string;
  /** Short label of the file (the deliverable type, or the attachment's name). */
  label: string;
  title: string;
  /** Whom the envelope goes to; files of one recipient and policy are mailed together. */
  recipient: { name: string; address: MailingAddress };
  parentId?: string;
  childrenIds?: string[];
}

/** A document lacks what its type must print (a notice without its cancellation, say). */
export class IncompleteDocumentError extends Error {
  constructor(readonly type: DeliverableType, readonly missing: string) {
    super(`A ${type} needs ${missing}`);
    this.name = 'IncompleteDocumentError';
  }
}

// ---------------------------------------------------------------- stored files

/** `tbd`: waiting for the print run; `printed`: marked as printed; `none`: never printed (custom deliverables). */
export type PrintState = 'tbd' | 'printed' | 'none';

/**
 * One file of a policy (a generated deliverable, a custom deliverable, a signed copy):
 * the record getAttachment, the print queue and the signature flow read. The bytes live
 * in the bucket at `objectKey`.
 */
export interface AttachmentRecord {
  fileId: string;
  policyId: string;
  policyNumber: string;
  revisionId: string | null;
  /** Whose file it is, for reach: the policy's agency and contacts (as on the policy). */
  agencyId: string | null;
  contactIds: string[];
  referenceType: 'policies' | 'claims';
  /** The deliverable type for generated files (a claim letter's type for a claim's); null for custom deliverables. */
  deliverableType: DeliverableType | ClaimLetterType | null;
  label: string;
  title: string;
  objectKey: string;
  contentType: string;
  sizeBytes: number;
  printState: PrintState;
  printDate: string | null;
  /** The contact the envelope goes to (the first named insured), and the address printed on it. */
  recipientContactId: string | null;
  recipient: { name: string; address: MailingAddress } | null;
  /**
   * The recipient's electronic delivery preference (storeRoles `notices.acceptNoticesByEmail`)
   * as it was when the file was made: getToBePrinted's e-delivery filters read it. Absent
   * (files made before it was kept, or without a recipient): paper.
   */
  electronicDelivery?: boolean;
  parentId: string | null;
  childrenIds: string[];
  /** Set by mark_file_as_signed once every signer signed. */
  esigned: boolean;
  signedAt?: string;
  goDate: string;
  procDate: string;
  createdAt: string;
  printedAt?: string;
  claimNumber?: string;
  claimId?: string;
  /** Where an e-mailed file goes (a claim letter's copy to the agency's `claimActivityChosenEmail`), and whom it is copied to. */
  emailTo?: string;
  emailCc?: string;
}

/**
 * What the print queue keeps of a printable file, in its own small entries (keys.ts): what
 * getToBePrinted answers and filters on, what the nightly run puts in envelopes and what the
 * deliverable.printed event says. Whether it still waits is whether its waiting entry exists.
 */
export type PrintEntry = Pick<
  AttachmentRecord,
  'fileId' | 'policyId' | 'policyNumber' | 'revisionId' | 'agencyId' | 'referenceType' | 'deliverableType' | 'label' | 'title' | 'recipientContactId' | 'recipient' | 'electronicDelivery' | 'parentId' | 'childrenIds' | 'emailTo' | 'emailCc'
> & { printDate: string };

/** A print entry with where it stands: `tbd` while its waiting entry exists, else `printed`. */
export type PrintQueueFile = PrintEntry & { printState: 'tbd' | 'printed' };

/** A mailing batch as the nightly print run stores it. */
export interface StoredMailingBatch {
  label: string;
  printDate: string;
  policyNumber: string;
  fileIds: string[];
}

/** Whether the nightly processing of a print date has run (getToBePrinted's `processing`). */
export type PrintProcessing = 'not started' | 'incomplete' | 'done';

/** The deliverables a policy's move asks for; the documents consumer renders them after the commit. */
export type RequestedDeliverableType = Extract<
  DeliverableType,
  'Declaration' | 'Notice of Cancellation' | 'Endorsement Declaration' | 'Renewal Declaration' | 'Renewal Billing Statement' | 'Conditional Renewal Notice' | 'Notice of Non-Renewal' | 'Notice of Reinstatement'
>;

/**
 * A deliverable requested in a move's transaction, as data: what to render, for whom, dated by
 * the move. Its id is the id of the file it becomes, so rendering it twice stores one file.
 * A policy's document (a revision rendered) or a claim's letter (its facts as the move saw them).
 */
export type DeliverableRequest = PolicyDeliverableRequest | ClaimLetterRequest;

/** A policy's document a move asked for: a revision rendered as one deliverable type. */
export interface PolicyDeliverableRequest {
  claimLetter?: undefined;
  requestId: string;
  deliverableType: RequestedDeliverableType;
  policyId: string;
  policyNumber: string;
  /** The revision the file belongs to (for a cancellation: the revision carrying it). */
  revisionId: string;
  /** The revision whose contents print (for a cancellation: the one in force when it was decided). */
  renderRevisionId: string;
  /** Whose file it will be, for reach: the policy's agency and contacts when the move was made. */
  agencyId: string | null;
  contactIds: string[];
  recipientContactId: string | null;
  /**
   * The move's date: the document's issue date, its go date and its processing date. Its
   * print date (the next business day) is worked out when it is rendered, so that the moves
   * do not bundle the federal holiday calendar.
   */
  decisionDate: string;
  billingScheduleId?: string;
  cancellation?: CancellationDetails;
  /** An Endorsement Declaration's opening: what changed and what it costs. */
  endorsement?: EndorsementDetails;
  renewalNotice?: RenewalNoticeDetails;
  reinstatement?: ReinstatementDetails;
  requestedAt: string;
  state: 'requested' | 'rendered';
  renderedAt?: string;
}

/**
 * A claim letter's facts, as the claim move that asked for it saw them: the documents area
 * renders the letter from these alone (it never reads the claims area), with its wording and
 * attachments from the product's claims rules, the carrier's identity and the insured's mailing
 * address read when it is rendered (so that the claim moves bundle none of the wording).
 */
export interface ClaimLetterFacts {
  claimId: string;
  claimNumber: string;
  insuredName: string;
  lossDate: string;
  reportedDate: string;
  perilCode: string;
  description: string;
  lossAddress: MailingAddress;
  state: string;
  /** What the letter gives as its reason: the denial's, the reservation's, the closing's. */
  reason: string | null;
  /** A Claim Payment letter's payment: what was paid, how, when, and to whom. */
  payment?: ClaimPaymentOfLetter;
}

/** A claim payment as its letter tells the payee of it (documents' own type of it: documents does not import claims). */
export interface ClaimPaymentOfLetter {
  paymentId: string;
  amountCents: Cents;
  method: 'check' | 'ach';
  checkNumber: string | null;
  traceNumber: string | null;
  issuedDate: string;
  /** Everyone the check is made out to (the payee, and a joint payee such as the mortgagee). */
  payeeNames: string[];
  /** Why it was paid: the coverages and cost types of its lines, or the deductible reimbursed out of a recovery. */
  paidFor: string;
}

/** What a claim letter says: its facts, with the wording, peril name and attachments of the claims rules. */
export interface ClaimLetterDetails {
  claimId: string;
  claimNumber: string;
  insuredName: string;
  lossDate: string;
  reportedDate: string;
  /** The peril's name (`Water Damage`). */
  peril: string;
  description: string;
  lossAddress: MailingAddress;
  /** The claim's state: its wording and attachments are the state's. */
  state: string;
  /** The letter's opening, the state's wording where the claims rules give one. */
  paragraphs: string[];
  /** What the letter gives as its reason: the denial's, the reservation's, the closing's. */
  reason: string | null;
  /** Pages that go with the letter (Florida's Homeowner Claims Bill of Rights), each its title and text. */
  attachments: ClaimLetterAttachment[];
}

export interface ClaimLetterAttachment {
  title: string;
  paragraphs: string[];
}

/** A claim's letter a claim's move asked for (the acknowledgement at first notice, a denial, the closing letter, a reservation of rights). */
export interface ClaimLetterRequest {
  requestId: string;
  deliverableType: ClaimLetterType;
  claimLetter: ClaimLetterFacts;
  policyId: string;
  policyNumber: string;
  /** The revision in force on the loss date, when one was. */
  revisionId: string | null;
  agencyId: string | null;
  contactIds: string[];
  /** The insured the letter goes to. */
  recipientContactId: string | null;
  /** The move's date: the letter's date, its go date and its processing date. */
  decisionDate: string;
  requestedAt: string;
  state: 'requested' | 'rendered';
  renderedAt?: string;
}

/** Everything one claim letter prints. */
export interface ClaimLetterDocument {
  type: ClaimLetterType;
  carrier: Carrier;
  claimNumber: string;
  policyNumber: string;
  /** Whom it is addressed to, and where. */
  addressee: NamedInsured;
  lossDate: string;
  reportedDate: string;
  peril: string;
  lossAddress: MailingAddress;
  description: string;
  paragraphs: string[];
  reason: string | null;
  attachments: ClaimLetterAttachment[];
  producer?: Producer;
  /** The letter's date (and its PDF's creation date). */
  issueDate: string;
}

/**
 * A statement to a party that is not a policy (an agency's commission statement): a table of
 * lines and a summary, rendered as a PDF and kept as a file of that party, printed or e-mailed as
 * any deliverable. The area that owns the figures fills it; documents only lays it out.
 */
export interface PartyStatement {
  /** `Commission Statement`. */
  title: string;
  /** The statement's number, printed in the header band (`<agency number or id>-<YYYY-MM>`). */
  reference: string;
  /** The party the file belongs to (its id keeps the file) and its mailing address. */
  party: { id: string; name: string; address?: MailingAddress };
  /** Label-value pairs printed above the table (Period, Agency). */
  heading: Array<{ label: string; value: string }>;
  columns: Array<{ header: string; width: number; align?: 'left' | 'right' }>;
  rows: string[][];
  /** Printed under the table, as a totals box (Previous balance, Commission, Paid, Balance). */
  summary: Array<{ label: string; value: string }>;
  /** A second table (the payments made), with its title; omitted when empty. */
  payments?: { title: string; columns: Array<{ header: string; width: number; align?: 'left' | 'right' }>; rows: string[][] };
  /** YYYY-MM-DD: the day it is dated (and its PDF's creation date). */
  issueDate: string;
  /** The table's title (`Transactions` unless given: a loss run's is `Claims`), what it says when empty, and the label of the reference in the header band (`Statement` unless given). */
  tableTitle?: string;
  emptyText?: string;
  numberLabel?: string;
}

// ---------------------------------------------------------------- what documents reads of a claim

/**
 * A claim as the documents area reads it for its letters: the fields of the claims area's record
 * it prints, named here because documents does not import claims (the claims area's record, and
 * its moves' facts below, satisfy these types; the wiring type-checks them).
 */
export interface ClaimOfLetter {
  claimId: string;
  claimNumber: string;
  policyId: string;
  policyNumber: string;
  agencyId: string | null;
  contactIds: string[];
  insuredContactId: string | null;
  insuredName: string;
  state: string;
  lossDate: string;
  reportedDate: string;
  perilCode: string;
  description: string;
  lossAddress: { line1: string; line2: string; city: string; state: string; zip: string };
  coverage: { revisionId: string | null };
  status: string;
  statusHistory: ReadonlyArray<{ status: string; reason: string | null }>;
  denial: { reason: string; at: string } | null;
}

/** A claim's move as documents reads it (the claims area's `ClaimMoveFacts`): the claim before and after, the move's instant and reason. */
export interface ClaimMoveOfLetter {
  kind: string;
  at: string;
  reason: string | null;
  /** The payments the move issued (a check export): each is told to its first payee by a Claim Payment letter. */
  issuedPayments?: ReadonlyArray<Omit<ClaimPaymentOfLetter, 'payeeNames' | 'paidFor'> & { payees: ReadonlyArray<{ contactId: string; name: string; as: string }>; paidFor: string }>;
  before: { claim: ClaimOfLetter } | undefined;
  after: { claim: ClaimOfLetter };
}

/** A file of a claim as the claim lists it (get_claim's `documents`): requested by a move, then made. */
export interface ClaimFileEntry {
  claimId: string;
  fileId: string;
  deliverableType: DeliverableType | ClaimLetterType | null;
  label: string;
  title: string;
  policyNumber: string;
  /** `requested` until the documents consumer has made the file; then `made`. */
  state: 'requested' | 'made';
  requestedAt: string;
  createdAt?: string;
  printDate?: string | null;
  /** The print state the file was made with (`tbd` files are `printed` once their waiting entry is gone). */
  printState?: PrintState;
  /** Mailed to the insured, or e-mailed (the agency's copy). */
  delivery: 'mail' | 'email';
  emailTo?: string;
}

/** A window of a print list as getToBePrinted and the nightly run read it. */
export interface PrintWindow {
  /** `tbd`: the waiting entries; `printable`: every printable file, printed or not. */
  source: 'tbd' | 'printable';
  from: string;
  to: string;
  /** Start at this print position (`<printDate>#<fileId>`, a previous answer's last file; the store skips that file itself). */
  after?: string;
  /** Filters the key does not hold: the entries they leave out are read (and billed) but not answered. */
  includeClaims: boolean;
  electronic?: 'only' | 'exclude';
}
