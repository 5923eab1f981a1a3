import tseslint from "typescript-eslint";
import house from "./tests/lint/house.js";

const testRules = [
  // A test or suite written as skipped or focused. A skip decided per project at run time
  // (`test.skip(({ javaScriptEnabled }) => …, why)`, `test.skip(!javaScriptEnabled, why)`)
  // is the JS-off/JS-on split, not a skipped test.
  { selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name='only']", message: "No focused tests." },
  {
    selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(skip|todo|fixme)$/][arguments.0.type=/^(Literal|TemplateLiteral)$/]",
    message: "No skipped tests.",
  },
  { selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(skip|todo|fixme)$/][arguments.length=0]", message: "No skipped tests." },
];

// Settings come from the environment through one schema (app/config.server.ts); db/ reads
// its own few (db/client.ts, checked by readConfig with db/database-url.ts's rules), the
// date module its fixed test day and the clock its offset (db/clock.ts). Passing the whole environment on (to a child process,
// to readConfig) is not reading a setting.
const envRules = [
  { selector: "MemberExpression[object.type='MemberExpression'][object.object.name='process'][object.property.name='env']", message: "Read settings through readConfig (app/config.server.ts), not process.env." },
  { selector: "VariableDeclarator[init.object.name='process'][init.property.name='env'] > ObjectPattern", message: "Read settings through readConfig (app/config.server.ts), not process.env." },
];

// The portal's one clock (db/clock.ts): the time the portal stores and decides by is
// portalNow(), which tests shift with PORTAL_CLOCK_OFFSET_MS; the machine's clock read directly
// would disagree with it inside one request.
const clockRules = [
  { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: "Read the time with portalNow() (db/clock.ts), the portal's one clock." },
  { selector: "MemberExpression[object.name='Date'][property.name='now']:not(CallExpression > .callee)", message: "Read the time with portalNow() (db/clock.ts), the portal's one clock." },
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "Read the time with portalNow() (db/clock.ts): new Date(portalNow())." },
];

export default tseslint.config(
  { ignores: ["build", "build-*", "node_modules", "test-results", "playwright-report", "bench/data", "tests/.tmp"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/no-empty-object-type": "off",
      "no-restricted-syntax": ["error", ...testRules],
    },
  },
  {
    // Screens, shared UI, auth, HTTP and the CLI reach a feature only through its barrel
    // (docs/architecture.md): `~/features/<f>` or `~/features/<f>/index.server`.
    files: ["app/routes/**", "app/ui/**", "app/auth/**", "app/http/**", "app/root.tsx", "cli/**"],
    // The seeds build demo rows straight into the tables (cli/seed).
    ignores: ["cli/seed/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(~|(\\.\\./)+app)/features/[^/]+/(?!index(\\.server)?$)",
              message: "Import a feature through its barrel: ~/features/<f> (client-safe) or ~/features/<f>/index.server.",
            },
            // Queries live in the features: outside them nobody builds SQL.
            { group: ["drizzle-orm", "drizzle-orm/*"], message: "SQL belongs in a feature (app/features/<f>); call its rule." },
            {
              regex: "^(~/db\\.server|(\\.\\./)+(app/db\\.server|db/client))$",
              importNames: ["schema", "preparedQuery", "writeTransaction", "writeIfFree"],
              message: "SQL belongs in a feature (app/features/<f>); call its rule.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/**", "cli/**", "db/**"],
    ignores: ["app/config.server.ts", "app/lib/dates.ts", "db/client.ts", "db/clock.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-syntax": ["error", ...testRules, ...envRules, ...clockRules] },
  },
  {
    // The files that may read the environment still read the time from the one clock.
    files: ["app/config.server.ts", "app/lib/dates.ts", "db/client.ts"],
    rules: { "no-restricted-syntax": ["error", ...testRules, ...clockRules] },
  },
  // The house's idioms (tests/lint/house.js), each where it applies.
  { plugins: { house } },
  {
    files: ["app/**", "cli/**", "db/**", "tests/**", "bench/**"],
    ignores: ["app/lib/refusal.ts"],
    rules: { "house/one-error-class": "error", "house/refusal-detail-channel": "error" },
  },
  {
    files: ["app/**", "cli/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "house/no-ok-false": "error", "house/no-message-reading": "error", "house/no-hand-rolled-rows": "error" },
  },
  { files: ["app/features/**"], ignores: ["**/*.test.ts"], rules: { "house/no-swedish-error": "error" } },
  {
    // app/lib/search-params.ts is the one reader; app/http/params.ts copies a list's own
    // parameters into a link back; a component may echo the URL it shows (useSearchParams).
    files: ["app/**"],
    ignores: ["app/lib/search-params.ts", "app/http/params.ts", "app/ui/**", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "house/search-through-schema": "error", "house/write-through-queue": "error" },
  },
  {
    files: ["app/routes/**", "app/ui/**", "app/auth/**", "app/http/**", "app/root.tsx", "cli/**"],
    ignores: ["cli/seed/**"],
    rules: { "house/barrel-dynamic-import": "error" },
  },
  {
    // The database layer stands alone (docs/architecture.md): the app builds on db/, never the reverse.
    files: ["db/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(~/|(\\.\\./)+app/)", message: "db/ does not import the app: put what both need in db/, or the caller in the app or cli/seed." }] },
      ],
    },
  },
);
