/**
 * Deliverables: a revision rendered as a PDF of one deliverable type, stored in the bucket
 * and recorded as a file of its policy, queued for the print run on its print date.
 *
 * For other areas (the signatures area, the moves of a policy):
 * - `storeDeliverable(policy, type, pdfBytes, options)` stores given bytes as a file of the policy;
 * - `renderRevisionDeliverable(revisionId, type, options)` renders a revision without storing it;
 * - `createRevisionDeliverable(revisionId, type, options)` renders and stores it (e.g. the Policy Application);
 * - `markAttachmentSigned(fileId)` (store.ts, through the area's index.ts) flags a file `esigned`;
 * - documents' contributions to the moves (joins-moves.ts, listed in shared/moves/) request a
 *   deliverable in the move's transaction, and `renderRequestedDeliverable(requestId)` (the
 *   documents consumer) renders it after the commit.
 */
import { createHash, randomUUID } from 'node:crypto';
import { billableItems, installmentPlan, UnknownBillingScheduleError, returnPremium } from '../billing/index.js';
import { type CancellationRules, type CancelReason, getCatalogRecord, getClaimsRules, getProductCatalog } from '../catalog/index.js';
import { getContact, getContacts, getContactSummaries, noticeEmailOf } from '../contacts/index.js';
import { revisionWithinReach, type RevisionSnapshot, loadRevision } from '../policies/index.js';
import { formsAttached } from '../rating/index.js';
import { todayIso } from '../platform/dates.js';
import { isConditionalCheckFailure } from '../platform/dynamo.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { toCents } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { moduleOnFirstUse } from '../platform/modules-on-first-use.js';
import { DEFAULT_CARRIER, deliverableFileName, policyDocumentFrom, recipientOf } from './assemble.js';
import { renderDeliverableHtml } from './html.js';
import {
  CLAIM_LETTER_TYPES,
  isClaimLetterType,
  isDeliverableType,
  type AttachmentRecord,
  type BillingDetails,
  type CancellationDetails,
  type Carrier,
  type ClaimLetterFacts,
  type ClaimLetterRequest,
  type ClaimLetterType,
  type ClaimOfLetter,
  type DeliverableType,
  type MailingAddress,
  type PolicyDocument,
  type PrintState,
} from './model.js';
import { claimLetterDetails, claimLetterDocument } from './claim-letters.js';
import { claimLetterFacts, claimLetterTitle } from './claim-letter-moves.js';
import { claimFilePut } from './claim-files-store.js';
import { InvalidPrintScheduleError, printDate } from './print-dates.js';
import { fileEvent } from './file-events.js';
import { getDeliverableRequest, markDeliverableRequestRendered } from './request-store.js';
import {
  bucketUrl,
  fileFolder,
  getAttachmentRecord,
  objectKeyOf,
  putAttachmentRecordWith,
  putFileBytes,
} from './store.js';
import { clock } from '../platform/clock.js';
import { carrierIdentity } from './carrier.js';

export { carrierIdentity };

export { listPolicyAttachments, getAttachmentRecord } from './store.js';

/**
 * The PDF renderer (pdf-lib and its standard fonts) is loaded on the first render, not with the
 * function: bundled, it is its own module beside `index.mjs` (pdf-renderer.ts; infra/bundles.ts
 * builds it), so a cold start does not parse it; run from source, the TypeScript module.
 */
const renderer = /* @__PURE__ */ moduleOnFirstUse<typeof import('./pdf-renderer.js')>(new URL('./pdf-renderer.mjs', import.meta.url), new URL('./pdf-renderer.ts', import.meta.url));
async function renderDeliverablePdf(document: PolicyDocument): Promise<Uint8Array> {
  return (await renderer()).renderDeliverablePdf(document);
}
const REVISION_NOTICE_REASON = 'Cancellation';

/** The policy a file belongs to, as its record keeps it (reach is decided on agencyId and contactIds). */
export interface FileOwner {
  policyId: string;
  policyNumber: string;
  revisionId: string | null;
  agencyId: string | null;
  contactIds: string[];
}

export interface StoreOptions {
  /** The deliverable's effective date (bill date, print date); default: today. */
  goDate?: string;
  delayPrintDays?: number;
  /** `tbd` (default for generated deliverables) queues it for printing; `none` never prints. */
  printState?: PrintState;
  procDate?: string;
  title?: string;
  label?: string;
  recipient?: { name: string; address: MailingAddress } | null;
  recipientContactId?: string | null;
  /** The recipient takes notices by e-mail; default: what the recipient contact says now (`recipientDelivery`), paper without one. */
  electronicDelivery?: boolean;
  referenceType?: 'policies' | 'claims';
  claimNumber?: string;
  claimId?: string;
  /** An e-mailed file's address (and its copy): the e-delivery vendor reads them off getToBePrinted. */
  emailTo?: string;
  emailCc?: string | null;
  parentId?: string | null;
  contentType?: string;
  fileName?: string;
  /** A file id decided by the caller (an idempotent retry names the same file); a new one otherwise. */
  fileId?: string;
  now?: Date;
}

/** A file record ready to write, with the bytes to put in the bucket first. */
export interface PreparedFile {
  record: AttachmentRecord;
  bytes: Uint8Array;
}

/** Builds (does not write) the record of a new file of the policy. */
export function prepareFile(owner: FileOwner, type: DeliverableType | ClaimLetterType | null, bytes: Uint8Array, options: StoreOptions = {}): PreparedFile {
  const now = options.now ?? clock.now();
  const today = todayIso(now);
  const goDate = options.goDate ?? today;
  const printState = options.printState ?? 'tbd';
  let scheduled: string | null = null;
  try {
    scheduled = printState === 'none' ? null : printDate(goDate, options.delayPrintDays ?? 0);
  } catch (error) {
    if (error instanceof InvalidPrintScheduleError) throw new BusinessRuleError(error.message);
    throw error;
  }
  const fileId = options.fileId ?? randomUUID();
  const label = options.label ?? type ?? 'Attachment';
  const contentType = options.contentType ?? 'application/pdf';
  const fileName = options.fileName ?? deliverableFileName(label, owner.policyNumber, contentType === 'text/html' ? 'html' : 'pdf');
  const record: AttachmentRecord = {
    fileId,
    policyId: owner.policyId,
    policyNumber: owner.policyNumber,
    revisionId: owner.revisionId,
    agencyId: owner.agencyId,
    contactIds: [...owner.contactIds],
    referenceType: options.referenceType ?? 'policies',
    deliverableType: type,
    label,
    title: options.title ?? `${label} - ${owner.policyNumber}`,
    objectKey: objectKeyOf(owner.policyId, fileId, fileName),
    contentType,
    sizeBytes: bytes.byteLength,
    printState,
    printDate: scheduled,
    recipientContactId: options.recipientContactId ?? null,
    recipient: options.recipient ?? null,
    electronicDelivery: options.electronicDelivery ?? false,
    parentId: options.parentId ?? null,
    childrenIds: [],
    esigned: false,
    goDate,
    procDate: options.procDate ?? today,
    createdAt: now.toISOString(),
    ...(options.claimNumber ? { claimNumber: options.claimNumber } : {}),
    ...(options.claimId ? { claimId: options.claimId } : {}),
    ...(options.emailTo ? { emailTo: options.emailTo } : {}),
    ...(options.emailCc ? { emailCc: options.emailCc } : {}),
  };
  return { record, bytes };
}

/**
 * Stores bytes as a file of the policy: the bucket first, then the record, so a record
 * never points at nothing (a failed record write leaves an unreferenced object only).
 */
export async function storeDeliverable(owner: FileOwner, type: DeliverableType | ClaimLetterType | null, bytes: Uint8Array, options: StoreOptions = {}): Promise<AttachmentRecord> {
  const electronicDelivery = options.electronicDelivery ?? (await recipientDelivery(options.recipientContactId));
  const prepared = prepareFile(owner, type, bytes, { ...options, electronicDelivery });
  await putFileBytes(prepared.record.objectKey, bytes, prepared.record.contentType);
  // The record and its deliverable.created event land together (a claim's file with its entry on the claim).
  const { record } = prepared;
  const claimEntry = record.claimId
    ? [
        claimFilePut({
          claimId: record.claimId, fileId: record.fileId, deliverableType: record.deliverableType, label: record.label, title: record.title, policyNumber: record.policyNumber, state: 'made',
          requestedAt: record.createdAt, createdAt: record.createdAt, printDate: record.printDate, printState: record.printState, delivery: record.electronicDelivery ? 'email' : 'mail', ...(record.emailTo ? { emailTo: record.emailTo } : {}),
        }),
      ]
    : [];
  if (!(await putAttachmentRecordWith(prepared.record, [fileEvent('deliverable.created', prepared.record, prepared.record.createdAt), ...claimEntry]))) {
    // A concurrent retry with the same idempotency key stored it first: its answer stands.
    const first = options.fileId ? await getAttachmentRecord(options.fileId) : undefined;
    if (first) return first;
    throw new BusinessRuleError(`File ${prepared.record.fileId} exists already`);
  }
  return prepared.record;
}

/**
 * Whether a file's recipient takes notices by e-mail, as the contact says now (storeRoles
 * `notices.acceptNoticesByEmail`): the file keeps it as of its making. Paper without a recipient.
 */
export async function recipientDelivery(recipientContactId: string | null | undefined): Promise<boolean> {
  if (!recipientContactId) return false;
  return (await getContact(recipientContactId))?.acceptNoticesByEmail === true;
}

/**
 * The file id of a request retried with an `Idempotency-Key`: the same caller, operation and
 * key always name the same file, so a retry finds the first answer instead of storing another.
 */
export function idempotentFileId(callerId: string, operation: string, idempotencyKey: string): string {
  const hex = createHash('sha256').update(JSON.stringify([callerId, operation, idempotencyKey])).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function earlierAnswer(fileId: string | undefined): Promise<AttachmentRecord | undefined> {
  if (!fileId) return undefined;
  const found = await getAttachmentRecord(fileId);
  return found && !(found as { deleted?: boolean }).deleted ? found : undefined;
}

/** `deliverable_url`: the folder of the file in the bucket. */
export function deliverableUrl(record: AttachmentRecord): { url: string; path: string } {
  const path = fileFolder(record.policyId, record.fileId);
  return { url: bucketUrl(path), path };
}

// ---------------------------------------------------------------- assembling a revision's document

interface RenderOptions {
  issueDate?: string;
  goDate?: string;
  cancellation?: CancellationDetails;
  reason?: string;
}

function mailingAddressOf(contact: { addresses?: Array<{ addressLine1: string; addressLine2?: string; addressCity?: string; addressState?: string; addressZip?: string }> } | undefined): MailingAddress | undefined {
  const address = contact?.addresses?.[0];
  if (!address) return undefined;
  return {
    line1: address.addressLine1,
    ...(address.addressLine2 ? { line2: address.addressLine2 } : {}),
    city: address.addressCity ?? '',
    state: address.addressState ?? '',
    zip: address.addressZip ?? '',
  };
}

/** The installment table of a document: billing's own plan for the revision, the very one its invoices are written from. */
async function billingPlan(snapshot: RevisionSnapshot, scheduleId: string | undefined, goDate: string | undefined, type: DeliverableType): Promise<BillingDetails | undefined> {
  const { schedule, installments } = await installmentPlan(snapshot, scheduleId).catch((error: unknown) => {
    // A document asked for with a schedule the carrier no longer offers shows Full Pay, as before.
    if (error instanceof UnknownBillingScheduleError) return installmentPlan(snapshot);
    throw error;
  });
  const billing: BillingDetails = {
    scheduleLabel: schedule.label,
    installments: installments.map((installment) => ({ number: installment.number, billDate: installment.billDate, dueDate: installment.dueDate, amount: installment.amountDueCents })),
  };
  if (type === 'Installment Billing Statement' || type === 'Renewal Billing Statement') {
    const due = installments.find((installment) => !goDate || installment.dueDate >= goDate) ?? installments.at(-1);
    if (due) Object.assign(billing, { amountDue: due.amountDueCents, amountDueDate: due.dueDate });
  }
  return billing;
}

async function cancellationOf(snapshot: RevisionSnapshot, options: RenderOptions): Promise<CancellationDetails> {
  if (options.cancellation) return options.cancellation;
  const header = snapshot.header;
  const cancelDate = header.cancelDate ?? options.goDate ?? todayIso();
  const [rules, product] = await Promise.all([getCatalogRecord<CancellationRules & { minimumEarnedPremium: string }>('CANCELLATIONRULES'), getProductCatalog()]);
  let returned = 0;
  if (rules && cancelDate >= header.termStart && cancelDate <= header.termEnd) {
    const items = billableItems(
      snapshot.items.map((item) => ({ itemId: item.itemId, name: item.name, writtenPremiumCents: item.writtenPremiumCents ?? item.annualPremiumCents, writtenFeeCents: item.writtenFeeCents ?? item.annualFeeCents })),
      product.items,
    );
    returned = returnPremium({ effectiveDate: header.termStart, expirationDate: header.termEnd, cancelDate, items }, rules, toCents(rules.minimumEarnedPremium)).returnedPremiumCents;
  }
  let reason = options.reason;
  if (!reason && header.policyStatusReasonId) {
    const known = await getCatalogRecord<CancelReason>('CANCELREASON', header.policyStatusReasonId);
    reason = known?.name;
  }
  return { reason: reason || REVISION_NOTICE_REASON, cancelDate, returnPremium: returned };
}

/** The document of one deliverable type for a revision as stored. */
export async function documentForRevision(snapshot: RevisionSnapshot, type: DeliverableType, options: RenderOptions & { billingScheduleId?: string } = {}): Promise<PolicyDocument> {
  const header = snapshot.header;
  const contactIds = header.contacts.namedInsuredIds;
  const producerIds = [header.contacts.agencyId, header.contacts.agentId].filter((id): id is string => !!id);
  const [product, carrier, insureds, producers] = await Promise.all([
    getProductCatalog(),
    carrierIdentity(),
    getContacts(contactIds),
    producerIds.length ? getContactSummaries(producerIds) : Promise.resolve(new Map()),
  ]);
  const policyType = product.policyTypes.find((candidate) => candidate.id === header.policyTypeId);
  const live = snapshot.items.filter((item) => item.persistStatus !== 'rejected');
  const agency = header.contacts.agencyId ? producers.get(header.contacts.agencyId) : undefined;
  const agent = header.contacts.agentId ? producers.get(header.contacts.agentId) : undefined;
  const needsBilling = type !== 'Notice of Cancellation' && type !== 'Notice of Non-Renewal' && type !== 'Conditional Renewal Notice' && type !== 'Notice of Reinstatement';
  return policyDocumentFrom({
    type,
    snapshot,
    policyTypeName: policyType?.name ?? '',
    carrier,
    namedInsureds: contactIds.map((id) => {
      const contact = insureds.get(id);
      return { name: contact?.name ?? 'Named Insured', address: mailingAddressOf(contact) };
    }),
    ...(agency || agent ? { producer: { agencyName: agency?.name ?? agent?.name ?? '', ...(agent ? { agentName: agent.name } : {}) } } : {}),
    forms: formsAttached(product, header.policyTypeId, live.map((item) => item.itemId)),
    ...(needsBilling ? { billing: await billingPlan(snapshot, options.billingScheduleId, options.goDate, type) } : {}),
    ...(type === 'Notice of Cancellation' ? { cancellation: await cancellationOf(snapshot, options) } : {}),
    issueDate: options.issueDate ?? todayIso(),
    questionNames: Object.fromEntries(product.questions.map((question) => [question.id, question.name])),
  });
}

/** A revision's deliverable as PDF bytes, and the document it prints (nothing stored). */
export async function renderRevisionDeliverable(revisionId: string, type: DeliverableType, options: RenderOptions = {}) {
  const snapshot = await loadRevision(revisionId);
  if (!snapshot) throw new NotFoundError(`Revision ${revisionId}`);
  const document = await documentForRevision(snapshot, type, options);
  return { snapshot, document, pdf: await renderDeliverablePdf(document) };
}

/**
 * Renders and stores a revision's deliverable for another area's flow (the signatures area's
 * Policy Application): no caller's reach is checked here, the calling service has done it.
 */
export async function createRevisionDeliverable(revisionId: string, type: DeliverableType, options: StoreOptions & RenderOptions = {}): Promise<AttachmentRecord> {
  const { snapshot, document, pdf } = await renderRevisionDeliverable(revisionId, type, options);
  return storeDeliverable(ownerOf(snapshot), type, pdf, {
    recipient: recipientOf(document),
    recipientContactId: snapshot.header.contacts.namedInsuredIds[0] ?? null,
    ...options,
  });
}

const ownerOf = (snapshot: RevisionSnapshot): FileOwner => ({
  policyId: snapshot.header.policyId,
  policyNumber: snapshot.header.policyNumber,
  revisionId: snapshot.header.id,
  agencyId: snapshot.header.agencyId,
  contactIds: [...snapshot.header.contactIds],
});

// ---------------------------------------------------------------- create_deliverable

export interface CreateDeliverableInput {
  /** Required but for a claim's deliverable (reference_type `claims`), which defaults to the claim's revision at loss. */
  revision_id?: string;
  deliverable_type: string;
  go_date?: string;
  reference_type?: 'policies' | 'claims';
  proc_date?: string;
  reason?: string;
  claim_number?: string;
  claim_id?: string;
  claim_loss_date?: string;
  delay_print_days?: number;
  print_state?: PrintState;
}

const POLICY_DELIVERABLES = 'Declaration, Policy Application, Quote Summary, Installment Billing Statement, Notice of Cancellation, Endorsement Declaration, Renewal Declaration, Renewal Billing Statement';

/**
 * create_deliverable: a revision's deliverable as a file of its policy; with reference_type
 * `claims`, a claim's (a letter of CLAIM_LETTER_TYPES, or a policy's document filed with the
 * claim), for `claim`: the claim `claim_id` names, which the entry file reads within the caller's
 * reach from the claims area (documents does not import claims).
 */
export async function createDeliverable(principal: Principal, input: CreateDeliverableInput, idempotencyKey?: string, claim?: ClaimOfLetter) {
  if (input.reference_type === 'claims') return createClaimDeliverable(principal, input, idempotencyKey, claim);
  if (isClaimLetterType(input.deliverable_type)) throw new BusinessRuleError(`deliverable_type: a ${input.deliverable_type} is a claim's letter: send reference_type claims and the claim_id`);
  if (!input.revision_id) throw new BusinessRuleError('revision_id: is required (a claim\'s deliverable, reference_type claims, names its claim_id instead)');
  return createRevisionFile(principal, { ...input, revision_id: input.revision_id }, idempotencyKey);
}

async function createRevisionFile(principal: Principal, input: CreateDeliverableInput & { revision_id: string }, idempotencyKey: string | undefined, claim?: ClaimOfLetter) {
  // The renewal notices say what a move decided (a review's figures, a non-renewal's reason): only the moves make them.
  if (!isDeliverableType(input.deliverable_type) || input.deliverable_type === 'Conditional Renewal Notice' || input.deliverable_type === 'Notice of Non-Renewal' || input.deliverable_type === 'Notice of Reinstatement') {
    throw new BusinessRuleError(`deliverable_type: must be one of ${POLICY_DELIVERABLES}${claim ? `, ${CLAIM_LETTER_TYPES.join(', ')}` : ''}`);
  }
  const type = input.deliverable_type;
  const snapshot = await revisionWithinReach(principal, input.revision_id);
  if (claim && snapshot.header.policyId !== claim.policyId) throw new BusinessRuleError(`revision_id: ${input.revision_id} is not a revision of policy ${claim.policyNumber}, whose claim ${claim.claimNumber} is`);
  const fileId = idempotencyKey ? idempotentFileId(principal.contactId, 'create_deliverable', idempotencyKey) : undefined;
  const earlier = await earlierAnswer(fileId);
  if (earlier) return { deliverable_url: deliverableUrl(earlier), file_id: earlier.fileId };
  const today = todayIso();
  const goDate = input.go_date ?? today;
  const document = await documentForRevision(snapshot, type, { issueDate: input.proc_date ?? today, goDate, ...(input.reason ? { reason: input.reason } : {}) });
  const pdf = await renderDeliverablePdf(document);
  const recipient = recipientOf(document);
  const record = await storeDeliverable(ownerOf(snapshot), type, pdf, {
    goDate,
    delayPrintDays: input.delay_print_days ?? 0,
    printState: input.print_state ?? 'tbd',
    procDate: input.proc_date ?? today,
    recipient,
    recipientContactId: snapshot.header.contacts.namedInsuredIds[0] ?? null,
    referenceType: input.reference_type ?? 'policies',
    ...(claim ? { claimNumber: claim.claimNumber, claimId: claim.claimId } : {}),
    ...(!claim && input.claim_number ? { claimNumber: input.claim_number } : {}),
    ...(!claim && input.claim_id ? { claimId: input.claim_id } : {}),
    ...(fileId ? { fileId } : {}),
  });
  return { deliverable_url: deliverableUrl(record), file_id: record.fileId };
}

/**
 * A claim's deliverable by hand: one of its letters (rendered from the claim's facts and the
 * product's claims rules, as a move's would be), or a policy document filed with the claim (the
 * revision given, else the claim's revision at loss). The claim fields given must be the claim's.
 */
async function createClaimDeliverable(principal: Principal, input: CreateDeliverableInput, idempotencyKey: string | undefined, claim: ClaimOfLetter | undefined) {
  if (!input.claim_id) throw new BusinessRuleError('claim_id: is required when reference_type is claims (the claim whose deliverable it is)');
  if (!claim || claim.claimId !== input.claim_id) throw new NotFoundError(`Claim ${input.claim_id.slice(0, 60)}`);
  if (input.claim_number && input.claim_number !== claim.claimNumber) throw new BusinessRuleError(`claim_number: ${input.claim_number.slice(0, 40)} is not the number of claim ${input.claim_id} (${claim.claimNumber})`);
  if (input.claim_loss_date && input.claim_loss_date !== claim.lossDate) throw new BusinessRuleError(`claim_loss_date: ${input.claim_loss_date} is not the loss date of claim ${claim.claimNumber} (${claim.lossDate})`);
  if (!isClaimLetterType(input.deliverable_type)) {
    const revisionId = input.revision_id ?? claim.coverage.revisionId;
    if (!revisionId) throw new BusinessRuleError(`revision_id: no revision of policy ${claim.policyNumber} was in force on the loss date ${claim.lossDate} of claim ${claim.claimNumber}: name the revision`);
    return createRevisionFile(principal, { ...input, revision_id: revisionId }, idempotencyKey, claim);
  }
  const type = input.deliverable_type;
  const reason = input.reason?.trim() || null;
  if (type === 'Denial' && !reason && !claim.denial) throw new BusinessRuleError(`reason: claim ${claim.claimNumber} is not denied; a Denial letter needs the reason (or deny the claim with update_claim's denial_reason)`);
  if (type === 'Reservation of Rights' && !reason) throw new BusinessRuleError('reason: a Reservation of Rights letter says why the rights are reserved');
  if (input.revision_id) {
    const snapshot = await revisionWithinReach(principal, input.revision_id);
    if (snapshot.header.policyId !== claim.policyId) throw new BusinessRuleError(`revision_id: ${input.revision_id} is not a revision of policy ${claim.policyNumber}, whose claim ${claim.claimNumber} is`);
  }
  const fileId = idempotencyKey ? idempotentFileId(principal.contactId, 'create_deliverable', idempotencyKey) : undefined;
  const earlier = await earlierAnswer(fileId);
  if (earlier) return { deliverable_url: deliverableUrl(earlier), file_id: earlier.fileId };
  const today = todayIso();
  const filed = await fileClaimLetter({
    type,
    letter: claimLetterFacts(type, claim, reason),
    owner: { policyId: claim.policyId, policyNumber: claim.policyNumber, revisionId: input.revision_id ?? claim.coverage.revisionId, agencyId: claim.agencyId, contactIds: [...claim.contactIds] },
    recipientContactId: claim.insuredContactId,
    fileId: fileId ?? randomUUID(),
    goDate: input.go_date ?? today,
    procDate: input.proc_date ?? today,
    printState: input.print_state ?? 'tbd',
    delayPrintDays: input.delay_print_days ?? 0,
  });
  return { deliverable_url: deliverableUrl(filed.letter), file_id: filed.letter.fileId };
}

// ---------------------------------------------------------------- newCustomDeliverable

export async function newCustomDeliverable(
  principal: Principal,
  input: { revisionId: string; deliverableName: string; prebuiltHTML?: string; generateHTML: boolean },
  idempotencyKey?: string,
) {
  const snapshot = await revisionWithinReach(principal, input.revisionId);
  const fileId = idempotencyKey ? idempotentFileId(principal.contactId, 'newCustomDeliverable', idempotencyKey) : undefined;
  const earlier = await earlierAnswer(fileId);
  if (earlier) return { file_id: earlier.fileId, deliverable_name: earlier.label, deliverable_url: deliverableUrl(earlier) };
  let html = input.prebuiltHTML;
  if (input.generateHTML || !html) {
    const document = await documentForRevision(snapshot, 'Declaration', {});
    html = renderDeliverableHtml(document, input.deliverableName);
  }
  const record = await storeDeliverable(ownerOf(snapshot), null, new TextEncoder().encode(html), {
    label: input.deliverableName,
    title: input.deliverableName,
    printState: 'none',
    contentType: 'text/html',
    ...(fileId ? { fileId } : {}),
  });
  return { file_id: record.fileId, deliverable_name: record.label, deliverable_url: deliverableUrl(record) };
}

// ---------------------------------------------------------------- getAttachment

// Viewing a file needs no renderer (attachments.ts); getAttachment imports it from there.
export { attachmentForViewing } from './attachments.js';

// ---------------------------------------------------------------- a claim's letters

interface ClaimLetterFiling {
  type: ClaimLetterType;
  letter: ClaimLetterFacts;
  owner: FileOwner;
  recipientContactId: string | null;
  /** The letter's file; its agency copy's id is derived from it. */
  fileId: string;
  goDate: string;
  procDate: string;
  printState?: PrintState;
  delayPrintDays?: number;
  now?: Date;
}

/** The id of a letter's copy e-mailed to its agency: the same letter, the same copy. */
export const agencyCopyId = (fileId: string) => idempotentFileId(fileId, 'claim letter', 'agency copy');

/**
 * Files a claim's letter: the letter to the insured (mailed, or e-mailed where the insured takes
 * notices by e-mail), and where the policy's agency chose an address for claim activity
 * (storeRoles notices.claimActivityChosenEmail) its copy e-mailed there, a file of its own flagged
 * for electronic delivery with the address (and ccClaimEmail) on it. Each is a file of the policy
 * with reference_type `claims`, listed on the claim; a file already there is kept, so filing the
 * same letter again makes nothing twice.
 */
async function fileClaimLetter(filing: ClaimLetterFiling): Promise<{ letter: AttachmentRecord; copy?: AttachmentRecord; made: boolean }> {
  const { type, letter, owner } = filing;
  const copyId = agencyCopyId(filing.fileId);
  const [existing, email] = await Promise.all([getAttachmentRecord(filing.fileId), owner.agencyId ? noticeEmailOf(owner.agencyId, 'claimActivityChosenEmail') : Promise.resolve(undefined)]);
  const existingCopy = email ? await getAttachmentRecord(copyId) : undefined;
  if (existing && (!email || existingCopy)) return { letter: existing, ...(existingCopy ? { copy: existingCopy } : {}), made: false };
  const wanted = [...new Set([filing.recipientContactId, owner.agencyId].filter((id): id is string => !!id))];
  const [carrier, people, rules] = await Promise.all([carrierIdentity(), getContacts(wanted), getClaimsRules()]);
  const insured = filing.recipientContactId ? people.get(filing.recipientContactId) : undefined;
  const agency = owner.agencyId ? people.get(owner.agencyId) : undefined;
  const document = claimLetterDocument(type, claimLetterDetails(type, letter, rules), {
    policyNumber: owner.policyNumber,
    carrier,
    ...(insured ? { addressee: { name: insured.name, ...(mailingAddressOf(insured) ? { address: mailingAddressOf(insured) } : {}) } } : {}),
    ...(agency ? { producer: { agencyName: agency.name, ...(agency.phoneNumbers?.[0]?.phone ? { phone: agency.phoneNumbers[0].phone } : {}) } } : {}),
    issueDate: filing.procDate,
  });
  const pdf = await (await renderer()).renderClaimLetter(document);
  const common: StoreOptions = {
    goDate: filing.goDate,
    procDate: filing.procDate,
    delayPrintDays: filing.delayPrintDays ?? 0,
    printState: filing.printState ?? 'tbd',
    referenceType: 'claims',
    claimId: letter.claimId,
    claimNumber: letter.claimNumber,
    fileName: deliverableFileName(type, letter.claimNumber),
    ...(filing.now ? { now: filing.now } : {}),
  };
  const stored =
    existing ??
    (await storeDeliverable(owner, type, pdf, {
      ...common,
      fileId: filing.fileId,
      label: type,
      title: claimLetterTitle(type, letter.claimNumber),
      recipient: { name: document.addressee.name, address: document.addressee.mailingAddress },
      recipientContactId: filing.recipientContactId,
    }));
  const copy =
    email && owner.agencyId
      ? (existingCopy ??
        (await storeDeliverable(owner, type, pdf, {
          ...common,
          fileId: copyId,
          label: `${type} (agency copy)`,
          title: claimLetterTitle(type, letter.claimNumber, 'agency'),
          recipient: { name: email.name, address: (agency && mailingAddressOf(agency)) ?? { line1: '', city: '', state: '', zip: '' } },
          recipientContactId: owner.agencyId,
          electronicDelivery: true,
          emailTo: email.email,
          emailCc: email.cc,
        })))
      : undefined;
  return { letter: stored, ...(copy ? { copy } : {}), made: true };
}

/** A claim's letter a claim's move asked for, filed once (the consumer's work, as for a policy's document). */
async function renderClaimLetterRequest(request: ClaimLetterRequest, now: Date): Promise<RenderOutcome> {
  const filed = await fileClaimLetter({
    type: request.deliverableType,
    letter: request.claimLetter,
    owner: { policyId: request.policyId, policyNumber: request.policyNumber, revisionId: request.revisionId, agencyId: request.agencyId, contactIds: request.contactIds },
    recipientContactId: request.recipientContactId,
    fileId: request.requestId,
    goDate: request.decisionDate,
    procDate: request.decisionDate,
    now,
  });
  return filed.made ? 'rendered' : 'already rendered';
}

// ---------------------------------------------------------------- the moves of a policy

export type RenderOutcome = 'rendered' | 'already rendered';

/**
 * Renders and stores the deliverable a move requested (the documents consumer's work). The
 * file takes the request's id, so a repeated delivery finds the file and renders nothing
 * again; a failure leaves the request pending, to be retried and then dead-lettered.
 */
export async function renderRequestedDeliverable(requestId: string, now = clock.now()): Promise<RenderOutcome> {
  const request = await getDeliverableRequest(requestId);
  if (!request) throw new NotFoundError(`Deliverable request ${requestId}`);
  if (request.state === 'rendered') return 'already rendered';
  if (request.claimLetter) {
    const outcome = await renderClaimLetterRequest(request, now);
    await markDeliverableRequestRendered(requestId, now.toISOString());
    return outcome;
  }
  let outcome: RenderOutcome = 'already rendered';
  if (!(await getAttachmentRecord(requestId))) {
    const snapshot = await loadRevision(request.renderRevisionId);
    if (!snapshot) throw new NotFoundError(`Revision ${request.renderRevisionId}`);
    const date = request.decisionDate;
    const document = await documentForRevision(snapshot, request.deliverableType, {
      issueDate: date,
      goDate: date,
      ...(request.billingScheduleId ? { billingScheduleId: request.billingScheduleId } : {}),
      ...(request.cancellation ? { cancellation: request.cancellation } : {}),
    });
    if (request.endorsement) document.endorsement = request.endorsement;
    if (request.renewalNotice) document.renewalNotice = request.renewalNotice;
    if (request.reinstatement) document.reinstatement = request.reinstatement;
    const pdf = await renderDeliverablePdf(document);
    const owner: FileOwner = { policyId: request.policyId, policyNumber: request.policyNumber, revisionId: request.revisionId, agencyId: request.agencyId, contactIds: request.contactIds };
    await storeDeliverable(owner, request.deliverableType, pdf, {
      fileId: request.requestId,
      goDate: date,
      procDate: date,
      recipient: recipientOf(document),
      recipientContactId: request.recipientContactId,
      now,
    });
    outcome = 'rendered';
  }
  await markDeliverableRequestRendered(requestId, now.toISOString());
  return outcome;
}
