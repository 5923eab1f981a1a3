// The operations feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./backup.server";
export * from "./maintenance.server";
export * from "./health.server";
export * from "./replication.server";
