// The returns feature's client-safe part (rules and types a screen's component uses).
export * from "./return-lines";
export * from "./schemas";
export * from "./texts";
export * from "./deadline-schemas";
