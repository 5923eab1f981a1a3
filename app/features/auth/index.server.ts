// The auth feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./attempts.server";
export * from "./impersonation.server";
export * from "./passwords.server";
export * from "./sessions.server";
export * from "./throttle.server";
export * from "./totp.server";
export * from "./carried-forms.server";
