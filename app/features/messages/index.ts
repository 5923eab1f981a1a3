// The messages feature's client-safe part: the form's schema and the message types.
export * from "./schemas";
