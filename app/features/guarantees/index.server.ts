// The guarantees feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./guarantees.server";
export * from "./payout-csv.server";
export * from "./payout-pdf.server";
export * from "./refund";
