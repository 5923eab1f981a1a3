// The opening-hours feature's server side: what routes and the CLI import.
export * from "./opening-hours.server";
export * from "./schemas";
