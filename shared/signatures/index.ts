/**
 * The signatures area's public face: what entry files and other areas may use of it. Anything not
 * exported here (its store, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { SIGNING_PAGE_PATH } from './builtin-vendor.js';
export { SIGNATURE_EVENT_TYPES } from './model.js';
export { signaturePorts } from './ports.js';
export { queuedSignatureEventMessage } from './queued-event.js';
export { type QueuedSignatureEvent, applyQueuedSignatureEvent, cancelSignatureRequest, markFileAsSigned, requestDeliverableSignature, retrieveFilesPendingSignature, retrieveSignatureRequests, signableDeliverableNames } from './service.js';
export { signedFileMarker } from './signed-file-marker.js';
export { serveSigningPage } from './signing-page.js';
export { signatureVendor } from './vendor-port.js';
export { queueSignatureEvent, verifyVendorWebhook } from './webhook.js';
export { signWebhook } from './webhook-signature.js';
export { singleMessageAnswer } from './wire.js';
