// An invoice run started from the browser runs in the background: the POST claims the run
// and answers at once, and the page shows its progress until it is done (a national run
// takes long enough that a request waiting for it would time out on a proxy). The web
// server works it in a child process (`portal invoice work`): the local database driver
// is synchronous, so a run in the server's own process would hold up every request it
// answers while a chunk is written.
//
// Decision 024: the job is the run's own history row (invoice_runs: status, progress,
// heartbeat), not process memory, so any app server answers the progress page, "one run at
// a time" holds across processes (a unique index), and a run cut off by a restart says so
// and resumes when the same period is started again. The CLI's `invoice run` claims the
// same way.
import type { Actor } from "~/features/audit/audit.server";
import { eq } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import type { PortalCommand } from "~/lib/portal-command";
import { isRefusal, refuse } from "~/lib/refusal";
import { RUN_STALE_MS, RUN_STOPPED, claimInvoiceRun, runInvoicing, type InvoiceRunSummary } from "./invoice-run.server";
import { portalNow } from "../../../db/clock";

export type InvoiceRunJob = {
  id: number;
  from: string;
  to: string;
  actorId: string;
  startedAt: number;
  /**
   * planning: the invoices are being worked out; creating: `done` of `total` are made;
   * done; failed (with `message`); stopped: no heartbeat for a while — its process is gone.
   */
  state: "planning" | "creating" | "done" | "failed" | "stopped";
  done: number;
  total: number;
  /** The history row (the same id). */
  runId: number;
  created: number;
  existing: number;
  firstNumber: number | null;
  lastNumber: number | null;
  /** Why it failed or stopped, in Swedish. */
  message?: string;
};

/** The run `id` as a job, or null. Read from the database: any server can answer. */
export async function getInvoiceRunJob(id: number, now = portalNow()): Promise<InvoiceRunJob | null> {
  const r = schema.invoiceRuns;
  const [row] = await getDb().select().from(r).where(eq(r.id, id));
  if (!row) return null;
  const stale = row.status === "running" && (row.heartbeatAt ?? row.ranAt) < now - RUN_STALE_MS;
  const state: InvoiceRunJob["state"] =
    row.status === "done" ? "done" : row.status === "failed" ? "failed" : stale ? "stopped" : row.planned === 0 && row.created === 0 ? "planning" : "creating";
  return {
    id: row.id,
    from: row.periodFrom,
    to: row.periodTo,
    actorId: row.actor,
    startedAt: row.ranAt,
    state,
    done: row.created,
    total: Math.max(row.planned, row.created),
    runId: row.id,
    created: row.created,
    existing: row.existing,
    firstNumber: row.firstNumber,
    lastNumber: row.lastNumber,
    message: state === "stopped" ? RUN_STOPPED : (row.message ?? undefined),
  };
}

/**
 * Claims the run (refused while another is alive, or for an overlapping period) and goes on
 * with it in the background — as `portal invoice work` through `elsewhere` when given (the
 * web server's child process), else in this process; `finished` settles when it has ended,
 * as its job.
 */
export async function startInvoiceRun(
  input: { from: string; to: string; actor: Actor; chunkSize?: number },
  elsewhere?: PortalCommand,
): Promise<{ job: InvoiceRunJob; finished: Promise<InvoiceRunJob> }> {
  const { id, claim } = await claimInvoiceRun(input);
  const job = (await getInvoiceRunJob(id))!;
  // `portal invoice work` calls workInvoiceRun (cli/commands/jobs.ts).
  const work = elsewhere ? elsewhere(["invoice", "work", String(id), claim]) : runInvoicing({ ...input, claimed: { runId: id, claim } });
  const finished = work
    .then(
      () => undefined,
      (e: unknown) => {
        // The run row says failed, with the reason (runInvoicing wrote it).
        if (!isRefusal(e)) console.error(e);
      },
    )
    .then(async () => (await getInvoiceRunJob(id))!);
  return { job, finished };
}

/**
 * `portal invoice work <run> <claim>`: works the run `runId` under the claim it was started
 * with, as the staff user who started it. Refused when the run is not running under that
 * claim (it ended, or was taken over).
 */
export async function workInvoiceRun(runId: number, claim: string): Promise<InvoiceRunSummary> {
  const r = schema.invoiceRuns;
  const [row] = await getDb().select().from(r).where(eq(r.id, runId));
  if (!row || row.status !== "running" || row.claim !== claim) throw refuse.conflict(`Körning ${runId} väntar inte på att köras.`);
  return runInvoicing({ from: row.periodFrom, to: row.periodTo, actor: { id: row.actor }, claimed: { runId, claim } });
}
