// The opening-hours feature's client-safe part (the form's names and texts).
export * from "./words";
export * from "./request-schemas";
