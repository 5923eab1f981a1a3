// What an app server runs besides its requests: `portal <command>` as a child process
// (a long job such as the invoice run, kept off the request thread) and the daily jobs on
// Stockholm's clock (cli/schedule.ts runs them; cli/serve.ts starts them with the server).
import { spawn, type ChildProcess } from "node:child_process";
import { setPriority } from "node:os";
import type { Config } from "../app/config.server";
import type { PortalCommand } from "../app/lib/portal-command";
import type { JobOutcome } from "./schedule";
import { portalNow } from "../db/clock";

/**
 * A background job yields the CPU to the requests (nice 10): on a machine with few cores the
 * retailers' requests come first and the job takes what is left. Where the system refuses,
 * it runs at normal priority.
 */
export function yieldCpu(child: ChildProcess) {
  try {
    if (child.pid !== undefined) setPriority(child.pid, 10);
  } catch {
    // Not allowed here: normal priority.
  }
}

/**
 * `portal <args>` as a child process of this server: the same Node running the same CLI
 * `entry` (build/cli/portal.js, or cli/portal.ts with the loader flags `nodeArgs` of tsx),
 * the same environment, its output into the server's, at a lower CPU priority. A long job (the invoice run) works there, so the synchronous database driver never holds
 * up this process's requests. The child is not detached: when the server's process group
 * is stopped it stops too, and the job, kept in the database, says so and resumes when
 * started again.
 */
export function portalChildren(entry: string, nodeArgs: string[]): PortalCommand {
  return (args, options = {}) =>
    new Promise((resolvePromise, reject) => {
      const child = spawn(process.execPath, [...nodeArgs, entry, ...args], { env: process.env, stdio: ["ignore", options.capture ? "pipe" : "inherit", "inherit"] });
      yieldCpu(child);
      const out: Buffer[] = [];
      child.stdout?.on("data", (b: Buffer) => out.push(b));
      child.once("error", reject);
      child.once("close", (code, signal) =>
        code === 0 ? resolvePromise(Buffer.concat(out).toString("utf8")) : reject(new Error(`portal ${args.slice(0, 2).join(" ")}: ${signal ?? `exit ${code}`}`)),
      );
    });
}

export type DailyJob = { name: string; at: string | null; run: () => Promise<JobOutcome> };

/**
 * The server's frequent jobs: the recalls' mails every minute (decision 036) — a new
 * recall's mails that its request did not finish, and the retries of failed ones. Only with
 * SMTP_URL: without it a recall's mails are logged once, when it is made.
 */
export function frequentJobs(config: Pick<Config, "smtpUrl">, env: Record<string, string | undefined> = process.env): { name: string; seconds: number; run: () => Promise<JobOutcome | null> }[] {
  if (!config.smtpUrl) return [];
  return [
    {
      name: "recall.mails",
      seconds: 60,
      run: async () => {
        const { runRecallMails, recallMailSummaryText } = await import("../app/features/recalls/index.server");
        const s = await runRecallMails({ write: () => undefined, env });
        return s.sent + s.failed + s.noAddress > 0 ? { summary: recallMailSummaryText(s) } : null;
      },
    },
  ];
}

/**
 * The server's daily jobs, on Stockholm's clock: `maintenance prune` (expired sessions,
 * stale throttle rows, old audit rows and form tokens) at MAINTENANCE_AT, and the e-mail
 * reminders at REMIND_AT (decision 017). Every app server may run them: the reminder log
 * lets one mail per customer and day through. Mails that failed (an SMTP server that was
 * down) ask for a retry the same day.
 */
export function dailyJobs(config: Pick<Config, "maintenanceAt" | "remindAt">, env: Record<string, string | undefined> = process.env): DailyJob[] {
  return [
    {
      name: "maintenance.prune",
      at: config.maintenanceAt,
      run: async () => {
        const { prune, pruneSummary } = await import("../app/features/operations/index.server");
        return { summary: pruneSummary(await prune()) };
      },
    },
    {
      name: "remind",
      at: config.remindAt,
      run: async () => {
        const { runReminders, remindSummaryText } = await import("../app/features/reminders/index.server");
        const write = (line: string) => void process.stdout.write(JSON.stringify({ t: new Date(portalNow()).toISOString(), job: "remind", level: "info", line }) + "\n");
        const summary = await runReminders({ write, env });
        return { summary: remindSummaryText(summary), retry: summary.failed > 0 };
      },
    },
  ];
}
