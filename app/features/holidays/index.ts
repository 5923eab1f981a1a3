// The holidays feature's client-safe part: the Helgspärr form's schema.
export * from "./schemas";
