// The e2e run is on one date from start to end: the day it started, for the shared server,
// for the servers tests start of their own (they inherit the environment) and for the tests'
// own date sums. A run that goes past midnight then changes no "today" halfway.
import { afterEach, describe, expect, it, vi } from "vitest";

const saved = process.env.PORTAL_TODAY;
afterEach(() => {
  if (saved === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = saved;
  vi.useRealTimers();
  vi.resetModules();
});

async function loadConfig() {
  vi.resetModules();
  const { default: config } = await import("../playwright.config");
  const server = Array.isArray(config.webServer) ? config.webServer[0] : config.webServer;
  return { serverToday: server?.env?.PORTAL_TODAY, runToday: process.env.PORTAL_TODAY };
}

describe("the e2e run's date", () => {
  it("is the Stockholm date the run started on, for the server and the tests alike", async () => {
    delete process.env.PORTAL_TODAY;
    // 23:59:30 in Stockholm (summer time): half a minute before midnight.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-06-30T21:59:30Z"));
    const { serverToday, runToday } = await loadConfig();
    expect(runToday).toBe("2026-06-30");
    expect(serverToday).toBe("2026-06-30");
    // and after midnight the run's date is the same
    vi.setSystemTime(new Date("2026-06-30T22:00:30Z"));
    const { today } = await import("../../app/lib/dates");
    expect(today()).toBe("2026-06-30");
  });

  it("keeps a date given to the run", async () => {
    process.env.PORTAL_TODAY = "2026-03-02";
    const { serverToday, runToday } = await loadConfig();
    expect([runToday, serverToday]).toEqual(["2026-03-02", "2026-03-02"]);
  });
});
