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
    testTimeout: 20_000,
  },
});
