/**
 * Electronic signatures: the signature request as the API shows it (spec 2.11, snake_case
 * wire names kept), the vendor's events, and the pure rule that applies an event to a
 * request. Vendors deliver events at least once and not always in order, so applying an
 * event twice, or an event the request has already moved past, changes nothing.
 */

/** A signer's standing on a request. */
export const SIGNATURE_STATUS_CODES = ['awaiting_signature', 'signed', 'canceled'] as const;
export type SignatureStatusCode = (typeof SIGNATURE_STATUS_CODES)[number];

export const SIGNATURE_EVENT_TYPES = ['created', 'signed', 'all_signed', 'canceled'] as const;
export type SignatureEventType = (typeof SIGNATURE_EVENT_TYPES)[number];

/** Where the request as a whole stands. */
export type SignatureRequestStatus = 'awaiting_signature' | 'all_signed' | 'canceled';

export interface Signature {
  id: string;
  iframe_url: string;
  signer_email_address: string;
  signer_name: string;
  status_code: SignatureStatusCode;
  created_at?: string;
  signed_at?: string;
}

export interface SignatureRequest {
  id: string;
  is_canceled: boolean;
  is_complete: boolean;
  is_embedded: boolean;
  doc_type: string;
  created_at?: string;
  file_id?: string;
  files_url?: string;
  has_error?: boolean;
  message?: string;
  modified_at?: string;
  policy_id?: string;
  policy_number?: string;
  requester_email_address?: string;
  signing_url?: string;
  subject?: string;
  title?: string;
  signatures: Signature[];
}

/** One vendor event, as `application_signature_event_callback` receives it, plus when it happened. */
export interface SignatureEvent {
  event_type: SignatureEventType;
  /** Who signed (for `signed`); matched by email when given, else by name. */
  signer_name?: string;
  signer_email_address?: string;
  signature_url?: string;
  file_id?: string;
  policy_id?: string;
  /** ISO timestamp of the event at the vendor. */
  occurred_at: string;
}

export class UnknownSignerError extends Error {
  constructor(readonly requestId: string) {
    super(`The signer is not on signature request ${requestId}`);
    this.name = 'UnknownSignerError';
  }
}

export function isSignatureEventType(value: unknown): value is SignatureEventType {
  return typeof value === 'string' && (SIGNATURE_EVENT_TYPES as readonly string[]).includes(value);
}

export function signatureRequestStatus(request: SignatureRequest): SignatureRequestStatus {
  if (request.is_complete) return 'all_signed';
  return request.is_canceled ? 'canceled' : 'awaiting_signature';
}

const comparable = (text: string | undefined) => (text ?? '').trim().toLowerCase();

/**
 * The natural key that de-duplicates deliveries: one event per request and type, and for
 * `signed` one per signer.
 */
export function signatureEventKey(requestId: string, event: SignatureEvent): string {
  const signer = event.event_type === 'signed' ? `#${comparable(event.signer_email_address) || comparable(event.signer_name)}` : '';
  return `${requestId}#${event.event_type}${signer}`;
}

export interface SignatureEventOutcome {
  request: SignatureRequest;
  /** False when the event was a duplicate or came after the request had moved past it. */
  changed: boolean;
  status: SignatureRequestStatus;
  /** This very event made the request complete: the moment to mark the file as signed. */
  completed: boolean;
}

function findSigner(request: SignatureRequest, event: SignatureEvent): number {
  const email = comparable(event.signer_email_address);
  const name = comparable(event.signer_name);
  const index = request.signatures.findIndex((signature) =>
    email !== '' ? comparable(signature.signer_email_address) === email : name !== '' && comparable(signature.signer_name) === name,
  );
  if (index < 0) throw new UnknownSignerError(request.id);
  return index;
}

function signedBy(signature: Signature, at: string): Signature {
  return signature.status_code === 'signed' ? signature : { ...signature, status_code: 'signed', signed_at: at };
}

/** The request after the event (a new object; the input is left as it was). */
function applied(request: SignatureRequest, event: SignatureEvent): SignatureRequest {
  const at = event.occurred_at;
  switch (event.event_type) {
    case 'created':
      return request.created_at ? request : { ...request, created_at: at };
    case 'signed': {
      const index = findSigner(request, event);
      if (request.signatures[index].status_code === 'signed') return request;
      const signatures = request.signatures.map((signature, position) => (position === index ? signedBy(signature, at) : signature));
      return { ...request, signatures, is_complete: signatures.every((signature) => signature.status_code === 'signed') };
    }
    case 'all_signed':
      return { ...request, signatures: request.signatures.map((signature) => signedBy(signature, at)), is_complete: true };
    case 'canceled': {
      const signatures = request.signatures.map((signature): Signature => (signature.status_code === 'signed' ? signature : { ...signature, status_code: 'canceled' }));
      return { ...request, signatures, is_canceled: true };
    }
  }
}

/**
 * Applies a vendor event. A completed request stays complete (a late `canceled` does not
 * undo signatures) and a canceled one takes no more signatures; a repeated event is a no-op.
 */
export function applySignatureEvent(request: SignatureRequest, event: SignatureEvent): SignatureEventOutcome {
  const settled = request.is_complete || (request.is_canceled && event.event_type !== 'created');
  const next = settled ? request : applied(request, event);
  const changed = JSON.stringify(next) !== JSON.stringify(request);
  const result = changed ? { ...next, modified_at: event.occurred_at } : request;
  return { request: result, changed, status: signatureRequestStatus(result), completed: !request.is_complete && result.is_complete };
}
