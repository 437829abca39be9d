/**
 * Deliverables: a revision rendered as a PDF of one deliverable type, stored in the bucket
 * and recorded as a file of its policy, queued for the print run on its print date.
 *
 * For other areas (the signatures area, the moves of a policy):
 * - `storeDeliverable(policy, type, pdfBytes, options)` stores given bytes as a file of the policy;
 * - `renderRevisionDeliverable(revisionId, type, options)` renders a revision without storing it;
 * - `createRevisionDeliverable(revisionId, type, options)` renders and stores it (e.g. the Policy Application);
 * - `markAttachmentSigned(fileId)` (store.ts) flags a file `esigned`;
 * - `declarationAtIssue` / `noticeOfCancellation` are the contributions to issue and cancel_policy.
 */
import { createHash, randomUUID } from 'node:crypto';
import { installmentsFor, billableItems } from '../billing/schedules.js';
import { returnPremium } from '../billing/cancellation.js';
import type { BillingRules, BillingScheduleDefinition, CancellationRules, CancelReason } from '../catalog/model.js';
import { getCatalogRecord, getProductCatalog, listCatalog } from '../catalog/store.js';
import { getContacts } from '../contacts/store.js';
import { getContactSummaries } from '../contacts/summaries.js';
import type { CancelledTerm, CommittedRevision, TransactionWrite } from '../lifecycle/model.js';
import { revisionWithinReach } from '../policies/access.js';
import type { RevisionSnapshot } from '../policies/model.js';
import { getPolicy, loadRevision } from '../policies/store.js';
import { formsAttached } from '../rating/forms.js';
import { todayIso } from '../platform/dates.js';
import { isConditionalCheckFailure } from '../platform/dynamo.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { toCents } from '../platform/money.js';
import { reaches, type Principal } from '../platform/principal.js';
import { DEFAULT_CARRIER, deliverableFileName, policyDocumentFrom, recipientOf } from './assemble.js';
import { renderDeliverableHtml } from './html.js';
import {
  isDeliverableType,
  type AttachmentRecord,
  type BillingDetails,
  type CancellationDetails,
  type Carrier,
  type DeliverableType,
  type MailingAddress,
  type PolicyDocument,
  type PrintState,
} from './model.js';
import { InvalidPrintScheduleError, printDate } from './print-dates.js';
import { renderDeliverablePdf } from './render/index.js';
import {
  attachmentPut,
  bucketUrl,
  deleteAttachmentRecord,
  deleteFileBytes,
  fileFolder,
  getAttachmentRecord,
  getFileBytes,
  objectKeyOf,
  putAttachmentRecord,
  putFileBytes,
} from './store.js';

export { markAttachmentSigned, listPolicyAttachments, getAttachmentRecord } from './store.js';

const FULL_PAY_LABEL = 'Full Pay';
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
  referenceType?: 'policies' | 'claims';
  claimNumber?: string;
  claimId?: string;
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
export function prepareFile(owner: FileOwner, type: DeliverableType | null, bytes: Uint8Array, options: StoreOptions = {}): PreparedFile {
  const now = options.now ?? new Date();
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
    parentId: options.parentId ?? null,
    childrenIds: [],
    esigned: false,
    goDate,
    procDate: options.procDate ?? today,
    createdAt: now.toISOString(),
    ...(options.claimNumber ? { claimNumber: options.claimNumber } : {}),
    ...(options.claimId ? { claimId: options.claimId } : {}),
  };
  return { record, bytes };
}

/**
 * Stores bytes as a file of the policy: the bucket first, then the record, so a record
 * never points at nothing (a failed record write leaves an unreferenced object only).
 */
export async function storeDeliverable(owner: FileOwner, type: DeliverableType | null, bytes: Uint8Array, options: StoreOptions = {}): Promise<AttachmentRecord> {
  const prepared = prepareFile(owner, type, bytes, options);
  await putFileBytes(prepared.record.objectKey, bytes, prepared.record.contentType);
  try {
    await putAttachmentRecord(prepared.record);
  } catch (error) {
    // A concurrent retry with the same idempotency key stored it first: its answer stands.
    const first = options.fileId && isConditionalCheckFailure(error) ? await getAttachmentRecord(options.fileId) : undefined;
    if (first) return first;
    throw error;
  }
  return prepared.record;
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

async function carrierIdentity(): Promise<Carrier> {
  const settings = await getCatalogRecord<{ carrierName?: string; carrierAddress?: MailingAddress; carrierPhone?: string }>('CARRIER');
  if (settings?.carrierName && settings.carrierAddress) {
    return { name: settings.carrierName, address: settings.carrierAddress, ...(settings.carrierPhone ? { phone: settings.carrierPhone } : {}) };
  }
  return DEFAULT_CARRIER;
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

async function billingPlan(snapshot: RevisionSnapshot, scheduleId: string | undefined, goDate: string | undefined, type: DeliverableType): Promise<BillingDetails | undefined> {
  const [schedules, rules, product] = await Promise.all([
    listCatalog<BillingScheduleDefinition>('BILLINGSCHEDULE'),
    getCatalogRecord<BillingRules>('BILLINGRULES'),
    getProductCatalog(),
  ]);
  const schedule = schedules.find((candidate) => candidate.id === scheduleId) ?? schedules.find((candidate) => candidate.label === FULL_PAY_LABEL) ?? schedules[0];
  if (!schedule || !rules) return undefined;
  const lineItems = snapshot.items.filter((item) => item.persistStatus !== 'rejected').map((item) => ({
    itemId: item.itemId,
    name: item.name,
    writtenPremiumCents: item.annualPremiumCents,
    writtenFeeCents: item.annualFeeCents,
  }));
  const installments = installmentsFor(schedule, rules, billableItems(lineItems, product.items), snapshot.header.termStart);
  const billing: BillingDetails = {
    scheduleLabel: schedule.label,
    installments: installments.map((installment) => ({ number: installment.number, billDate: installment.billDate, dueDate: installment.dueDate, amount: installment.amountDueCents })),
  };
  if (type === 'Installment Billing Statement') {
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
  const needsBilling = type !== 'Notice of Cancellation';
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
  revision_id: string;
  deliverable_type: string;
  go_date?: string;
  reference_type?: 'policies' | 'claims';
  proc_date?: string;
  reason?: string;
  claim_number?: string;
  claim_id?: string;
  delay_print_days?: number;
  print_state?: PrintState;
}

export async function createDeliverable(principal: Principal, input: CreateDeliverableInput, idempotencyKey?: string) {
  if (!isDeliverableType(input.deliverable_type)) {
    throw new BusinessRuleError(`deliverable_type: must be one of Declaration, Policy Application, Quote Summary, Installment Billing Statement, Notice of Cancellation, Endorsement Declaration`);
  }
  const type = input.deliverable_type;
  const snapshot = await revisionWithinReach(principal, input.revision_id);
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
    ...(input.claim_number ? { claimNumber: input.claim_number } : {}),
    ...(input.claim_id ? { claimId: input.claim_id } : {}),
    ...(fileId ? { fileId } : {}),
  });
  return { deliverable_url: deliverableUrl(record), file_id: record.fileId };
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

/** A file within the caller's reach, with its bytes; removed afterwards when asked to. */
export async function attachmentForViewing(principal: Principal, fileId: string, deleteOnView: boolean) {
  const record = await getAttachmentRecord(fileId);
  if (!record || (record as { deleted?: boolean }).deleted || !reaches(principal, record)) throw new NotFoundError(`File ${fileId}`);
  const bytes = await getFileBytes(record.objectKey);
  if (!bytes) throw new NotFoundError(`File ${fileId}`);
  if (deleteOnView) {
    await deleteAttachmentRecord(fileId);
    await deleteFileBytes(record.objectKey);
  }
  return { record, bytes };
}

// ---------------------------------------------------------------- the moves of a policy

/**
 * The Declaration at issue: rendered from the committed revision and put in the bucket
 * before the move's transaction; its file record is a write of that transaction, so an
 * issue that fails leaves no Declaration on the policy (only an unreferenced object).
 */
export async function declarationAtIssue(committed: CommittedRevision): Promise<TransactionWrite[]> {
  const snapshot = await loadRevision(committed.revisionId);
  if (!snapshot) throw new NotFoundError(`Revision ${committed.revisionId}`);
  const document = await documentForRevision(snapshot, 'Declaration', {
    issueDate: committed.commitDate,
    goDate: committed.commitDate,
    ...(committed.billingScheduleId ? { billingScheduleId: committed.billingScheduleId } : {}),
  });
  const pdf = await renderDeliverablePdf(document);
  const prepared = prepareFile(ownerOf(snapshot), 'Declaration', pdf, {
    goDate: committed.commitDate,
    procDate: committed.commitDate,
    recipient: recipientOf(document),
    recipientContactId: committed.namedInsuredContactIds[0] ?? null,
  });
  await putFileBytes(prepared.record.objectKey, pdf, prepared.record.contentType);
  return [attachmentPut(prepared.record)];
}

/**
 * The Notice of Cancellation, recorded in the cancellation's transaction: ahead of the date
 * when a cancellation is set pending (non-payment, or a pending date), saying the policy will
 * end; and when it takes effect, rendered from the revision carrying it, with its return premium.
 */
export async function noticeOfCancellation(cancelled: CancelledTerm): Promise<TransactionWrite[]> {
  const snapshot = await loadRevision(cancelled.inForceRevisionId);
  if (!snapshot) throw new NotFoundError(`Revision ${cancelled.inForceRevisionId}`);
  const today = todayIso();
  const document = await documentForRevision(snapshot, 'Notice of Cancellation', {
    issueDate: today,
    cancellation: { reason: cancelled.reason, cancelDate: cancelled.cancelDate, returnPremium: cancelled.returnPremiumCents, pending: cancelled.outcome === 'pending' },
  });
  const pdf = await renderDeliverablePdf(document);
  const policy = await getPolicy(cancelled.policyId);
  const owner: FileOwner = policy
    ? { policyId: policy.id, policyNumber: policy.policyNumber, revisionId: cancelled.revisionId, agencyId: policy.agencyId, contactIds: policy.contactIds }
    : ownerOf(snapshot);
  const prepared = prepareFile(owner, 'Notice of Cancellation', pdf, {
    goDate: today,
    recipient: recipientOf(document),
    recipientContactId: cancelled.namedInsuredContactIds[0] ?? null,
  });
  await putFileBytes(prepared.record.objectKey, pdf, prepared.record.contentType);
  return [attachmentPut(prepared.record)];
}
