// The deliveries feature's client-safe part (the forms' schemas and texts, the complaint list's columns).
export * from "./schemas";
export * from "./words";
export * from "./complaint-columns";
export * from "./claim-words";
