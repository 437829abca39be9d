/**
 * Which signature vendor the service uses: wired once here (ports.ts hands it on with the
 * documents adapter), so that swapping the vendor is one line. Operations that need only the
 * vendor import this and not ports.ts, which would bundle the renderer with the adapter.
 */
import { builtInVendor } from './builtin-vendor.js';
import type { SignatureVendor } from './vendor.js';

export const signatureVendor: SignatureVendor = builtInVendor;
