// The deliveries feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./complaints.server";
export * from "./deliveries.server";
export * from "./journal-pdf.server";
export * from "./claims.server";
