// The drizzle-orm patch (patches/drizzle-orm+0.45.4.patch; why:
// docs/decisions/010-statement-cache.md, section 8). Its package.json listed every one of
// its 447 entry points four ways (179 KB); Node since 22 hands the whole `exports` field
// from C++ to JavaScript for every module it loads from the package, so loading drizzle took
// about a second. The patch says the same in one pattern and an entry per folder. Every
// entry point must still resolve to the same file, for `import` and for `require`.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const root = join(process.cwd(), "node_modules", "drizzle-orm");

/**
 * Every module file of the package with the specifier that names it ("drizzle-orm/libsql" for
 * libsql/index.js). Where a folder and a file have one name (pg-core/utils/ and
 * pg-core/utils.js), the package's list named the folder's index.
 */
function entryPoints(): { specifier: string; file: string }[] {
  const found: { specifier: string; file: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== "node_modules") walk(path);
      } else if (name.endsWith(".js")) {
        const rel = relative(root, path).split(sep).join("/").replace(/\.js$/, "");
        const specifier = rel === "index" ? "drizzle-orm" : `drizzle-orm/${rel.replace(/\/index$/, "")}`;
        found.push({ specifier, file: rel });
      }
    }
  };
  walk(root);
  const bySpecifier = new Map<string, string>();
  for (const p of found) if (!bySpecifier.has(p.specifier) || p.file.endsWith("/index")) bySpecifier.set(p.specifier, p.file);
  return [...bySpecifier].map(([specifier, file]) => ({ specifier, file }));
}

describe("drizzle-orm's entry points (the package.json patch)", () => {
  const points = entryPoints();

  it("are all there: the 447 the package's list named", () => {
    expect(points.length).toBe(447);
    expect(points).toContainEqual({ specifier: "drizzle-orm/pg-core/utils", file: "pg-core/utils/index" });
    expect(points).toContainEqual({ specifier: "drizzle-orm/libsql", file: "libsql/index" });
    expect(points).toContainEqual({ specifier: "drizzle-orm/libsql/migrator", file: "libsql/migrator" });
  });

  it("resolve to the same module for import as the package's own list did", () => {
    // Node's resolver itself, in a process of its own (Vitest resolves imports its own way).
    const script = `const s = JSON.parse(process.argv[1]); console.log(JSON.stringify(s.map((x) => import.meta.resolve(x))));`;
    const resolved = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(points.map((p) => p.specifier))], { encoding: "utf8" }),
    ) as string[];
    const files = resolved.map((url) => relative(root, fileURLToPath(url)).split(sep).join("/"));
    expect(files).toEqual(points.map((p) => `${p.file}.js`));
  });

  it("resolve to the same module for require", () => {
    for (const p of points) expect(relative(root, require.resolve(p.specifier)).split(sep).join("/"), p.specifier).toBe(`${p.file}.cjs`);
  });

  it("are said in a package.json small enough to read at every module, made for the installed version", () => {
    const pkg = readFileSync(join(root, "package.json"), "utf8");
    const { version, exports } = JSON.parse(pkg) as { version: string; exports: Record<string, unknown> };
    expect(readdirSync("patches")).toContain(`drizzle-orm+${version}.patch`);
    expect(JSON.stringify(exports).length).toBeLessThan(10_000);
    expect(exports["./*"]).toEqual({ import: "./*.js", require: "./*.cjs", default: "./*.js" });
  });
});
