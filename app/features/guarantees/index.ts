// The guarantees feature's client-safe part: the forms' schemas.
export * from "./refund-view";
export * from "./schemas";
export type { Refund } from "./refund";
