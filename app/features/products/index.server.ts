// The products feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./current-products.server";
export * from "./daily-products.server";
export * from "./products.server";
export * from "./prices";
