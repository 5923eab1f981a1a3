// The audit feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./audit.server";
export * from "./search.server";
export * from "./query.server";
