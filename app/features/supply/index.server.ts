// The supply feature's server side: what routes, the imports and the CLI use.
export * from "./supply.server";
export * from "./supply-cutoffs";
