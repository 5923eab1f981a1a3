// The @libsql/client patch (patches/@libsql+client+0.18.0.patch, docs/decisions/010-statement-cache.md) is
// applied by patch-package in postinstall. This fails when it is not: an upgraded client
// the patch was not made for, an install that skipped postinstall (--ignore-scripts), or
// a file the patch touches that no longer holds every line it adds. How to drop the
// patch: docs/decisions/010-statement-cache.md, "Dropping the patch".
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const PATCHES = "patches";
const patchFile = readdirSync(PATCHES).find((f) => f.startsWith("@libsql+client+") && f.endsWith(".patch"));
const require = createRequire(import.meta.url);
/** The installed package's folder (its package.json is not exported, so found from its entry). */
const clientDir = (() => {
  for (let dir = dirname(require.resolve("@libsql/client")); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name === "@libsql/client") return dir;
  }
  throw new Error("@libsql/client is not installed");
})();

/** Per file the patch changes, the lines it adds (blank ones left out). */
function addedLines(patch: string): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of patch.split("\n")) {
    const file = /^\+\+\+ b\/node_modules\/@libsql\/client\/(.+)$/.exec(line);
    if (file) byFile.set(file[1], (current = []));
    else if (current && line.startsWith("+") && !line.startsWith("+++") && line.slice(1).trim() !== "") current.push(line.slice(1));
  }
  return byFile;
}

describe("the @libsql/client patch", () => {
  it("is made for the installed version", () => {
    expect(patchFile, "patches/@libsql+client+<version>.patch").toBeDefined();
    const version = JSON.parse(readFileSync(join(clientDir, "package.json"), "utf8")).version;
    expect(patchFile).toBe(`@libsql+client+${version}.patch`);
  });

  it("is applied: every file it changes holds every line it adds, in both builds", () => {
    const files = addedLines(readFileSync(join(PATCHES, patchFile!), "utf8"));
    expect([...files.keys()].sort()).toEqual(["lib-cjs/node.js", "lib-cjs/sqlite3.js", "lib-esm/node.js", "lib-esm/sqlite3.js"]);
    for (const [file, lines] of files) {
      const text = readFileSync(join(clientDir, file), "utf8");
      expect(text, file).toContain("Returportalen patch");
      const missing = lines.filter((l) => !text.includes(l));
      expect(missing, `${file}: lines of the patch not in node_modules/@libsql/client`).toEqual([]);
    }
  });

  it("is the build the app loads: executeStmt goes through the statement cache", () => {
    // The ESM build is what `import "@libsql/client"` resolves to, here and in the server.
    const loaded = readFileSync(join(clientDir, "lib-esm/sqlite3.js"), "utf8");
    expect(loaded).toMatch(/const \{ sqlStmt, returnsData \} = cachedStmt\(db, sql\);/);
  });
});
