// Trust, second round §6: a name or text with control characters or direction overrides
// (U+202E makes "Livs" read "sviL" on screen and in PDFs) is refused by every form with
// the Swedish message beside its field, 400, and nothing stored; the other fields typed
// come back. Tabs and line breaks in a text area stay allowed.
import { expect, test } from "@playwright/test";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { e2eDb, formToken, makeStaff, uniqueCustomerId } from "./fixtures";
import { client, logIn } from "./own-server";

test("the staff's new-customer form refuses a name with a direction override or a control character", async ({ baseURL }, info) => {
  const admin = await makeStaff("admin");
  const ctx = await client(baseURL!);
  await logIn(ctx, admin.email, admin.password);
  for (const name of ["Şahin \u202ELivs", "Kiosken\u0000", "Tobak\u2066 & Tidningar"]) {
    const id = uniqueCustomerId(info.workerIndex);
    const res = await ctx.post("/admin/kunder/ny", {
      form: { csrf: await formToken(ctx), kundnummer: String(id), name, distributorId: "1", address: "Storgatan 1", zip: "111 20", city: "Stockholm", phone: "", email: "" },
    });
    expect(res.status(), name).toBe(400);
    const html = await res.text();
    expect(html).toContain("Texten innehåller osynliga styr- eller riktningstecken. Skriv in den utan dem.");
    // What was typed elsewhere comes back.
    expect(html).toContain('value="Storgatan 1"');
    // Nothing stored under that name (the number may be another test's customer).
    expect(await e2eDb().select().from(schema.customers).where(eq(schema.customers.name, name))).toHaveLength(0);
  }
  await ctx.dispose();
});
