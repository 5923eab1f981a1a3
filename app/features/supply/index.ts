// The supply feature's client-safe side: words, the rule and the forms.
export * from "./supply-words";
export * from "./supply-rule";
export * from "./schemas";
