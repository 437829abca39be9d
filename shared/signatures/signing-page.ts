/**
 * The built-in vendor's signing page, behind each signature's iframe_url: GET shows the
 * document itself (embedded, and linked), the signer and a form; POST (the form) records the
 * signature at the vendor, which reports it by a signed webhook. The document is served at
 * the same link with `view=document`: the signing token is the only key to it. Transport-free:
 * the local server and the esign Lambda (infra/esign) both hand it the request and send back
 * what it answers.
 */
import { storedFileContent } from '../documents/index.js';
import { signAtVendor, signingPageView, SIGNING_PAGE_PATH } from './builtin-vendor.js';

export interface SigningPageRequest {
  method: string;
  query: URLSearchParams;
  /** The form body of a POST (application/x-www-form-urlencoded). */
  body: string;
}

export interface SigningPageResponse {
  statusCode: number;
  headers: Record<string, string>;
  /** Text, or base64 of the bytes when isBase64Encoded (the document itself). */
  body: string;
  isBase64Encoded?: boolean;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);

function page(statusCode: number, title: string, content: string): SigningPageResponse {
  return {
    statusCode,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // Meant to be embedded (iframe) by the carrier's portal; no script of its own; it embeds its own document.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-src 'self'; object-src 'self'",
      'referrer-policy': 'no-referrer',
    },
    body: `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escape(title)}</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem; color: #1d2733; }
    h1 { font-size: 1.4rem; } iframe.document-view { width: 100%; height: 32rem; border: 1px solid #c9d2dc; }
    .document { border: 1px solid #c9d2dc; padding: 1rem; border-radius: 6px; background: #f7f9fb; }
    label { display: block; margin: 1rem 0 .3rem; } input[type=text] { width: 100%; padding: .5rem; font-size: 1rem; }
    button { margin-top: 1rem; padding: .6rem 1.4rem; font-size: 1rem; background: #1f5fa8; color: #fff; border: 0; border-radius: 4px; }
    .done { color: #1b6e35; }
  </style>
</head>
<body>
${content}
</body>
</html>`,
  };
}

const notFound = () => page(404, 'Signing link not valid', '<h1>This signing link is not valid</h1><p>Ask the sender for a new link.</p>');

export async function serveSigningPage(request: SigningPageRequest): Promise<SigningPageResponse> {
  const form = request.method === 'POST' ? new URLSearchParams(request.body) : request.query;
  const signatureId = form.get('signature') ?? '';
  const token = form.get('token') ?? '';
  if (request.method === 'POST') {
    // The typed name is the signer's act of signing; it must be the name on the request.
    const view = await signingPageView(signatureId, token);
    if (!view) return notFound();
    const typed = (form.get('typed_name') ?? '').trim().toLowerCase();
    if (!form.get('agree') || typed !== view.signer.name.trim().toLowerCase()) {
      return signingForm(view, token, 'Tick the box and type your name exactly as shown to sign.');
    }
    const outcome = await signAtVendor(signatureId, token);
    if (outcome === 'not found') return notFound();
    if (outcome === 'canceled') return page(410, 'Signature request cancelled', '<h1>This signature request was cancelled</h1>');
    return page(
      200,
      'Signed',
      `<h1 class="done" id="signed-confirmation">Thank you, ${escape(view.signer.name)}: ${escape(view.record.title)} is signed.</h1><p>You can close this page.</p>`,
    );
  }
  const view = await signingPageView(signatureId, token);
  if (view && request.query.get('view') === 'document') return theDocument(view);
  return view ? signingForm(view, token) : notFound();
}

/** The document to sign, to the holder of the signing link only. */
async function theDocument(view: NonNullable<Awaited<ReturnType<typeof signingPageView>>>): Promise<SigningPageResponse> {
  if (view.record.canceled) return page(410, 'Signature request cancelled', '<h1>This signature request was cancelled</h1>');
  const content = await storedFileContent(view.record.fileId);
  if (!content) return page(404, 'Document not found', '<h1>The document is no longer available</h1><p>Ask the sender for a new link.</p>');
  const fileName = `${content.title.replace(/[^A-Za-z0-9 ._-]/g, '').trim() || 'document'}.pdf`;
  return {
    statusCode: 200,
    headers: {
      'content-type': content.contentType,
      'content-disposition': `inline; filename="${fileName}"`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    },
    body: Buffer.from(content.bytes).toString('base64'),
    isBase64Encoded: true,
  };
}

const documentUrl = (signatureId: string, token: string) =>
  `${SIGNING_PAGE_PATH}?signature=${encodeURIComponent(signatureId)}&token=${encodeURIComponent(token)}&view=document`;

function signingForm(view: NonNullable<Awaited<ReturnType<typeof signingPageView>>>, token: string, problem?: string): SigningPageResponse {
  const { record, signer } = view;
  if (record.canceled) return page(410, 'Signature request cancelled', '<h1>This signature request was cancelled</h1>');
  if (signer.signedAt) {
    return page(200, 'Already signed', `<h1 class="done" id="signed-confirmation">${escape(record.title)} is already signed by ${escape(signer.name)}.</h1>`);
  }
  return page(
    problem ? 422 : 200,
    `Sign: ${record.title}`,
    `<h1>Please sign: ${escape(record.title)}</h1>
<p>Read the document before you sign it (<a id="document-link" href="${escape(documentUrl(signer.signatureId, token))}" target="_blank" rel="noopener">open it in a new window</a>):</p>
<iframe class="document-view" id="document-view" title="${escape(record.title)}" src="${escape(documentUrl(signer.signatureId, token))}"></iframe>
<div class="document"><p>Signer: <strong id="signer-name">${escape(signer.name)}</strong></p>
<p>By signing you confirm that the statements in this application are true and complete to the best of your knowledge.</p></div>
${problem ? `<p role="alert">${escape(problem)}</p>` : ''}
<form method="post" action="${SIGNING_PAGE_PATH}">
  <input type="hidden" name="signature" value="${escape(signer.signatureId)}">
  <input type="hidden" name="token" value="${escape(token)}">
  <label><input type="checkbox" name="agree" value="yes" id="agree"> I have read the application and agree to sign it electronically</label>
  <label for="typed_name">Type your full name to sign</label>
  <input type="text" name="typed_name" id="typed_name" autocomplete="name" required>
  <button type="submit" id="sign">Sign</button>
</form>`,
  );
}
