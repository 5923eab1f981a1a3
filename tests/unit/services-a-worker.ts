// Child process for the services-a label test: one "app server" ordering emergency
// labels for a customer in a loop, printing the allocated ranges as JSON.
import { closeDb } from "../../db/client";
import { orderEmergencyLabels } from "../../app/domain/labels.server";

const [customerId, count, today] = process.argv.slice(2);
const ranges: [number, number][] = [];
for (let i = 0; i < Number(count); i++) {
  const block = await orderEmergencyLabels(Number(customerId), 5, today);
  ranges.push([block.fromNumber, block.toNumber]);
}
closeDb();
process.stdout.write(JSON.stringify(ranges));
