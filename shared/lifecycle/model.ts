export interface CommittedRevision { policyId: string; policyNumber: string; termId: string; revisionId: string;
  policyTypeId: string; effectiveDate: string; expirationDate: string; commitDate: string;
  annualPremiumCents: number; annualFeeCents: number; writtenPremiumCents: number; writtenFeeCents: number;
  billingScheduleId?: string; agencyId?: string; namedInsuredContactIds: string[] }
export interface TransactionWrite { Put?: unknown; Update?: unknown; Delete?: unknown; ConditionCheck?: unknown } // lib-dynamodb TransactWriteCommand item
export type IssueContribution = (committed: CommittedRevision) => Promise<TransactionWrite[]>;
