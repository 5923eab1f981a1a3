// The bundles feature's client-safe part (rules, types and schemas a screen's component uses).
export * from "./bundle-orders";
export * from "./bundle-words";
export * from "./bundle-progress";
export * from "./schemas";
export * from "./staff-schemas";
