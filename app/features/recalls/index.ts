// The recalls feature's client-safe side: schemas and words.
export * from "./recall-words";
export * from "./schemas";
