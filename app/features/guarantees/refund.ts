// One customer's guarantee payout as the payout file and underlag print it.
export type Refund = {
  customerId: number;
  name: string;
  address: string;
  coAddress: string;
  zip: string;
  city: string;
  email: string;
  orgNumber: string;
  bankgiro: string;
  bankAccount: string;
  refundDate: string;
  /** The customer row's version: changes with every saved bank detail. */
  version?: number;
  /** Each added amount with its own payment date (a customer's usually share one). */
  amounts: { guaranteeId: number; ledger: number; paper: string; amountOre: number; refundDate?: string }[];
};
