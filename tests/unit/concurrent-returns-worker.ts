// Child process for the concurrency tests: one "app server" calling the real domain
// functions in a loop against the test file's database, printing its results as JSON.
//   save   CUSTOMER DELIVERY BUNDLE COUNT ON   – COUNT additions of 1 into BUNDLE (state 2)
//   decide CUSTOMER COUNT ON NUMBERS…          – COUNT confirm steps keeping one bundle per type open
import { saveReturnsResult } from "./helpers";
import { closeDb } from "../../db/client";
import { decideBundles, type BundleDecision } from "../../app/features/bundles/bundles.server";
import { isRefusal } from "../../app/lib/refusal";

const [mode, ...args] = process.argv.slice(2);
// All workers start together, so their writes overlap: each says it is ready (its imports
// done, tsx takes a second or two) on stderr and waits for the test's go on standard input,
// sent when every worker is ready.
process.stderr.write("ready\n");
await new Promise<void>((r) => process.stdin.once("data", () => r()));
process.stdin.destroy();
const out: unknown[] = [];
if (mode === "save") {
  const [customerId, deliveryId, bundle, count, on] = args;
  for (let i = 0; i < Number(count); i++) {
    const r = await saveReturnsResult(
      Number(customerId),
      2,
      `w-${process.pid}-${i}`,
      [{ key: "x", deliveryId: Number(deliveryId), bundle, amount: "1" }],
      on,
    );
    out.push(r.ok);
  }
} else if (mode === "decide") {
  const [customerId, count, on, ...numbers] = args;
  // numbers: "type:number" pairs
  const bundles = numbers.map((s) => s.split(":").map(Number) as [number, number]);
  for (let i = 0; i < Number(count); i++) {
    const keep = new Map<number, number>();
    for (const type of [0, 1]) {
      const ofType = bundles.filter(([t]) => t === type);
      if (ofType.length) keep.set(type, ofType[(process.pid + i) % ofType.length][1]);
    }
    const decisions: Record<number, BundleDecision> = {};
    for (const [t, n] of bundles) decisions[n] = keep.get(t) === n ? "open" : "closed";
    // Decided, or refused by the rules (an invalid choice): anything else fails the test.
    const decided = await decideBundles(Number(customerId), decisions, on).then(
      () => true,
      (e: unknown) => {
        if (isRefusal(e, "invalid")) return false;
        throw e;
      },
    );
    out.push(decided);
  }
}
closeDb();
process.stdout.write(JSON.stringify(out));
