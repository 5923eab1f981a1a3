// The placards feature's client-safe part (the form's schema and texts).
export * from "./schemas";
export * from "./words";
