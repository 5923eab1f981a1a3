// The distribution feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./distribution-params.server";
export * from "./distribution-xlsx.server";
export * from "./distribution.server";
export * from "./customer-table";
