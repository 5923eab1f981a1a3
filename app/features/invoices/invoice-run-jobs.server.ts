// An invoice run started from the browser runs in the background (issue 16: "confirm,
// watch progress, see the result"): the POST starts it and answers at once, and the page
// shows its progress until it is done. A national run takes long enough that a request
// waiting for it would time out on a proxy, and staff would see nothing meanwhile.
//
// Decision: the jobs live in this process's memory. The server is one process on one
// libSQL file (DESIGN.md), and a run is one write transaction: if the process stops
// mid-run nothing was created, the job is gone, and the page says so and points to the
// history. One run at a time; the CLI's `invoice run` uses the same transaction and is
// serialised with it by the database.
import { randomUUID } from "node:crypto";
import type { Actor } from "~/features/audit/audit.server";
import { isRefusal, refuse } from "~/lib/refusal";
import { runInvoicing } from "./invoice-run.server";

export type InvoiceRunJob = {
  id: string;
  from: string;
  to: string;
  actorId: string;
  startedAt: number;
  /** Planning: the invoices are being worked out; creating: `done` of `total` are made. */
  state: "planning" | "creating" | "done" | "failed";
  done: number;
  total: number;
  /** The history row, when done. */
  runId?: number;
  created?: number;
  existing?: number;
  firstNumber?: number | null;
  lastNumber?: number | null;
  /** Why it failed, in Swedish. */
  message?: string;
};

const jobs = new Map<string, InvoiceRunJob>();
const KEEP_MS = 60 * 60 * 1000;

function forgetOld(now = Date.now()) {
  for (const [id, job] of jobs) if ((job.state === "done" || job.state === "failed") && now - job.startedAt > KEEP_MS) jobs.delete(id);
}

export function runningInvoiceJob(): InvoiceRunJob | null {
  for (const job of jobs.values()) if (job.state === "planning" || job.state === "creating") return job;
  return null;
}

export function getInvoiceRunJob(id: string): InvoiceRunJob | null {
  return jobs.get(id) ?? null;
}

/**
 * Starts the run and returns its job at once; `finished` settles when the run has ended
 * (for tests and the CLI-less callers that want to wait). Refused while another runs.
 */
export function startInvoiceRun(input: { from: string; to: string; actor: Actor }): { job: InvoiceRunJob; finished: Promise<InvoiceRunJob> } {
  forgetOld();
  const busy = runningInvoiceJob();
  if (busy) throw refuse.invalid(`En körning pågår redan (${busy.from}–${busy.to}). Vänta tills den är klar.`);
  const job: InvoiceRunJob = { id: randomUUID(), from: input.from, to: input.to, actorId: input.actor.id, startedAt: Date.now(), state: "planning", done: 0, total: 0 };
  jobs.set(job.id, job);
  const finished = runInvoicing(input, (done, total) => {
    job.state = "creating";
    job.done = done;
    job.total = total;
  })
    .then((summary) => {
      Object.assign(job, {
        state: "done",
        runId: summary.runId,
        created: summary.created,
        existing: summary.existing,
        firstNumber: summary.firstNumber,
        lastNumber: summary.lastNumber,
        done: summary.created,
        total: summary.created,
      });
      return job;
    })
    .catch((e: unknown) => {
      if (!isRefusal(e)) console.error(e);
      job.state = "failed";
      job.message = isRefusal(e) ? e.message : "Körningen misslyckades. Inga fakturor skapades.";
      return job;
    });
  return { job, finished };
}
