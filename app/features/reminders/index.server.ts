// The reminders feature's server side: what routes, the CLI and the server's schedule import.
export * from "./mail.server";
export * from "./reminder-mail.server";
export * from "./reminders.server";
export * from "./schemas";
