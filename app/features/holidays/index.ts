// The holidays feature's client-safe part: the forms' schemas (staff Helgspärr, retailer answers).
export * from "./answer-schemas";
export * from "./answer-words";
export * from "./schemas";
