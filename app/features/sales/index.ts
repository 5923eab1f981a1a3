// The sales feature's client-safe part (texts and the rate's format).
export * from "./words";
