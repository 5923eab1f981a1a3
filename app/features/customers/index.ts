// The customers feature's client-safe part: the staff forms' schemas.
export * from "./schemas";
