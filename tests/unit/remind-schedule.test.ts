// The server's daily jobs run on Stockholm's clock, also on the days summer time starts
// (2027-03-28) and ends (2026-10-25); a run that fails or asks for a retry is tried again
// the same day after growing pauses; the reminders ask for that when a mail failed.
// Fake clocks throughout: no test waits for real time.
import { afterEach, describe, expect, it, vi } from "vitest";
import { dailyJobs } from "../../cli/server-jobs";
import { RETRY_MINUTES, scheduleDaily, type JobOutcome } from "../../cli/schedule";
import { readConfig } from "../../app/config.server";
import { saveReminderSettings } from "../../app/features/reminders/reminders.server";
import { customerActor } from "../../app/features/audit/audit.server";
import { addDays, stockholmDate } from "../../app/lib/dates";
import { startSmtpCatcher } from "../smtp-catcher";
import { baseData, newCustomer, newDelivery } from "./helpers";

const MIN = 60_000;
const H = 60 * MIN;

afterEach(() => vi.useRealTimers());

/** Runs a daily job at `at` from `start` for `hours`, and returns when each run began. */
async function runsOver(start: string, hours: number, at: string, outcome: (n: number) => JobOutcome | Error = () => ({ summary: "ok" })) {
  vi.useFakeTimers({ now: new Date(start), toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  const runs: string[] = [];
  const lines: string[] = [];
  const stop = scheduleDaily(
    "test",
    at,
    async () => {
      runs.push(new Date().toISOString());
      const o = outcome(runs.length);
      if (o instanceof Error) throw o;
      return o;
    },
    (level, fields) => lines.push(`${level} ${JSON.stringify(fields)}`),
  );
  await vi.advanceTimersByTimeAsync(hours * H);
  stop();
  return { runs, lines };
}

describe("the daily schedule", () => {
  it("runs at 07:00 Stockholm time in winter and summer, and on the days the clock changes", async () => {
    // 2027-03-28: 02:00 becomes 03:00, so 07:00 is 05:00 UTC (the day before, 06:00 UTC).
    expect((await runsOver("2027-03-26T12:00:00Z", 72, "07:00")).runs).toEqual(["2027-03-27T06:00:00.000Z", "2027-03-28T05:00:00.000Z", "2027-03-29T05:00:00.000Z"]);
    // 2026-10-25: 03:00 becomes 02:00, so 07:00 is 06:00 UTC (the day before, 05:00 UTC).
    expect((await runsOver("2026-10-23T12:00:00Z", 72, "07:00")).runs).toEqual(["2026-10-24T05:00:00.000Z", "2026-10-25T06:00:00.000Z", "2026-10-26T06:00:00.000Z"]);
  });

  it("a time inside the hour that summer time skips runs once, after the change", async () => {
    const { runs } = await runsOver("2027-03-27T12:00:00Z", 36, "02:30");
    expect(runs).toHaveLength(1);
    expect(stockholmDate(new Date(runs[0]))).toBe("2027-03-28");
  });

  it("retries a failed or incomplete run the same day after 5, 10, 20, 40 minutes, then hourly, and stops when it succeeds", async () => {
    const { runs, lines } = await runsOver("2027-01-15T05:30:00Z", 2, "07:00", (n) => (n === 1 ? new Error("connect ECONNREFUSED") : { summary: `run ${n}`, retry: n < 4 }));
    expect(runs).toEqual(["2027-01-15T06:00:00.000Z", "2027-01-15T06:05:00.000Z", "2027-01-15T06:15:00.000Z", "2027-01-15T06:35:00.000Z"]);
    expect(lines[0]).toBe('error {"error":"connect ECONNREFUSED"}');
    expect(lines.at(-1)).toBe('info {"summary":"run 4","attempt":4}');
    expect(RETRY_MINUTES).toEqual([5, 10, 20, 40, 60]);
  });

  it("a run failing all day is retried until Stockholm midnight, and the next day starts afresh at 07:00", async () => {
    const { runs } = await runsOver("2027-01-15T05:30:00Z", 26, "07:00", () => new Error("database is locked"));
    const day = runs.filter((r) => stockholmDate(new Date(r)) === "2027-01-15");
    // 07:00, 07:05, 07:15, 07:35, 08:15, then hourly to 23:15.
    expect(day.slice(0, 5)).toEqual(["2027-01-15T06:00:00.000Z", "2027-01-15T06:05:00.000Z", "2027-01-15T06:15:00.000Z", "2027-01-15T06:35:00.000Z", "2027-01-15T07:15:00.000Z"]);
    expect(day.at(-1)).toBe("2027-01-15T22:15:00.000Z");
    expect(runs.filter((r) => stockholmDate(new Date(r)) === "2027-01-16")[0]).toBe("2027-01-16T06:00:00.000Z");
  });

  it("MAINTENANCE_AT and REMIND_AT are Stockholm times or off", () => {
    expect(readConfig({}).maintenanceAt).toBe("03:30");
    expect(readConfig({ MAINTENANCE_AT: "off", REMIND_AT: "off" })).toMatchObject({ maintenanceAt: null, remindAt: null });
    expect(() => readConfig({ MAINTENANCE_AT: "3:30" })).toThrow(/^MAINTENANCE_AT ska vara en tid/);
  });
});

describe("the server's reminder job", () => {
  it("asks for a retry while the SMTP server is down, and sends once it is back", async () => {
    await baseData();
    const on = stockholmDate(new Date());
    const shop = await newCustomer({ name: "Şahin Livs" });
    await newDelivery(shop, { date: addDays(on, -6) });
    await saveReminderSettings(shop, { enabled: true, email: `sahin-${shop}@example.se` }, customerActor(shop));
    const mails: string[] = [];
    // A port that was just free: the SMTP server is down at first.
    const probe = await startSmtpCatcher([]);
    const port = probe.port;
    await probe.close();
    const env = { SMTP_URL: `smtp://127.0.0.1:${port}`, PORTAL_URL: "https://retur.example.se" };
    const [, remind] = dailyJobs(readConfig(env), env);
    const down = await remind.run();
    expect(down.retry).toBe(true);
    expect(down.summary).toMatch(/1 misslyckades \(kund \d+: .*ECONNREFUSED/);
    const server = await startSmtpCatcher(mails, port);
    try {
      const up = await remind.run();
      expect(up, up.summary).toMatchObject({ retry: false });
      expect(up.summary).toMatch(/^Påminnelser \d{4}-\d{2}-\d{2}: 1 skickade/);
      expect(mails).toEqual([`sahin-${shop}@example.se`]);
    } finally {
      await server.close();
    }
  }, 30_000);
});
