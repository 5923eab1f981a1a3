// The staff feature's client-safe part (rules, types and form schemas a screen's component uses).
export * from "./shortcut-rules";
export * from "./schemas";
export * from "./user-schemas";
