// An address no route answers is a 404, not a fault of the portal's: the server answers it
// without logging an error. (It logged "[object Object]" as an error for every made-up
// data address and every path with an encoded slash, which hid real errors in the noise.)
import { expect, test } from "@playwright/test";
import { logSize, serverErrorsSince } from "./server-log";

test("made-up and mangled addresses answer 404 and log no error", async ({ request }) => {
  const from = logSize();
  for (const path of ["/finns-inte", "/finns-inte.data", "/assets/..%2f..%2fpackage.json", "/admin%2fkunder"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(404);
  }
  expect(serverErrorsSince(from)).toEqual([]);
});
