// The retailer's bundle forms' texts and field names, apart from their zod schemas
// (schemas.ts): the start page and the confirm step use these, and a module without zod
// keeps the validation library out of their JavaScript (tests/e2e/js-budget.http.spec.ts).
export const CLOSE_REFUSED = "Bunten kunde inte stängas. Den är redan stängd eller finns inte.";

export type BundleChoice = "open" | "closed";

/** The confirm step's `shown` value for the bundles a page shows ("-" for none). */
export const shownBundles = (numbers: readonly number[]) => (numbers.length ? numbers.join(",") : "-");

/** The form fields of the confirm step's errors: one per bundle, one per paper type. */
export const decisionField = (number: number) => `b.${number}`;
export const typeField = (type: 0 | 1) => `type.${type}`;
