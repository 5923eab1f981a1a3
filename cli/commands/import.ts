// `portal import <kind> FILE`: the batch imports of docs/formats.md.
import { Command } from "commander";
import { existsSync, unlinkSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { getDb, prepareDb } from "../../db/client";
import { refuse } from "../../app/lib/refusal";
import { readInputBytes, readInputFile, usage, type CliIo } from "../io";
import { progressBar, seconds } from "../progress";
import { portalNow } from "../../db/clock";

type Opts = { dryRun?: boolean; skipInvalid?: boolean; issuePins?: string };

const EXAMPLES: Record<string, string> = {
  distributors: "npm run portal -- import distributors distributors.csv",
  customers: "npm run portal -- import customers customers.csv --issue-pins nya-pinkoder.csv",
  editions: "npm run portal -- import editions editions.csv",
  deliveries: "zcat leveranser-2026-03-02.csv.gz | npm run portal -- import deliveries -",
  guarantees: "npm run portal -- import guarantees garantier.csv --dry-run",
  products: "npm run portal -- import products produkter.csv",
  orders: "npm run portal -- import orders exponeringsutrustning.csv",
};

const DESCRIPTIONS: Record<string, string> = {
  distributors: "distributörer: distributor_id;name",
  customers: "återförsäljare: customer_id;name;address;zip;city;distributor_id;phone;email",
  editions: "utgåvor: title_id;edition_id;type;description;code",
  deliveries: "leveranser: customer_id;title_id;edition_id;delivery_date;delivered;price_ore",
  guarantees: "garantibelopp: customer_id;ledger;amount_ore",
  products: "dagens produkter: title_id;edition_id;start_date;end_date;heading;description;price_ore;ean_code",
  orders: "beställningar (Exponeringsutrustning): customerNumber;orderDate;articleNumber;articleDescription;amount;price;ledger",
};

function summary(kind: string, r: { created: number; changed: number; unchanged: number; skipped: number }, started: number, note = "") {
  return `${kind}: ${r.created} new, ${r.changed} changed, ${r.unchanged} unchanged, ${r.skipped} skipped (${seconds(started)})${note}`;
}

export function registerImport(program: Command, io: CliIo) {
  const cmd = program
    .command("import")
    .description("läser in filer (se docs/formats.md); hela filen valideras först och tillämpas i en transaktion")
    .addHelpText("after", "\nExempel:\n  npm run portal -- import deliveries leveranser.csv --dry-run");

  const kinds = ["distributors", "customers", "editions", "deliveries", "guarantees", "products"] as const;
  for (const kind of kinds) {
    const sub = cmd
      .command(kind)
      .description(DESCRIPTIONS[kind])
      .argument("<FILE>", "filen, eller - för standard in")
      .option("--dry-run", "validera och räkna, men ändra ingenting")
      .option("--skip-invalid", "hoppa över felaktiga rader och läs in resten")
      .addHelpText("after", `\nExempel:\n  ${EXAMPLES[kind]}`);
    if (kind === "customers") sub.option("--issue-pins <OUT.csv>", "ge nya kunder en slumpad 6-siffrig pinkod, skrivs som customer_id;pin till OUT (läsbar bara för dig)");
    sub.action(async (file: string, opts: Opts) => {
      const started = portalNow();
      if (opts.issuePins && existsSync(opts.issuePins)) throw refuse.conflict(`${opts.issuePins} finns redan; pinkoder skrivs aldrig över.`);
      if (opts.issuePins && file === "-" && opts.issuePins === "-") throw usage("--issue-pins behöver en fil, inte standard ut.");
      const text = await readInputFile(io, file);
      await prepareDb(getDb());
      const { importFile, formatProblem } = await import("../../app/features/imports/index.server");
      const { CLI_ACTOR } = await import("../../app/features/audit/index.server");
      const { csvLine } = await import("../../app/lib/spreadsheet-cells.server");
      const bar = progressBar(`import ${kind}`, io.stderr);
      let pinsWritten = false;
      let result;
      try {
        result = await importFile(kind, text, {
          actor: CLI_ACTOR,
          source: file === "-" ? "stdin" : file,
          dryRun: opts.dryRun,
          skipInvalid: opts.skipInvalid,
          issuePins: Boolean(opts.issuePins),
          onProgress: (done, total) => bar.update(done, total),
          onPinsIssued: async (pins) => {
            // wx: never overwrite; 0600: only the operator can read the PINs.
            // Through the one CSV writer like every file the portal writes (nothing here can start a formula today).
            const lines = [csvLine(["customer_id", "pin"]), ...pins.map((p) => csvLine([p.customerId, p.pin]))];
            writeFileSync(opts.issuePins!, `${lines.join("\n")}\n`, { mode: 0o600, flag: "wx" });
            pinsWritten = true;
          },
        });
      } catch (e) {
        if (pinsWritten) unlinkSync(opts.issuePins!);
        throw e;
      } finally {
        bar.finish();
      }
      for (const p of result.problems) io.err(formatProblem(p));
      const header = result.problems.some((p) => p.line === 1);
      if (header || (result.problems.length > 0 && !opts.skipInvalid)) {
        throw refuse.invalid(`${kind}: ${result.skipped} felaktiga rader av ${result.rows}; ingenting har ändrats.`);
      }
      const note = opts.dryRun ? " [dry-run: ingenting ändrat]" : result.pinsIssued > 0 ? ` [${result.pinsIssued} pinkoder skrivna till ${opts.issuePins}]` : "";
      io.out(summary(kind, result, started, note));
    });
  }

  cmd
    .command("orders")
    .description(DESCRIPTIONS.orders)
    .argument("<FILE>", "filen, eller - för standard in")
    .option("--dry-run", "validera och räkna, men ändra ingenting")
    .option("--skip-invalid", "hoppa över felaktiga rader och läs in resten")
    .addHelpText("after", `\nExempel:\n  ${EXAMPLES.orders}`)
    .action(async (file: string, opts: Opts) => {
      const started = portalNow();
      // Like the staff upload: UTF-8 or Windows-1252, `;` or `,`.
      const { decodeTextFile } = await import("../../app/lib/csv.server");
      const decoded = decodeTextFile(await readInputBytes(io, file));
      if (!decoded) throw refuse.invalid("orders: filen är ingen textfil (CSV).");
      const text = decoded.text;
      await prepareDb(getDb());
      const { parseOrdersFile, applyOrders, refusedOrderLines, orderRowProblems } = await import("../../app/features/invoices/index.server");
      const { classifyOrderRows, formatProblem } = await import("../../app/features/imports/index.server");
      const parsed = parseOrdersFile(text);
      // Every bad line at once: the file's own problems and the database's.
      const dbProblems = parsed.problems.some((p) => p.line === 1) ? [] : await orderRowProblems(parsed.rows);
      const problems = [...parsed.problems, ...dbProblems];
      const dbRefused = new Set(dbProblems.map((p) => p.line));
      let rows = parsed.rows.filter((r) => !dbRefused.has(r.line));
      const fail = () => {
        for (const p of problems.sort((a, b) => a.line - b.line)) io.err(formatProblem(p));
        const bad = new Set(problems.map((p) => p.line)).size;
        return refuse.invalid(`orders: ${bad} felaktiga rader; ingenting har ändrats.`);
      };
      if (problems.some((p) => p.line === 1) || (problems.length > 0 && !opts.skipInvalid)) throw fail();
      const split = await classifyOrderRows(rows);
      let write = [...split.created, ...split.changed];
      if (!opts.dryRun && write.length > 0) {
        try {
          await applyOrders(write, basename(file === "-" ? "stdin" : file), { id: "cli" });
        } catch (e) {
          const lines = refusedOrderLines(e);
          if (!lines) throw e;
          problems.push(...lines);
          if (!opts.skipInvalid) throw fail();
          // Leave the refused lines out and apply the rest (still one transaction).
          const refused = new Set(lines.map((p) => p.line));
          rows = rows.filter((r) => !refused.has(r.line));
          write = write.filter((r) => !refused.has(r.line));
          split.created = split.created.filter((r) => !refused.has(r.line));
          split.changed = split.changed.filter((r) => !refused.has(r.line));
          if (write.length > 0) await applyOrders(write, basename(file === "-" ? "stdin" : file), { id: "cli" });
        }
      }
      for (const p of problems.sort((a, b) => a.line - b.line)) io.err(formatProblem(p));
      const skipped = new Set(problems.map((p) => p.line)).size;
      const note = opts.dryRun ? " [dry-run: ingenting ändrat]" : "";
      io.out(summary("orders", { created: split.created.length, changed: split.changed.length, unchanged: split.unchanged.length, skipped }, started, note));
    });
}
