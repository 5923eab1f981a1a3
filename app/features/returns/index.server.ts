// The returns feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./history.server";
export * from "./returns-pdf.server";
export * from "./returns.server";
export * from "./return-lines";
export * from "./deadlines.server";
export * from "./deadline-questions";
export * from "./refusal-texts";
