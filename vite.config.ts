import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import { remixConfig } from "./remix.config";

const underVitest = Boolean(process.env.VITEST);

export default defineConfig({
  plugins: underVitest ? [] : [remix(remixConfig)],
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
