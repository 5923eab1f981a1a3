import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import type { Plugin } from "vite";
import { remixConfig } from "./remix.config";

/**
 * The browser's files also as Brotli at its highest quality (`.br` beside each), written
 * once at build time and served by `portal serve` to browsers that take it: the framework
 * chunk is 73 KB instead of the 85 KB the on-the-fly compression makes (bench B9, a slow
 * phone on a thin line).
 */
function precompress(): Plugin {
  return {
    name: "returportalen-precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      if (!options.dir || !/[\\/]client$/.test(options.dir)) return;
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css)$/.test(file)) continue;
        const path = join(options.dir, file);
        const raw = await readFile(path);
        if (raw.length < 1024) continue;
        await writeFile(`${path}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
      }
    },
  };
}

const underVitest = Boolean(process.env.VITEST);

export default defineConfig({
  plugins: underVitest ? [] : [remix(remixConfig), precompress()],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  build: { target: "es2019" },
  test: {
    include: ["tests/unit/**/*.test.ts", "app/**/*.test.ts"],
    globalSetup: ["tests/unit/global-setup.ts"],
    setupFiles: ["tests/unit/setup.ts"],
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one at a time on a 2-core
    // machine, idle while a test waits on a child process. Each file has its own database.
    maxWorkers: 2,
    testTimeout: 20_000,
  },
});
