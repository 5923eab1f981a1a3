// Constants of the back-office screens shared by the domain modules and the
// route components (which must not import *.server modules).

// Bundle tables: 10 per page (back-office 9).
export const BUNDLE_PAGE_SIZE = 10;

// Invoice lines (back-office 9).
export const MAGAZINES = ["Aftonbladet", "Expressen"] as const;
export const PRODUCT_GROUPS = ["Exponeringsutrustning", "Huvudtidning", "Bilaga"] as const;
export const VAT_OPTIONS = [0, 6, 12, 25] as const;
export const PAGE_SIZES = [10, 25, 50] as const;

// Publisher ledgers: 83 Aftonbladet, 80 Expressen.
export const LEDGER_TITLE = { 83: "Aftonbladet", 80: "Expressen" } as const;
export type Ledger = keyof typeof LEDGER_TITLE;
export const LEDGERS: Ledger[] = [83, 80];
