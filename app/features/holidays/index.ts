// The holidays feature's client-safe part (the forms' schemas and texts).
export * from "./answer-schemas";
