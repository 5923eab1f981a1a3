// The invoices feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./extra-lines.server";
export * from "./invoice-pdf.server";
export * from "./invoice-run.server";
export * from "./invoices.server";
export * from "./orders.server";
export * from "./invoice-run-jobs.server";
export { InvoiceRunSchema } from "./run-schema";
export * from "./credits.server";
export * from "./credit-notes.server";
export * from "./reconcile.server";
