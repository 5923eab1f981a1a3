// The customers feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./customers.server";
export * from "./admin.server";
export * from "./pin-letter-pdf.server";
export * from "./pin-letter-ticket.server";
