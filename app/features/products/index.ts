// The products feature's client-safe part (rules, types and form schemas a screen's component uses).
export * from "./prices";
export * from "./schemas";
