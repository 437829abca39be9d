/**
 * A state's view of the product: its filing merged over the countrywide one, whether and from
 * when the line is written there, its rate versions, and the product as the state sells it
 * (its charges offered, its forms added). Pure: rating, quoting and renewals read these.
 */
import type { ChargeDefinition, NoticeDays, ProductCatalog, RateVersion, StateFiling, TerritoryTable } from './model.js';

export const COUNTRYWIDE = 'countrywide';

/** A state's filing with everything it does not state taken from the countrywide filing. */
export interface ResolvedFiling {
  /** The state code asked about; `countrywide` when the risk has no state. */
  state: string;
  stateName: string;
  /** The filing the state's own rules come from (`countrywide` when the state has none). */
  filedAs: string;
  written: boolean;
  availability: { newBusiness: string; renewal: string } | null;
  territories: TerritoryTable | null;
  charges: ChargeDefinition[];
  noticeDays: Required<NoticeDays>;
  /** The state's rate versions when it files its own, else the countrywide ones. */
  rateVersions: RateVersion[];
}

const DEFAULT_NOTICE_DAYS: Required<NoticeDays> = { nonPaymentCancellation: 10, otherCancellation: 30, nonRenewal: 30, conditionalRenewal: 30 };

export function resolveFiling(product: Pick<ProductCatalog, 'filings' | 'rateVersions'>, state: string | null | undefined): ResolvedFiling {
  const code = state ? state.trim().toUpperCase() : COUNTRYWIDE;
  const filings = product.filings ?? [];
  const countrywide = filings.find((filing) => filing.state === COUNTRYWIDE);
  const own = code === COUNTRYWIDE ? undefined : filings.find((filing) => filing.state === code);
  const pick = <K extends keyof StateFiling>(key: K): StateFiling[K] | undefined => own?.[key] ?? countrywide?.[key];
  const stateVersions = product.rateVersions.filter((version) => version.state === code);
  return {
    state: code,
    stateName: own?.name ?? code,
    filedAs: own ? own.state : COUNTRYWIDE,
    written: pick('written') ?? true,
    availability: pick('availability') ?? null,
    territories: own?.territories ?? countrywide?.territories ?? null,
    charges: pick('charges') ?? [],
    noticeDays: { ...DEFAULT_NOTICE_DAYS, ...countrywide?.noticeDays, ...own?.noticeDays },
    rateVersions: stateVersions.length > 0 ? stateVersions : product.rateVersions.filter((version) => !version.state || version.state === COUNTRYWIDE),
  };
}

/**
 * Why the line may not be written for a risk in the state on the date (new business from the
 * filing's new-business date, renewals from its renewal date); undefined when it may.
 */
export function notWrittenProblem(product: Pick<ProductCatalog, 'filings' | 'rateVersions' | 'lines'>, filing: ResolvedFiling, question: { date: string; basis: 'new_business' | 'renewal' }): string | undefined {
  const line = product.lines[0]?.name ?? 'the line';
  const where = filing.state === COUNTRYWIDE ? '' : ` in ${filing.stateName} (${filing.state})`;
  if (!filing.written) return `the ${line} line is not written${where}`;
  const from = question.basis === 'renewal' ? filing.availability?.renewal : filing.availability?.newBusiness;
  if (from && question.date < from) {
    return `the ${line} line is written${where} for ${question.basis === 'renewal' ? 'renewals' : 'new business'} from ${from}, not on ${question.date}`;
  }
  return undefined;
}

/**
 * The product as the state sells it: its charges offered automatically on every policy type
 * (the other states' charges on none), its forms after the line's. The same object when the
 * state adds nothing.
 */
export function productForFiling(product: ProductCatalog, filing: ResolvedFiling): ProductCatalog {
  const charged = new Set(filing.charges.map((charge) => charge.id));
  const stateForms = (product.filings ?? []).filter((entry) => entry.state === filing.filedAs || entry.state === COUNTRYWIDE).flatMap((entry) => entry.forms ?? []);
  if (charged.size === 0 && stateForms.length === 0) return product;
  const automatic = Object.fromEntries(product.policyTypes.map((type) => [type.id, 'automatic' as const]));
  return {
    ...product,
    items: product.items.map((item) => (charged.has(item.id) ? { ...item, availability: automatic } : item)),
    forms: [...product.forms, ...stateForms.filter((form) => !product.forms.some((known) => known.id === form.id))],
  };
}


/**
 * How many days before a term ends its renewal is decided in the state: the carrier's lead days,
 * or the state's non-renewal or conditional-renewal notice where that is longer, so that the
 * renewal is not made while the insurer could still give notice of not renewing.
 */
export function renewalLeadDays(filing: Pick<ResolvedFiling, 'noticeDays'>, carrierLeadDays: number): number {
  return Math.max(carrierLeadDays, filing.noticeDays.nonRenewal, filing.noticeDays.conditionalRenewal);
}

/** The longest renewal lead of any state the product files: how far ahead the nightly run reads the renewal watch. */
export function longestRenewalLeadDays(product: Pick<ProductCatalog, 'filings' | 'rateVersions'>, carrierLeadDays: number): number {
  const states = [COUNTRYWIDE, ...(product.filings ?? []).map((filing) => filing.state)];
  return Math.max(carrierLeadDays, ...states.map((state) => renewalLeadDays(resolveFiling(product, state === COUNTRYWIDE ? null : state), carrierLeadDays)));
}
