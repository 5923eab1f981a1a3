// The bundles feature's client-safe part (rules and types a screen's component uses).
export * from "./bundle-progress";
export * from "./schemas";
