// The deliveries feature's client-safe part (the forms' schemas and texts).
export * from "./schemas";
export * from "./words";
