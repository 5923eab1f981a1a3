// The alerts feature's client-safe part (the dialog's schema).
export * from "./schemas";
