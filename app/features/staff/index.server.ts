// The staff feature's server side: what routes and the CLI import. Modules inside
// the feature (and other features) import each other directly.
export * from "./shortcuts.server";
export * from "./staff.server";
export * from "./shortcut-rules";
export * from "./admin.server";
