// The house's rules for what the code says about itself: a "why" cites the project's own
// documents (docs/architecture.md, docs/decisions/NNN-…), never a work ticket's number or a
// file outside the repository, and every document it cites exists.
import { readdirSync, readFileSync, existsSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "../..");
const DIRS = ["app", "cli", "db", "tests", "bench"];
const SOURCE = /\.(ts|tsx|css|sql|js|mjs)$/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(name)) out.push(path);
  }
  return out;
}

const files = DIRS.flatMap((d) => sourceFiles(join(ROOT, d))).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, "utf8") }));

/** "path:line: text" for every line matching `pattern`. */
function linesMatching(pattern: RegExp): string[] {
  return files.flatMap(({ path, text }) =>
    text.split("\n").flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe("the code's own words", () => {
  it("reads its sources", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.some((f) => f.path === "app/root.tsx")).toBe(true);
  });

  it("cites no work ticket by number", () => {
    // Built from parts, so this file does not match itself.
    expect(linesMatching(new RegExp(["is", "sues?\\s+#?\\d"].join(""), "i"))).toEqual([]);
  });

  it("docs cite decisions, not tracker numbers", () => {
    // The decisions may say which request they answered; the README and the other docs
    // cite the decisions.
    const docs = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((n) => n.endsWith(".md")).map((n) => `docs/${n}`)];
    const ticket = new RegExp(["is", "sues?\\s+#?\\d"].join(""), "i");
    const cited = docs.flatMap((doc) => readFileSync(join(ROOT, doc), "utf8").split("\n").flatMap((line, i) => (ticket.test(line) ? [`${doc}:${i + 1}: ${line.trim()}`] : [])));
    expect(cited).toEqual([]);
  });

  it("docs/architecture.md's features table names every feature folder, and no other", () => {
    const text = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
    const table = text.slice(text.indexOf("## The feature folders"), text.indexOf("\n## ", text.indexOf("## The feature folders") + 5));
    const named = new Set(table.split("\n").filter((l) => l.startsWith("| `")).flatMap((l) => [...l.split("|")[1].matchAll(/`([\w-]+)`/g)].map((m) => m[1])));
    const folders = readdirSync(join(ROOT, "app/features")).filter((n) => statSync(join(ROOT, "app/features", n)).isDirectory());
    expect([...named].sort()).toEqual(folders.sort());
  });

  it("cites no design file outside the repository", () => {
    expect(linesMatching(new RegExp(["DESIGN", "\\.md|\\.\\./shared/"].join("")))).toEqual([]);
  });

  it("cites only documents that exist", () => {
    const cited = new Set(files.flatMap(({ text }) => [...text.matchAll(/\bdocs\/[\w./-]*\w\.md\b/g)].map((m) => m[0])));
    expect([...cited].filter((doc) => !existsSync(join(ROOT, doc)))).toEqual([]);
    const decisions = new Set(readdirSync(join(ROOT, "docs/decisions")).map((name) => name.slice(0, 3)));
    const numbers = new Set(files.flatMap(({ text }) => [...text.matchAll(/\b[Dd]ecisions? (\d{3})\b/g)].map((m) => m[1])));
    expect([...numbers].filter((n) => !decisions.has(n))).toEqual([]);
  });
});

// The idioms are ESLint rules on the syntax tree (tests/lint/house.js, eslint.config.js),
// which `npm run lint` applies to the whole code base. Here each rule meets the spellings
// that dodged the regular expressions it replaced, and the code it must leave alone.
const eslint = new ESLint({ cwd: ROOT });

/** The house rules `code` breaks, as `file` of the repository. */
async function broken(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId?.startsWith("house/") || m.fatal).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe("the code's own idioms, on the syntax tree", () => {
  const cases: { rule: string; file: string; caught: string[]; allowed: string[] }[] = [
    {
      rule: "house/one-error-class",
      file: "app/features/x/x.server.ts",
      caught: ["export class Nope extends Error {}", "export const Nope = class extends Error {};", "export class Nope extends TypeError {}", "export class Nope extends globalThis.Error {}", "export type Refusal = { why: string };", "export interface Refusal { why: string }"],
      allowed: ["class Base {}\nexport class Fine extends Base {}"],
    },
    { rule: "house/one-error-class", file: "tests/unit/x.test.ts", caught: ["class TestError extends Error {}\nexport { TestError };"], allowed: [] },
    {
      rule: "house/refusal-detail-channel",
      file: "app/routes/x.tsx",
      caught: [
        "declare const e: { detail: unknown };\nexport const d = e.detail as string[];",
        "declare const e: { detail: unknown };\nexport const d = (e\n  .detail) as string[];",
        "declare const e: { detail: unknown };\nexport const d = e.detail satisfies unknown;",
        "declare const e: unknown;\nexport const d = (e as { detail: string[] }).detail;",
      ],
      allowed: ["declare const ROWS: { of(e: unknown): string[] | undefined };\ndeclare const e: unknown;\nexport const d = ROWS.of(e);"],
    },
    { rule: "house/refusal-detail-channel", file: "tests/e2e/x.ts", caught: ["declare const e: { detail: unknown };\nexport const d = e.detail as number;"], allowed: [] },
    {
      rule: "house/no-ok-false",
      file: "cli/x.ts",
      caught: ["export const no = () => ({ ok: false, why: 'x' });", "export const no = () => ({\n  ok:\n    false,\n});", "export const no = () => ({ 'ok': false });"],
      allowed: ["export const yes = () => ({ ok: true });"],
    },
    {
      rule: "house/no-message-reading",
      file: "app/http/x.server.ts",
      caught: [
        "declare const e: Error;\nexport const busy = /locked/.test(e.message);",
        "declare const e: Error;\nexport const busy = e.message.includes('locked');",
        "declare const e: unknown;\nexport const busy = (e as Error).message\n  .startsWith('locked');",
        "declare const message: string;\nexport const busy = /locked/i.test(message);",
        "declare const e: Error;\nexport const busy = e.message === 'locked';",
        "declare const e: Error;\nexport const busy = e.message.toLowerCase().includes('locked');",
        "declare const e: Error;\nexport const busy = /locked/.exec(e.message);",
        "declare const e: Error;\nexport function f() {\n  switch (e.message) {\n    case 'locked':\n      return 1;\n  }\n  return 0;\n}",
      ],
      allowed: ["declare const e: Error;\nconsole.log(e.message);"],
    },
    {
      rule: "house/no-swedish-error",
      file: "app/features/x/x.server.ts",
      caught: ["throw new Error('Något gick fel');", "declare const n: number;\nthrow Error(`Raden ${n} är fel`);"],
      allowed: ["throw new Error('unreachable: no such kind');"],
    },
    {
      rule: "house/search-through-schema",
      file: "app/routes/x.tsx",
      caught: [
        "export const loader = ({ request }: { request: Request }) => new URL(request.url).searchParams.get('q');",
        "export const loader = ({ request }: { request: Request }) => {\n  const { searchParams } = new URL(request.url);\n  return searchParams;\n};",
        "export const loader = ({ request }: { request: Request }) => new URL(request.url)['searchParams'];",
      ],
      allowed: [],
    },
    {
      rule: "house/write-through-queue",
      file: "app/features/x/x.server.ts",
      caught: [
        "import { getDb, schema } from '~/db.server';\nexport const f = () => getDb().insert(schema.customers).values([]);",
        "import { getDb, schema } from '~/db.server';\nexport async function f() {\n  const db = getDb();\n  await db\n    .update(schema.customers)\n    .set({});\n}",
        "import { getDb, schema, type Db } from '~/db.server';\nexport async function f(db: Db = getDb()) {\n  await db.delete(schema.customers);\n}",
        "import { getDb, type Db } from '~/db.server';\nimport { sql } from 'drizzle-orm';\nexport async function f() {\n  const db = getDb() as Db;\n  await db.run(sql`delete from customers`);\n}",
      ],
      allowed: [
        "import { getDb, schema, writeTransaction } from '~/db.server';\nexport const f = () => writeTransaction((tx) => tx.insert(schema.customers).values([]));\nexport const g = () => getDb().select().from(schema.customers);",
        "declare const ids: Set<number>;\nids.delete(1);",
      ],
    },
    {
      rule: "house/barrel-dynamic-import",
      file: "cli/x.ts",
      caught: [
        "export const f = () => import('../app/features/staff/staff.server');",
        "export const f = (name: string) => import(`../app/features/${name}/index.server`);",
        "const where = '../app/features/staff/staff.server';\nexport const f = () => import(where);",
        "export const f = () => import('drizzle-orm');",
      ],
      allowed: ["export const f = () => import('../app/features/staff/index.server');", "export const g = () => import('../app/features/staff');"],
    },
    { rule: "house/no-hand-rolled-rows", file: "cli/x.ts", caught: ["declare const check: { int(v: string): number };\nexport const n = check.int('1');"], allowed: [] },
  ];

  for (const { rule, file, caught, allowed } of cases) {
    it(`${rule} in ${file}`, async () => {
      for (const code of caught) expect(await broken(file, code), code).toContain(rule);
      for (const code of allowed) expect(await broken(file, code), code).toEqual([]);
    });
  }
});
