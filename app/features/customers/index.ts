// The customers feature's client-safe part: the staff forms' schemas and the details' labels.
export * from "./schemas";
export * from "./detail-labels";
