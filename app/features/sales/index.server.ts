// The sales feature's server side.
export * from "./sales.server";
