// The auth feature's client-safe part (the schemas its screens validate with).
export * from "./schemas";
