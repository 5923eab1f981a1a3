// Avstämning's shapes and the one sum its screen makes (decision 033): client-safe.
import { vatOnBase } from "~/lib/money";

export type Figure = { copies: number; ore: number };
export type ReconcileRow = {
  /** "1/0" (title/paper type) or the customer id. */
  key: string;
  titleId: number | null;
  paperType: number | null;
  customerId: number | null;
  label: string;
  delivered: Figure;
  returnedInTime: Figure;
  returnedLate: Figure;
  claims: Figure;
  billed: Figure;
  credited: Figure;
  pending: Figure;
  creditNotes: Figure;
  /** Left minus right of the identity: 0 when every copy is accounted for. */
  difference: Figure;
};

export type Reconciliation = {
  from: string;
  to: string;
  by: "title" | "customer";
  rows: ReconcileRow[];
  total: ReconcileRow;
  /** Invoice runs whose period reaches outside [from, to]: their lines cannot be split by it. */
  straddling: { from: string; to: string }[];
  /** Extra and order lines billed on the period's invoices (outside the identity), net öre. */
  otherLinesOre: number;
};

/** A figure's kronor with the newspapers' VAT (6 %), as the invoices charge it. */
export function withVat(ore: number): number {
  return ore + vatOnBase(ore, 60);
}
