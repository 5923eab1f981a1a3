// The browser's invoice run in the background: progress while it runs, one run at a
// time, and the result (or the reason) when it has ended; against the real database.
import { beforeAll, describe, expect, it } from "vitest";
import { getInvoiceRunJob, runningInvoiceJob, startInvoiceRun } from "./invoice-run-jobs.server";
import { baseData, newCustomer, newDelivery } from "../../../tests/unit/helpers";

const actor = { id: "staff:1" };

beforeAll(async () => {
  await baseData();
  // 600 customers with a delivery in the period: more than one chunk of invoices.
  for (let i = 0; i < 600; i++) await newDelivery(await newCustomer(), { date: "2031-05-02", delivered: 3 });
});

describe("invoice run jobs", () => {
  it("reports progress, refuses a second run meanwhile, and ends with the run's result", async () => {
    const { job, finished } = startInvoiceRun({ from: "2031-05-01", to: "2031-05-31", actor });
    expect(job.state).toBe("planning");
    expect(runningInvoiceJob()?.id).toBe(job.id);
    expect(() => startInvoiceRun({ from: "2031-05-01", to: "2031-05-31", actor })).toThrow(/En körning pågår redan \(2031-05-01–2031-05-31\)/);
    const seen: number[] = [];
    const watch = setInterval(() => {
      const now = getInvoiceRunJob(job.id)!;
      if (now.state === "creating") seen.push(now.done);
    }, 1);
    const done = await finished;
    clearInterval(watch);
    expect(done.state).toBe("done");
    // Watched while it ran: the count of made invoices grew.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(done.created).toBeGreaterThanOrEqual(600);
    expect([done.done, done.total]).toEqual([done.created, done.created]);
    expect(done.runId).toBeGreaterThan(0);
    expect(runningInvoiceJob()).toBeNull();
    // The same period again: a new job that makes nothing.
    const rerun = await startInvoiceRun({ from: "2031-05-01", to: "2031-05-31", actor }).finished;
    expect([rerun.state, rerun.created, rerun.existing]).toEqual(["done", 0, done.created]);
  });

  it("a refused run ends as failed with the reason in Swedish", async () => {
    const failed = await startInvoiceRun({ from: "2031-05-15", to: "2031-06-15", actor }).finished;
    expect(failed.state).toBe("failed");
    expect(failed.message).toMatch(/Perioden överlappar den redan fakturerade perioden 2031-05-01–2031-05-31/);
    expect(getInvoiceRunJob("no-such-job")).toBeNull();
  });
});
