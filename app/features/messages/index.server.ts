// The messages feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./banners.server";
export * from "./messages.server";
