// The holidays feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./answers.server";
export * from "./holidays.server";
export * from "./report.server";
