// The recalls feature's server side: what routes and the CLI import.
export * from "./recalls.server";
export * from "./recall-mails.server";
