// The audit feature's client-safe part: the kinds of action and their Swedish names.
export * from "./groups";
export * from "./words";
