/** Fixed ids of the reference product (../shared/spec/reference-product.md), as tests name them. */
export const POLICY_TYPE = { HO3: 'd11cfc80-886b-4a1c-8e38-e77ae4256998', DP3: '981ba39c-ae4f-4a9a-9c36-c5e4d5953af7' } as const;

export const SUB_LINE = { SECTION_I: '607cc900-c5b4-4a7e-94eb-d482c2eeb1cf', SECTION_II: '48ce4d35-1ccf-4cd7-b67c-6eda0e204eff' } as const;

export const ITEM = {
  DWELLING: '2deb7d04-daec-47e3-a98a-c9c075598673',
  OTHER_STRUCTURES: '3d53c2b9-6b16-4cd3-99b6-6021399257cb',
  PERSONAL_PROPERTY: '5509dee8-a3c3-433b-aa92-1a7c6a241082',
  LOSS_OF_USE: '582e1ab5-8278-400a-a035-504b52e85e71',
  WATER_BACKUP: '52f30227-604e-4559-9a60-544998a62893',
  PERSONAL_LIABILITY: 'a53d092d-7a2d-42fc-a5b1-8927ae163edf',
  MEDICAL_PAYMENTS: '35d0d678-4008-45a2-b28e-dd483d8a4c04',
  CLAIMS_FREE_DISCOUNT: 'cb8a78f6-ceb8-472e-b993-958dddbd8fa4',
  POLICY_FEE: '7f42b86a-e8b3-4655-96fa-7ccacbd3b502',
} as const;

/** Billing schedules (the reference product's installment plans). */
export const BILLING_SCHEDULE = { MONTHLY: '6b7798d6-de59-4819-803e-6778a2cdc5d9' } as const;

export const UNDERWRITING_QUESTION = { LOSSES_IN_PAST_3_YEARS: 'e29555d3-7101-4947-a3af-a279d8774c09' } as const;
