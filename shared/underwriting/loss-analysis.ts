/**
 * Loss analysis: what a loss-history vendor reports about a revision's properties. The
 * service talks to a vendor only through `LossAnalysisVendor`, so a real vendor's client
 * can replace the built-in one without touching the job that runs it. The built-in vendor
 * is deterministic (the same properties always give the same report), so that quotes can
 * be analysed with no contract in place and tests can state its answers. Pure: no I/O.
 */
import { createHash } from 'node:crypto';

/** One property as a vendor is asked about it: where it is and how it is built. */
export interface PropertyForAnalysis {
  /** How the report names the property (`Property #1`): never its address, which may identify someone. */
  name: string;
  addressLine1?: string;
  addressZip?: string;
  addressState?: string;
  yearBuilt?: string;
  construction?: string;
  protectionClass?: string;
}

export interface LossAnalysisRequest {
  properties: PropertyForAnalysis[];
}

/** What underwriting keeps of a report (StoredLossAnalysis.result). */
export interface LossAnalysisReport {
  lossesReported: boolean;
  /** The claims-free discount applies only when no loss is on file. */
  claimsFreeDiscountApplies: boolean;
  /** Whether an underwriter should look before the quote is bound. */
  referral: boolean;
  summary: string;
}

export interface LossAnalysisVendor {
  readonly name: string;
  analyse(request: LossAnalysisRequest): Promise<LossAnalysisReport>;
}

/** A property scoring this many risk points or more is referred even without a loss on file. */
export const REFERRAL_SCORE = 5;

const CONSTRUCTION_POINTS: Readonly<Record<string, number>> = { frame: 2, masonry: 1, superior: 0 };

/** Risk points of a property: construction, fire protection and age. */
export function riskScore(property: PropertyForAnalysis): number {
  const construction = CONSTRUCTION_POINTS[property.construction?.trim().toLowerCase() ?? ''] ?? 1;
  const protectionClass = Number(property.protectionClass);
  const protection = Number.isInteger(protectionClass) ? (protectionClass >= 9 ? 3 : protectionClass >= 5 ? 1 : 0) : 1;
  const year = Number(property.yearBuilt);
  const age = Number.isInteger(year) && year > 0 && year < 1950 ? 2 : 0;
  return construction + protection + age;
}

/**
 * Losses on file for a property in the built-in vendor's made-up history: one for about a
 * quarter of addresses, chosen by a hash of the address so that it never changes.
 */
export function lossesOnFile(property: PropertyForAnalysis): number {
  const address = `${property.addressLine1 ?? ''}|${property.addressZip ?? ''}|${property.addressState ?? ''}`.trim().toLowerCase();
  if (address === '||') return 0;
  return createHash('sha256').update(address).digest()[0] < 64 ? 1 : 0;
}

export function builtInLossReport(request: LossAnalysisRequest): LossAnalysisReport {
  const findings = request.properties.map((property) => ({ property, losses: lossesOnFile(property), score: riskScore(property) }));
  const withLosses = findings.filter((finding) => finding.losses > 0);
  const highRisk = findings.filter((finding) => finding.score >= REFERRAL_SCORE);
  const lossesReported = withLosses.length > 0;
  const parts = [`${findings.length} ${findings.length === 1 ? 'property' : 'properties'} checked`];
  parts.push(lossesReported ? `losses on file at ${withLosses.map((finding) => finding.property.name).join(', ')}` : 'no losses on file');
  if (highRisk.length) parts.push(`risk score ${REFERRAL_SCORE} or more at ${highRisk.map((finding) => finding.property.name).join(', ')}`);
  return { lossesReported, claimsFreeDiscountApplies: !lossesReported, referral: lossesReported || highRisk.length > 0, summary: `${parts.join('; ')}.` };
}

/** The vendor the service ships with. */
export const builtInLossAnalysisVendor: LossAnalysisVendor = {
  name: 'built-in',
  analyse: async (request) => builtInLossReport(request),
};
