// The house's rules for what the code says about itself: a "why" cites the project's own
// documents (docs/architecture.md, docs/decisions/NNN-…), never a work ticket's number or a
// file outside the repository, and every document it cites exists.
import { readdirSync, readFileSync, existsSync, statSync } from "node:fs";
import { join, relative } from "node:path";
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

describe("the code's own idioms", () => {
  it("writes to the app's database only through the write queue", () => {
    // A write straight on the app's client (getDb()) waits only its 20 ms busy timeout for a
    // lock another process holds, then fails; writeTransaction waits for it (db/client.ts).
    const direct = files
      .filter(({ path }) => path.startsWith("app/") && !/\.test\.tsx?$/.test(path))
      .flatMap(({ path, text }) => [...text.matchAll(/getDb\(\)\s*\.\s*(insert|update|delete)\(/g)].map((m) => `${path}: ${m[0]}`));
    expect(direct).toEqual([]);
  });

  it("says no by throwing a Refusal, not with an { ok: false } result", () => {
    // A value check answers { value } or { problem } (checkBankDetail, checkReceived); a rule
    // that refuses throws a Refusal (app/lib/refusal.ts), its details in `detail` (the
    // returns save's refused rows, the login throttle's reason).
    const shapes = files
      .filter(({ path }) => /^(app|cli)\//.test(path) && !/\.test\.tsx?$/.test(path))
      .filter(({ text }) => /\bok: false\b/.test(text))
      .map(({ path }) => path)
      .sort();
    expect(shapes).toEqual([]);
  });

  it("has one error class, Refusal; features tell people no with it, and nobody reads an error's message to decide", () => {
    const classes = linesMatching(/\bextends Error\b/).filter((line) => /^(app|cli|db)\//.test(line));
    expect(classes.map((line) => line.split(":")[0])).toEqual(["app/lib/refusal.ts"]);
    // A message with Swedish letters is for a person: a feature says it with a Refusal.
    const swedishErrors = linesMatching(/new Error\([`"'][^`"']*[åäöÅÄÖ]/).filter((line) => line.startsWith("app/features/"));
    expect(swedishErrors).toEqual([]);
    const readMessages = linesMatching(/\.test\(\(?(e|error)( as Error\))?\.message\)|\.test\(message\)/).filter((line) => /^(app|cli)\//.test(line));
    expect(readMessages).toEqual([]);
  });

  it("reads a URL's search parameters with a zod schema (readSearch), and a file's rows too (csvRow)", () => {
    // On the server app/lib/search-params.ts is the one reader; app/http/params.ts copies a
    // list's own parameters into a link back (listUrl) without reading what they mean. (A
    // component may echo the URL it shows, as the browser has it: useSearchParams.)
    const reads = linesMatching(/searchParams\.(get|getAll|has)\(|request\.url\)\.searchParams/)
      .filter((line) => /^app\//.test(line) && !/\.test\.tsx?:/.test(line))
      .filter((line) => !line.startsWith("app/lib/search-params.ts:") && !line.startsWith("app/http/params.ts:") && !line.startsWith("app/ui/"));
    expect(reads).toEqual([]);
    const handRolled = linesMatching(/\browChecker\b|\bcheck\.(int|required)\(/).filter((line) => /^(app|cli)\//.test(line));
    expect(handRolled).toEqual([]);
  });

  it("reads what a refusal carries through its typed channel (refusalDetail), never through a cast", () => {
    const casts = linesMatching(/\.detail\s+as\b|\.detail\s*\)\s*as\b/).filter((line) => /^(app|cli|tests)\//.test(line));
    expect(casts).toEqual([]);
  });

  it("gives each type its own name: one Refusal", () => {
    const declared = linesMatching(/^\s*(export )?(type|interface|class) Refusal\b/);
    expect(declared.map((line) => line.split(":")[0])).toEqual(["app/lib/refusal.ts"]);
  });
});
