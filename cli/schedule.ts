// The server's daily jobs (the reminders at REMIND_AT, `maintenance prune` at
// MAINTENANCE_AT) on Stockholm's clock, read from the portal's one clock (db/clock.ts).
// croner works out each next run in the time zone,
// so 07:00 stays 07:00 on the days summer time starts and ends (a delta of wall-clock
// hours fired an hour late or early on those days). A run that fails, or says it should
// be tried again (an SMTP server that was down), is retried the same Stockholm day
// after a growing pause; the next day starts afresh.
import { Cron } from "croner";
import { STOCKHOLM_ZONE, stockholmDate } from "../app/lib/dates";
import { portalNow } from "../db/clock";

/** What a run reports: its summary line, and whether part of it should be tried again. */
export type JobOutcome = { summary: string; retry?: boolean };

/** The longest wait before a daily job's timer reads the clock again. */
const RECHECK_MS = 30_000;

/** Pauses before the retries of a day, in minutes: then every hour until the day ends. */
export const RETRY_MINUTES = [5, 10, 20, 40, 60] as const;

type Log = (level: "info" | "error", fields: Record<string, unknown>) => void;

function jobLog(name: string): Log {
  return (level, fields) =>
    (level === "error" ? process.stderr : process.stdout).write(JSON.stringify({ t: new Date(portalNow()).toISOString(), job: name, level, ...fields }) + "\n");
}

/**
 * Runs `job` every day at `hhmm` (HH:MM) Stockholm time. The timers never keep the
 * process alive, and a failure is logged, never thrown. Returns a stop function.
 */
export function scheduleDaily(name: string, hhmm: string, job: () => Promise<JobOutcome>, log: Log = jobLog(name)): () => void {
  const [hour, minute] = hhmm.split(":").map(Number);
  let retry: ReturnType<typeof setTimeout> | undefined;
  let running = false;

  const attempt = async (day: string, tries: number) => {
    retry = undefined;
    // A retry that would land on the next day is left to that day's own run.
    if (stockholmDate(new Date(portalNow())) !== day || running) return;
    running = true;
    let again: boolean;
    try {
      const outcome = await job();
      log("info", { summary: outcome.summary, ...(tries > 0 ? { attempt: tries + 1 } : {}) });
      again = outcome.retry === true;
    } catch (error) {
      log("error", { error: error instanceof Error ? error.message.split("\n")[0] : String(error), ...(tries > 0 ? { attempt: tries + 1 } : {}) });
      again = true;
    } finally {
      running = false;
    }
    if (!again || stopped) return;
    const minutes = RETRY_MINUTES[Math.min(tries, RETRY_MINUTES.length - 1)];
    retry = setTimeout(() => void attempt(day, tries + 1), minutes * 60_000);
    retry.unref?.();
  };

  // croner works out the next HH:MM in Stockholm from the portal's time (db/clock.ts), so a
  // shifted clock (the e2e run's) keeps its own HH:MM. As croner's own timer does, the wait
  // is at most 30 s before the clock is read again: a clock set forward or back, or a host
  // that slept, is met within 30 s, and a timer that fired a moment early only waits again.
  const plan = new Cron(`0 ${minute} ${hour} * * *`, { timezone: STOCKHOLM_ZONE, paused: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let next = plan.nextRun(new Date(portalNow()));
  const tick = () => {
    if (stopped || !next) return;
    if (portalNow() >= next.getTime()) {
      if (retry) clearTimeout(retry);
      void attempt(stockholmDate(next), 0);
      // From this run at the earliest: the same occurrence never runs twice.
      next = plan.nextRun(new Date(Math.max(portalNow(), next.getTime())));
      if (!next) return;
    }
    timer = setTimeout(tick, Math.min(RECHECK_MS, Math.max(0, next.getTime() - portalNow())));
    timer.unref?.();
  };
  tick();
  return () => {
    stopped = true;
    plan.stop();
    if (timer) clearTimeout(timer);
    if (retry) clearTimeout(retry);
  };
}

/**
 * Runs `job` every `seconds` (the recalls' mails), one run at a time; a summary is logged
 * only when the run did something. The timer never keeps the process alive. Returns a stop function.
 */
export function scheduleEvery(name: string, seconds: number, job: () => Promise<JobOutcome | null>, log: Log = jobLog(name)): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const outcome = await job();
      if (outcome) log("info", { summary: outcome.summary });
    } catch (error) {
      log("error", { error: error instanceof Error ? error.message.split("\n")[0] : String(error) });
    } finally {
      running = false;
    }
  }, seconds * 1000);
  timer.unref?.();
  return () => clearInterval(timer);
}
