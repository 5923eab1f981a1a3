// The staff feature's client-safe part (rules and types a screen's component uses).
export * from "./shortcut-rules";
