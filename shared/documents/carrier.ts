/**
 * The carrier a document is from (its name, address and phone, as the catalog's CARRIER record
 * sets them; the reference carrier until one does). A module of its own so that what renders a
 * report on demand (report-pdf.ts) reads it without bundling the deliverables' service.
 */
import { getCatalogRecord } from '../catalog/index.js';
import { DEFAULT_CARRIER } from './assemble.js';
import type { Carrier, MailingAddress } from './model.js';

export async function carrierIdentity(): Promise<Carrier> {
  const settings = await getCatalogRecord<{ carrierName?: string; carrierAddress?: MailingAddress; carrierPhone?: string }>('CARRIER');
  if (settings?.carrierName && settings.carrierAddress) {
    return { name: settings.carrierName, address: settings.carrierAddress, ...(settings.carrierPhone ? { phone: settings.carrierPhone } : {}) };
  }
  return DEFAULT_CARRIER;
}
