import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build", "build-*", "node_modules", "test-results", "playwright-report", "bench/data", "tests/.tmp"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/no-empty-object-type": "off",
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(skip|only|todo|fixme)$/]", message: "No skipped or focused tests." },
      ],
    },
  },
);
