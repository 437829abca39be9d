/**
 * Which vendor and which documents adapter the signature operations use: wired once here
 * for the entry files and the event consumer, so that swapping the vendor is one line.
 */
import { builtInVendor } from './builtin-vendor.js';
import type { SignaturePorts } from './service.js';
import { documentsAdapter } from './documents-adapter.js';

export const signaturePorts: SignaturePorts = { vendor: builtInVendor, documents: documentsAdapter };
