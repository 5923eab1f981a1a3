// E-mail reminders as a retailer uses them: turn them on under Påminnelser
// (a missing or bad address refused, what was typed kept), get the mail from the real job
// (`portal remind`, a real SMTP server in this process), and end them by the mail's link
// without logging in — the button, a mail program's one-click POST, a tampered link.
import { spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { addDays } from "../../app/lib/dates";
import { schema } from "../../db/client";
import { eq } from "drizzle-orm";
import { e2eDb, expect, loginAs, makeStaff, test } from "./fixtures";
import { delivery } from "./returns-data";

/** `portal remind --date on` against the e2e database, mailing through `smtpUrl`. Async: the SMTP server runs in this process. */
function remind(on: string, smtpUrl: string, portalUrl: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "cli/portal.ts", "remind", "--date", on], {
      env: { ...process.env, DATABASE_URL: `file:tests/.tmp/e2e-${process.env.E2E_PORT || 3100}.db`, SMTP_URL: smtpUrl, PORTAL_URL: portalUrl, MAIL_FROM: "Returportalen <noreply@retur.example.se>" },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

test("a retailer turns reminders on, gets the mail before the last return day, and ends them by its link", async ({ page, browser, retailer }, info) => {
  test.setTimeout(120_000);
  const off = info.project.name === "js-off";
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => (mails.push(mail), callback()), callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const address = `sahin.${retailer.id}@example.se`;
    await e2eDb().update(schema.customers).set({ name: "Şahin Livs" }).where(eq(schema.customers.id, retailer.id));
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/");
    await page.getByRole("link", { name: "Påminnelser" }).first().click();
    await expect(page.getByRole("heading", { name: "Påminnelser via e-post", level: 1 })).toBeVisible();
    await expect(page.getByText("Inga påminnelser skickas.")).toBeVisible();

    // On, without an address: refused, the box stays ticked.
    await page.getByLabel("Skicka påminnelser till min e-post").check();
    await page.getByLabel("E-postadress").fill("");
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByText("Ange e-postadressen som påminnelserna ska skickas till.")).toBeVisible();
    await expect(page.getByLabel("Skicka påminnelser till min e-post")).toBeChecked();
    // A bad address: refused, kept as typed, the field marked.
    await page.getByLabel("E-postadress").fill("şahin@example");
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByText("Ange en giltig e-postadress, t.ex. butik@example.se.")).toBeVisible();
    await expect(page.getByLabel("E-postadress")).toHaveValue("şahin@example");
    await expect(page.getByLabel("E-postadress")).toHaveAttribute("aria-invalid", "true");
    const refused = await page.request.post("/paminnelser", { form: { csrf: await page.locator('input[name="csrf"]').first().inputValue(), paminnelser: "1", epost: "a@b.se\r\nBcc: x@y.se" }, maxRedirects: 0 });
    expect(refused.status()).toBe(400);
    // A good one: saved, and the page says so.
    await page.getByLabel("E-postadress").fill(` ${address} `);
    await page.getByRole("button", { name: "Spara" }).click();
    await expect(page.getByText(`Sparat: påminnelser skickas till ${address}.`)).toBeVisible();
    await expect(page.getByText(`Påminnelser skickas till ${address}.`, { exact: true })).toBeVisible();
    await expect(page.getByLabel("Skicka påminnelser till min e-post")).toBeChecked();

    // A day of this test's own, far from other tests' deliveries: a paper due tomorrow.
    const on = `${2400 + (off ? 0 : 100) + Math.floor(Math.random() * 90)}-03-10`;
    await delivery(retailer.id, { date: addDays(on, -6) });
    const portalUrl = info.project.use.baseURL!;
    const smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    const first = await remind(on, smtpUrl, portalUrl);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(new RegExp(`Påminnelser ${on}: 1 skickade`));
    const second = await remind(on, smtpUrl, portalUrl);
    expect(second.out).toMatch(/0 skickade, 1 redan skickade i dag/);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0].address : null).toBe(address);
    expect(mail.subject).toBe("Påminnelse: 1 tidning har sista returdag i morgon");
    expect(mail.text).toContain("Hej Şahin Livs!");
    expect(mail.text).toContain(`Aftonbladet, utgivningsdag ${addDays(on, -6)}: sista returdag ${addDays(on, 1)}`);
    expect(mail.text).toContain(`${portalUrl}/rapportering/1`);
    const link = new RegExp(`${portalUrl.replace(/[.:/]/g, "\\$&")}/avsluta-paminnelser\\?t=[^\\s]+`).exec(mail.text ?? "")![0];

    // The retailer's page names the mail sent.
    await page.reload();
    await expect(page.getByText(`Senaste påminnelsen skickades ${on} till ${address}.`)).toBeVisible();

    // Customer service sees the same on the customer's page.
    const staff = await browser.newContext({ baseURL: portalUrl, javaScriptEnabled: !off });
    const staffPage = await staff.newPage();
    const admin = await makeStaff("admin");
    await loginAs(staffPage, admin.email, admin.password);
    await staffPage.goto(`/admin/kunder/${retailer.id}`);
    await expect(staffPage.getByText(`Påminnelser skickas till ${address}. Senaste påminnelsen skickades ${on} till ${address}.`)).toBeVisible();
    await staff.close();

    // The link, opened where nobody is logged in: it asks first (a mail scanner's GET changes nothing).
    const stranger = await browser.newContext({ baseURL: portalUrl, javaScriptEnabled: !off });
    const mailPage = await stranger.newPage();
    const tampered = await mailPage.goto(link.replace(/.$/, (c) => (c === "A" ? "B" : "A")));
    expect(tampered?.status()).toBe(400);
    await expect(mailPage.getByText("Länken fungerar inte, eller är för gammal.", { exact: false })).toBeVisible();
    await mailPage.goto(link);
    await expect(mailPage.getByRole("heading", { name: "Avsluta påminnelser", level: 1 })).toBeVisible();
    await expect(mailPage.getByText(`Vill du sluta få påminnelser om sista returdag till ${address} för Şahin Livs (kund ${retailer.id})?`)).toBeVisible();
    const [row] = await e2eDb().select().from(schema.emailReminders).where(eq(schema.emailReminders.customerId, retailer.id));
    expect(row.enabled).toBe(true);
    await mailPage.getByRole("button", { name: "Avsluta påminnelser" }).click();
    await expect(mailPage.getByRole("status")).toHaveText(/Klart: du får inte längre påminnelser via e-post/);
    // A mail program's one-click POST to the same address, after: no error, still off.
    const oneClick = await stranger.request.post(link, { form: { "List-Unsubscribe": "One-Click" } });
    expect(oneClick.status()).toBe(200);
    await stranger.close();
    const [after] = await e2eDb().select().from(schema.emailReminders).where(eq(schema.emailReminders.customerId, retailer.id));
    expect(after.enabled).toBe(false);
    await page.reload();
    await expect(page.getByText("Inga påminnelser skickas.")).toBeVisible();
    await expect(page.getByLabel("E-postadress")).toHaveValue(address);
    // The next day's job mails nothing more.
    await delivery(retailer.id, { date: addDays(on, -5) });
    const next = await remind(addDays(on, 1), smtpUrl, portalUrl);
    expect(next.code, next.out).toBe(0);
    expect(mails).toHaveLength(1);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
