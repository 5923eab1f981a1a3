import { defineConfig, devices } from "@playwright/test";
import { existsSync } from "node:fs";
import { stockholmMoment } from "../app/lib/dates";
const port = Number(process.env.E2E_PORT || 3100);

// The run's one clock (db/clock.ts, docs/decisions/040-one-clock.md): the server, the servers
// the tests start and the test workers all run PORTAL_CLOCK_OFFSET_MS ahead of the machine,
// so the run begins at 06:00 in Stockholm on a fixed Wednesday in winter, whatever the hour
// it is started at, and a run never crosses midnight or a change of summer time. This file
// is read by the runner first and then by each worker, which inherit the runner's value.
export const E2E_CLOCK_START = "2026-03-04 06:00";
// Whole seconds, so a time the portal says to the second is one second of the machine's too.
process.env.PORTAL_CLOCK_OFFSET_MS ??= String(Math.round((stockholmMoment(...(E2E_CLOCK_START.split(" ") as [string, string])) - Date.now()) / 1000) * 1000);
export const baseURL = `http://127.0.0.1:${port}`;

// Debian's Chromium where it is installed (CI, this machine); elsewhere Playwright's own.
// Its headless shell first (the package chromium-headless-shell, the browser without its
// windowing parts, as Playwright's own headless runs are): the same 30 tests took 73 s with
// it and 139 s with the full browser on the 2-core machine (docs/testing.md). The full
// browser serves where the shell is missing, and for `--headed` (CHROMIUM_PATH=/usr/bin/chromium).
const chromium = [process.env.CHROMIUM_PATH, "/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((p) => p && existsSync(p));
const launchOptions = chromium
  ? {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    }
  : {};

export default defineConfig({
  testDir: "./e2e",
  outputDir: `../test-results/${port}`,
  fullyParallel: true,
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : 2,
  // No retries, in CI or anywhere: a test that fails once is a failing test, fixed, not retried.
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // Time limits catch hangs, not slowness (speed is measured by `npm run bench`). A CI
  // machine under both workers and the server ran the longest flows (five logins with
  // password hashing, staff-users.spec.ts) 4× slower than a quiet one and past 30 s.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  globalTeardown: "./e2e/global-teardown.ts",
  // No trace unless asked for (E2E_TRACE=1): recording one for every test (DOM snapshots and
  // screenshots at each step, kept only on a failure) took a quarter of the run's CPU on the
  // 2-core machine (docs/testing.md). A failure keeps its screenshot and the page's
  // accessibility snapshot (error-context.md).
  use: {
    baseURL,
    locale: "sv-SE",
    timezoneId: "Europe/Stockholm",
    trace: process.env.E2E_TRACE === "1" ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    launchOptions,
  },
  projects: [
    { name: "js-off", testIgnore: /\.http\.spec\.ts$/, use: { ...devices["Desktop Chrome"], javaScriptEnabled: false, launchOptions } },
    { name: "js-on", testIgnore: /\.http\.spec\.ts$/, use: { ...devices["Desktop Chrome"], javaScriptEnabled: true, launchOptions } },
    // Request-level tests (access matrix, login attack, CSRF, headers): no browser, run once.
    // They load the shared server on purpose (thousands of requests, 200 MB floods), so they
    // start when every browser test has finished: a browser test sharing the server with a
    // flood waited 10 s for a dialog and failed in CI. `--project=http --no-deps` runs them
    // alone; a failed browser test skips them.
    { name: "http", testMatch: /\.http\.spec\.ts$/, dependencies: ["js-off", "js-on"] },
  ],
  webServer: {
    // What the server logs goes to the console and to a file, which the fixtures read: an
    // error the server logged fails the test it happened in (tests/e2e/fixtures.ts).
    command: `mkdir -p tests/.tmp && rm -f tests/.tmp/e2e-${port}.db* tests/.tmp/e2e-${port}.log && node build/cli/portal.js serve --demo --host 127.0.0.1 --port ${port} 2>&1 | tee -a tests/.tmp/e2e-${port}.log 1>&2`,
    cwd: "..",
    url: `${baseURL}/login`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      DATABASE_URL: `file:tests/.tmp/e2e-${port}.db`,
      SESSION_SECRET: "e2e-session-secret-not-for-production-use",
      // The public address links in PIN letters and mails are made from.
      PORTAL_URL: baseURL,
      PORTAL_QUIET_LOG: "1",
      // The e2e tests run `portal remind` themselves, with their own SMTP server.
      REMIND_AT: "off",
      // The whole delivery note open for claims: the tests of the note then never depend on
      // the hour they run at. The deadline itself (12:00 the day after) is unit-tested.
      CLAIM_DEADLINE: "6 23:59",
      THROTTLE_IP_LIMIT: "100000",
      THROTTLE_GLOBAL_LIMIT: "1000000",
      NODE_ENV: "production",
      E2E_PORT: String(port),
      PORTAL_CLOCK_OFFSET_MS: process.env.PORTAL_CLOCK_OFFSET_MS,
      ...(process.env.REMIX_BUILD_DIR ? { REMIX_BUILD_DIR: process.env.REMIX_BUILD_DIR } : {}),
    },
  },
});
