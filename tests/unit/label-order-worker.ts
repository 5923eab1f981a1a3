// Child process for the label tests: one "app server" ordering emergency labels for a
// customer in a loop, printing per order the allocated range, or the refusal's text
// when an order limit stops it, as JSON.
import { closeDb } from "../../db/client";
import { orderEmergencyLabels } from "../../app/features/labels/labels.server";
import { isRefusal } from "../../app/lib/refusal";

const [customerId, count, today] = process.argv.slice(2);
const results: ([number, number] | string)[] = [];
for (let i = 0; i < Number(count); i++) {
  try {
    const block = await orderEmergencyLabels(Number(customerId), 5, today);
    results.push([block.fromNumber, block.toNumber]);
  } catch (error) {
    if (!isRefusal(error, "limit")) throw error;
    results.push(error.message);
  }
}
closeDb();
process.stdout.write(JSON.stringify(results));
