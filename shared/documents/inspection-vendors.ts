/**
 * Inspection vendors behind one interface, so that a carrier's vendor (a web service) can
 * replace the built-in one without touching the operations. The built-in vendor accepts
 * every order at once and answers its own reference: it is what a new installation, the
 * local service and the tests use.
 */
import { createHash } from 'node:crypto';

export interface InspectionOrder {
  inspectionId: string;
  policyNumber: string;
  propertyName: string;
  address: { line1: string; line2?: string; city: string; state: string; zip: string };
  reportType?: string;
  primaryCoverage?: { name: string; limitCents: number | null };
  supplements?: string;
  specialInstructions?: string;
  additionalComments?: string;
  commercial: boolean;
}

export interface InspectionVendor {
  /** The name clients send as `vendor`. */
  name: string;
  requestInspection(order: InspectionOrder): Promise<{ reference: string; status: 'requested' | 'scheduled' }>;
}

export const builtInInspectionVendor: InspectionVendor = {
  name: 'Built-in',
  async requestInspection(order) {
    // The reference is derived from the order id, so asking again for the same order gives the same reference.
    const digest = createHash('sha256').update(order.inspectionId).digest('hex').slice(0, 10).toUpperCase();
    return { reference: `INSP-${digest}`, status: 'requested' };
  },
};

const VENDORS: readonly InspectionVendor[] = [builtInInspectionVendor];

const comparable = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The vendor of that name (case, spaces and dashes do not matter); the built-in one when none is named. */
export function inspectionVendor(name: string | undefined): InspectionVendor | undefined {
  if (!name) return builtInInspectionVendor;
  return VENDORS.find((vendor) => comparable(vendor.name) === comparable(name) || comparable(name) === 'builtin' || comparable(name) === 'default');
}

export const inspectionVendorNames = () => VENDORS.map((vendor) => vendor.name);
