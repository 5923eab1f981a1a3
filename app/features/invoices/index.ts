// The invoices feature's client-safe part (schemas a screen's component uses).
export * from "./schemas";
export * from "./credit-words";
