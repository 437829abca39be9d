/**
 * Which vendor and which documents adapter the signature operations use: wired once here
 * for the entry files (the vendor itself in vendor-port.ts; the event consumer and
 * mark_file_as_signed take signed-file-marker.ts, which needs no renderer).
 */
import { signatureVendor } from './vendor-port.js';
import type { SignaturePorts } from './service.js';
import { documentsAdapter } from './documents-adapter.js';

export const signaturePorts: SignaturePorts = { vendor: signatureVendor, documents: documentsAdapter };
