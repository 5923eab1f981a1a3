// The invoices feature's client-safe part (schemas a screen's component uses).
export * from "./schemas";
export * from "./credit-words";
export * from "./run-view";
export * from "./ocr";
export * from "./reconcile-view";
