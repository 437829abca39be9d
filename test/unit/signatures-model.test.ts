import { describe, expect, it } from 'vitest';
import { UnknownSignerError, applySignatureEvent, signatureEventKey, type SignatureEvent, type SignatureRequest } from '../../shared/signatures/model.js';

function request(): SignatureRequest {
  return {
    id: 'sr-1',
    is_canceled: false,
    is_complete: false,
    is_embedded: true,
    doc_type: 'Policy Application',
    policy_id: 'p-1',
    policy_number: '10-2026-1',
    file_id: 'f-1',
    signatures: [
      { id: 's-1', iframe_url: 'https://sign.example/1', signer_email_address: 'jordan@example.com', signer_name: 'Jordan Avery', status_code: 'awaiting_signature' },
      { id: 's-2', iframe_url: 'https://sign.example/2', signer_email_address: 'pat@example.com', signer_name: 'Pat Lee', status_code: 'awaiting_signature' },
    ],
  };
}

const signed = (signer_name: string, occurred_at: string): SignatureEvent => ({ event_type: 'signed', signer_name, occurred_at });

describe('applying signature events', () => {
  it('marks each signer and completes the request when the last one signs', () => {
    const first = applySignatureEvent(request(), signed('Jordan Avery', '2026-07-01T10:00:00Z'));
    expect(first).toMatchObject({ changed: true, status: 'awaiting_signature', completed: false });
    expect(first.request.signatures.map((signature) => signature.status_code)).toEqual(['signed', 'awaiting_signature']);
    const second = applySignatureEvent(first.request, signed(' pat lee ', '2026-07-01T11:00:00Z'));
    expect(second).toMatchObject({ changed: true, status: 'all_signed', completed: true });
    expect(second.request).toMatchObject({ is_complete: true, modified_at: '2026-07-01T11:00:00Z' });
    expect(second.request.signatures[1].signed_at).toBe('2026-07-01T11:00:00Z');
  });

  it('changes nothing when the same event is delivered again', () => {
    const once = applySignatureEvent(request(), signed('Jordan Avery', '2026-07-01T10:00:00Z'));
    const twice = applySignatureEvent(once.request, signed('Jordan Avery', '2026-07-01T10:05:00Z'));
    expect(twice.changed).toBe(false);
    expect(twice.request).toBe(once.request);
    const done = applySignatureEvent(request(), { event_type: 'all_signed', occurred_at: '2026-07-01T12:00:00Z' });
    expect(done).toMatchObject({ status: 'all_signed', completed: true });
    const again = applySignatureEvent(done.request, { event_type: 'all_signed', occurred_at: '2026-07-01T12:01:00Z' });
    expect(again).toMatchObject({ changed: false, completed: false, status: 'all_signed' });
  });

  it('keeps a completed request signed when a late cancel arrives, and a canceled one unsigned', () => {
    const done = applySignatureEvent(request(), { event_type: 'all_signed', occurred_at: '2026-07-01T12:00:00Z' }).request;
    expect(applySignatureEvent(done, { event_type: 'canceled', occurred_at: '2026-07-01T13:00:00Z' }).changed).toBe(false);
    const canceled = applySignatureEvent(request(), { event_type: 'canceled', occurred_at: '2026-07-01T09:00:00Z' });
    expect(canceled).toMatchObject({ changed: true, status: 'canceled' });
    expect(canceled.request.signatures.map((signature) => signature.status_code)).toEqual(['canceled', 'canceled']);
    const late = applySignatureEvent(canceled.request, signed('Jordan Avery', '2026-07-01T10:00:00Z'));
    expect(late).toMatchObject({ changed: false, status: 'canceled', completed: false });
  });

  it('records the created event once and leaves the input request untouched', () => {
    const original = request();
    const created = applySignatureEvent(original, { event_type: 'created', occurred_at: '2026-07-01T08:00:00Z' });
    expect(created.request.created_at).toBe('2026-07-01T08:00:00Z');
    expect(original.created_at).toBeUndefined();
    expect(applySignatureEvent(created.request, { event_type: 'created', occurred_at: '2026-07-01T08:30:00Z' }).changed).toBe(false);
  });

  it('refuses a signed event for someone not on the request', () => {
    expect(() => applySignatureEvent(request(), signed('Somebody Else', '2026-07-01T10:00:00Z'))).toThrow(UnknownSignerError);
  });

  it('keys events by request, type and (for signed) signer, for de-duplication', () => {
    expect(signatureEventKey('sr-1', signed('Jordan Avery', 'x'))).toBe('sr-1#signed#jordan avery');
    expect(signatureEventKey('sr-1', { event_type: 'signed', signer_email_address: 'Jordan@Example.com', signer_name: 'J', occurred_at: 'x' })).toBe('sr-1#signed#jordan@example.com');
    expect(signatureEventKey('sr-1', { event_type: 'all_signed', occurred_at: 'x' })).toBe('sr-1#all_signed');
  });
});
