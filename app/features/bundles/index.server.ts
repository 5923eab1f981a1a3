// The bundles feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./bundles.server";
export * from "./staff-bundles.server";
export * from "./bundle-progress";
