// The reminders feature's client-safe part (the form's names and texts).
export * from "./words";
