// Every route of the production build's manifest, requested
// GET and POST as five kinds of user, against one expected-status table; a route
// without a row fails the test. Retailer A asks with retailer B's ids in the URL and
// in form fields. The same sweep checks the security headers on every answer, that
// no GET changes the database, and that every cross-site POST is refused and changes
// nothing. It runs on a server of its own, so no other test writes to the database it
// compares.
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { addDays, today } from "../../app/lib/dates";
import { schema } from "../../db/client";
import { createBundle, createCustomer, createDelivery, createDistributor, createLabelBlock, createReturn, createStaff, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { client, formToken, logIn, startOwnServer, type OwnServer } from "./own-server";
import { portalNow } from "../../db/clock";

test.describe.configure({ mode: "serial" });

const ROLES = ["anon", "a", "sales", "utb", "admin"] as const;
type Role = (typeof ROLES)[number];

/**
 * One cell per role, in the order anon, A, sales, utb (another distributor), admin:
 * a status, or L = 302 to a login page (/login?redirectTo=…, staff pages' /personal/logga-in?redirectTo=…), or R = 302 somewhere else (a role that may
 * not use a screen is sent to its own start with a message, spec §6: after a
 * refused POST too, as Remix then runs the layout's loader, which redirects).
 * A POST to a screen without an action is 405, but an anonymous visitor to a screen
 * inside a layout goes to login first: the screen's error boundary renders inside the
 * layout, whose guard runs.
 */
type Cells = string;
type Ids = {
  a: number;
  b: number;
  bBundle: number;
  bDelivery: number;
  bReturn: number;
  bInvoice: number;
  bClaim: number;
  bRecall: number;
  bSupply: number;
  bSupplyDecided: number;
  bSupplyExport: number;
  bCreditNote: number;
  bEmergencyBlock: number;
  bHoliday: number;
  pendingImage: number;
  publishedImage: number;
};
type Row = {
  get: { url: (ids: Ids) => string; want: Cells };
  post: { url?: (ids: Ids) => string; form: (ids: Ids) => Record<string, string>; want: Cells };
};

const noForm = () => ({});
// Staff forms carry B's customer number in every field a staff action reads one from.
const staffForm = (ids: Ids) => ({ intent: "okand-atgard", kund: String(ids.b), customerId: String(ids.b), id: "0" });

/** The expected table. Every URL route of the build must have a row (layouts: null). */
const TABLE: Record<string, Row | null> = {
  root: null,
  "routes/_retailer": null,
  "routes/_staff": null,
  "routes/login": {
    get: { url: () => "/login", want: "200 R R R R" },
    // Someone logged in is sent home by the loader, whatever the form held.
    post: { form: () => ({ kundnummer: "", pinkod: "" }), want: "400 R R R R" },
  },
  // Staff's own login page (decision 027): as /login, with the staff fields.
  "routes/personal.logga-in": {
    get: { url: () => "/personal/logga-in", want: "200 R R R R" },
    post: { form: () => ({ epost: "", losenord: "" }), want: "400 R R R R" },
  },
  // The code step of a staff login: without a pending login it says so (200) or sends
  // the POST to /login; someone logged in goes to /login, which sends them home.
  "routes/login_.kod": {
    get: { url: () => "/login/kod", want: "200 L L L L" },
    post: { form: () => ({ kod: "123456" }), want: "L L L L L" },
  },
  "routes/logout": {
    get: { url: () => "/logout", want: "L 200 200 200 200" },
    post: { form: noForm, want: "L L L L L" },
  },
  // The unsubscribe link of the reminder mails: no login, the signed token decides; a forged one is 400 for all.
  "routes/avsluta-paminnelser": {
    get: { url: (ids) => `/avsluta-paminnelser?t=${ids.b}.20990101.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`, want: "400 400 400 400 400" },
    post: { url: (ids) => `/avsluta-paminnelser?t=${ids.b}.20990101.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`, form: () => ({ "List-Unsubscribe": "One-Click" }), want: "400 400 400 400 400" },
  },
  "routes/app": {
    get: { url: () => "/app", want: "200 200 200 200 200" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/start": {
    get: { url: () => "/start", want: "R R R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/webbshop": {
    get: { url: () => "/webbshop", want: "R R R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/bilder.$id": {
    // A pending (unpublished) upload is staff-only; a retailer or a visitor gets 404.
    get: { url: (ids) => `/bilder/${ids.pendingImage}`, want: "404 404 200 200 200" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/aviseringar": {
    get: { url: () => "/aviseringar", want: "L R R R R" },
    post: { form: () => ({ redirectTo: "/" }), want: "L R 403 403 403" },
  },
  "routes/tillbaka-till-personal": {
    get: { url: () => "/tillbaka-till-personal", want: "L R R R R" },
    // A retailer's own session was not opened by staff.
    post: { form: noForm, want: "L 403 403 403 403" },
  },
  // The app variant's paths lead to their web pages for everyone, permanently (the page asks for the login).
  "routes/papers.$reportState": {
    get: { url: () => "/papers/2", want: "301 301 301 301 301" },
    post: { url: () => "/papers/2", form: noForm, want: "405 405 405 405 405" },
  },
  "routes/addreturns": {
    get: { url: () => "/addreturns", want: "301 301 301 301 301" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/delivery": {
    get: { url: () => "/delivery", want: "301 301 301 301 301" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/services": {
    get: { url: () => "/services", want: "301 301 301 301 301" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/development": {
    get: { url: () => "/development", want: "301 301 301 301 301" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/returrapportering": {
    get: { url: () => "/returrapportering", want: "L R R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/tillaggsrapportering": {
    get: { url: () => "/tillaggsrapportering", want: "L R R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/journal[.pdf]": {
    get: { url: () => "/journal.pdf", want: "L 200 R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/faktura.$file": {
    get: { url: (ids) => `/faktura/${ids.bInvoice}.pdf`, want: "L 404 R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/kreditfaktura.$file": {
    get: { url: (ids) => `/kreditfaktura/${ids.bCreditNote}.pdf`, want: "L 404 R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/nodetiketter.$file": {
    get: { url: (ids) => `/nodetiketter/${ids.bEmergencyBlock}.pdf`, want: "L 404 R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  // B's bundle 777 is unknown to A (A has none of that number): the same 404 as a number that is none.
  "routes/buntinnehall.$bunt[.]pdf": {
    get: { url: (ids) => `/buntinnehall/${ids.bBundle}.pdf`, want: "L 404 R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/returkvitto[.]pdf": {
    get: { url: () => "/returkvitto.pdf", want: "L 200 R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/rapportering.$reportState.returer[.]pdf": {
    get: { url: () => "/rapportering/1/returer.pdf", want: "L 200 R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/_retailer._index": {
    get: { url: (ids) => `/?bunt=${ids.bBundle}`, want: "L 200 R R R" },
    post: { url: () => "/?index", form: (ids) => ({ intent: "close", bunt: String(ids.bBundle) }), want: "L 400 R R R" },
  },
  "routes/_retailer.rapportering.$reportState": {
    get: { url: () => "/rapportering/1", want: "L 200 R R R" },
    post: {
      form: (ids) => ({
        intent: "save",
        token: "access-matrix",
        line: `r${ids.bReturn}`,
        [`r${ids.bReturn}.delivery`]: String(ids.bDelivery),
        [`r${ids.bReturn}.bundle`]: String(ids.bBundle),
        [`r${ids.bReturn}.amount`]: "1",
      }),
      want: "L 400 R R R",
    },
  },
  "routes/_retailer.rapportering.$reportState.bekrafta": {
    get: { url: () => "/rapportering/1/bekrafta", want: "L 200 R R R" },
    // A bundle number A does not have is no decision of A's: ignored, B's bundle stays open.
    post: { form: (ids) => ({ [`b.${ids.bBundle}`]: "closed" }), want: "L R R R R" },
  },
  "routes/_retailer.foljesedel": {
    get: { url: () => `/foljesedel?info=${today()}`, want: "L 200 R R R" },
    post: { form: (ids) => ({ intent: "spara-mottaget", deliveryId: String(ids.bDelivery), mottagit: "1" }), want: "L 404 R R R" },
  },
  "routes/_retailer.helgsparr": {
    get: { url: () => "/helgsparr", want: "L 200 R R R" },
    post: { form: (ids) => ({ intent: "stangt", holidayId: String(ids.bHoliday), customerId: String(ids.b) }), want: "L R R R R" },
  },
  "routes/_retailer.lopsedlar": {
    get: { url: () => "/lopsedlar", want: "L 200 R R R" },
    post: { form: (ids) => ({ titel: "1", "antal-1": "4", customerId: String(ids.b) }), want: "L R R R R" },
  },
  "routes/_retailer.aterkallelser": {
    get: { url: () => "/aterkallelser", want: "L 200 R R R" },
    // B's recall: A cannot acknowledge it (never reached A).
    post: { form: (ids) => ({ aterkallelse: String(ids.bRecall), antal: "1" }), want: "L 404 R R R" },
  },
  "routes/_retailer.leverans": {
    get: { url: () => "/leverans", want: "L 200 R R R" },
    // B's request: A cannot take it back (the same answer as for an unknown one).
    post: { form: (ids) => ({ intent: "angra", andring: String(ids.bSupply) }), want: "L 404 R R R" },
  },
  "routes/_retailer.reklamationer": {
    get: { url: () => "/reklamationer", want: "L 200 R R R" },
    post: { form: noForm, want: "L 405 R R R" },
  },
  "routes/_retailer.forsaljning": {
    get: { url: () => "/forsaljning", want: "L 200 R R R" },
    post: { form: noForm, want: "L 405 R R R" },
  },
  "routes/_retailer.paminnelser": {
    get: { url: () => "/paminnelser", want: "L 200 R R R" },
    // On without an address is refused; the settings are always the session's customer's.
    post: { form: (ids) => ({ paminnelser: "1", epost: "", customerId: String(ids.b) }), want: "L 400 R R R" },
  },
  "routes/_retailer.oppettider": {
    get: { url: () => "/oppettider", want: "L 200 R R R" },
    // A week without times is refused; the hours are always the session's customer's.
    post: { form: (ids) => ({ version: "-", "oppnar-1": "06:00", customerId: String(ids.b) }), want: "L 400 R R R" },
  },
  "routes/_retailer.nodetiketter": {
    get: { url: () => "/nodetiketter", want: "L 200 R R R" },
    post: { form: (ids) => ({ antal: "0", customerId: String(ids.b) }), want: "L 400 R R R" },
  },
  "routes/_retailer.order": {
    get: { url: (ids) => `/order?block=${ids.bEmergencyBlock}`, want: "L 200 R R R" },
    post: { form: (ids) => ({ intent: "okand", customerId: String(ids.b) }), want: "L 400 R R R" },
  },
  "routes/_retailer.mina-tjanster": {
    get: { url: () => "/mina-tjanster", want: "L R R R R" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/_retailer.buntblock": {
    get: { url: () => "/buntblock", want: "L 200 R R R" },
    post: { form: noForm, want: "L 405 R R R" },
  },
  "routes/_retailer.buntsok": {
    // B's bundle number is not one of A's bundles: not found.
    get: { url: (ids) => `/buntsok?id=${ids.bBundle}`, want: "L 404 R R R" },
    post: { form: noForm, want: "L 405 R R R" },
  },
  "routes/_retailer.faktura": {
    get: { url: (ids) => `/faktura?fel=${ids.bInvoice}`, want: "L 200 R R R" },
    post: { form: noForm, want: "L 405 R R R" },
  },
  "routes/_retailer.historik": {
    get: { url: () => `/historik?fran=${addDays(today(), -30)}&till=${today()}`, want: "L 200 R R R" },
    post: { form: noForm, want: "L 405 R R R" },
  },
  "routes/_retailer.journal": {
    get: { url: () => "/journal", want: "L 200 R R R" },
    post: { form: noForm, want: "L 405 R R R" },
  },
  "routes/_retailer.kontakt": {
    get: { url: () => "/kontakt", want: "L 200 R R R" },
    post: { form: noForm, want: "L 405 R R R" },
  },
  "routes/_retailer.produkter": {
    get: { url: () => "/produkter", want: "L 200 R R R" },
    post: { form: noForm, want: "L 405 R R R" },
  },
  "routes/_retailer.provision": {
    get: { url: () => "/provision?pris=30", want: "L 200 R R R" },
    post: { form: noForm, want: "L 405 R R R" },
  },
  "routes/_staff.admin._index": {
    get: { url: () => "/admin?index", want: "L R R R 200" },
    post: { url: () => "/admin?index", form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.kund.oppna": {
    get: { url: () => "/admin/kund/oppna", want: "L R R R 200" },
    post: { form: () => ({ kundnummer: "" }), want: "L R 403 403 400" },
  },
  "routes/_staff.admin.kund.logga-ut": {
    get: { url: () => "/admin/kund/logga-ut", want: "L R R R 200" },
    post: { form: () => ({ kundnummer: "" }), want: "L R 403 403 400" },
  },
  "routes/_staff.admin.distribution": {
    // utb asks for B (another distributor's customer) by number: not found for it.
    get: { url: (ids) => `/admin/distribution?kund=${ids.b}`, want: "L R 200 404 200" },
    post: { form: noForm, want: "L R 405 405 405" },
  },
  "routes/_staff.admin.distribution_.export[.]xlsx": {
    get: { url: () => "/admin/distribution/export.xlsx?utb=2", want: "L R 200 403 200" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/_staff.admin.distribution_.forsaljning": {
    get: { url: () => "/admin/distribution/forsaljning?utb=2", want: "L R 200 403 200" },
    // A screen without an action: the layout's guard first, then 405.
    post: { form: noForm, want: "L R 405 405 405" },
  },
  "routes/_staff.admin.avstamning": {
    get: { url: () => "/admin/avstamning", want: "L R R R 200" },
    post: { form: noForm, want: "L R 405 405 405" },
  },
  "routes/_staff.admin.avstamning_.export[.]xlsx": {
    get: { url: () => "/admin/avstamning/export.xlsx", want: "L R R R 200" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/_staff.admin.leveransreklamation": {
    get: { url: () => "/admin/leveransreklamation?utb=2", want: "L R 200 403 200" },
    // Deciding several claims at once: admin and utb; nothing chosen is refused.
    post: { form: noForm, want: "L R 403 400 400" },
  },
  "routes/_staff.admin.leveransreklamation_.$id": {
    // B's claim: a utb user of another distributor gets the same 404 as for an unknown claim.
    get: { url: (ids) => `/admin/leveransreklamation/${ids.bClaim}`, want: "L R 200 404 200" },
    post: { form: (ids) => ({ intent: "besluta", arende: String(ids.bClaim), beslut: "avsla", motivering: "Matris" }), want: "L R 403 404 R" },
  },
  "routes/_staff.admin.leveransandringar": {
    get: { url: () => "/admin/leveransandringar", want: "L R 200 200 200" },
    post: { form: noForm, want: "L R 400 400 400" },
  },
  "routes/_staff.admin.leveransandringar_.$id": {
    // B's change (decided): a utb user of another distributor gets the same 404 as for an unknown one.
    get: { url: (ids) => `/admin/leveransandringar/${ids.bSupplyDecided}`, want: "L R 200 404 200" },
    // Already decided: refused for those who may see it, unknown to the others.
    post: { form: (ids) => ({ andring: String(ids.bSupplyDecided), beslut: "godkann" }), want: "L R 409 404 409" },
  },
  "routes/_staff.admin.leveransandringar_.planering.$file": {
    get: { url: (ids) => `/admin/leveransandringar/planering/${ids.bSupplyExport}.xlsx`, want: "L R 200 404 200" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/_staff.admin.aterkallelser": {
    get: { url: () => "/admin/aterkallelser", want: "L R 200 200 200" },
    post: { form: () => ({ intent: "skapa" }), want: "L R 403 403 400" },
  },
  "routes/_staff.admin.aterkallelser_.$id": {
    // B's recall: a utb user of another distributor gets the same 404 as for an unknown one.
    get: { url: (ids) => `/admin/aterkallelser/${ids.bRecall}`, want: "L R 200 404 200" },
    post: { form: (ids) => ({ intent: "avsluta", aterkallelse: String(ids.bRecall) }), want: "L R 403 403 R" },
  },
  "routes/_staff.admin.aterkallelser_.$id.export[.]xlsx": {
    get: { url: (ids) => `/admin/aterkallelser/${ids.bRecall}/export.xlsx`, want: "L R 200 404 200" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/_staff.admin.leveransreklamation_.export[.]xlsx": {
    get: { url: () => "/admin/leveransreklamation/export.xlsx?utb=2", want: "L R 200 403 200" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  // Kunder: admin and sales see every customer, utb (distributor 3) not B.
  "routes/_staff.admin.kunder._index": {
    get: { url: (ids) => `/admin/kunder?sok=${ids.b}`, want: "L R 200 200 200" },
    post: { form: noForm, want: "L R 405 405 405" },
  },
  "routes/_staff.admin.kunder.$kund": {
    get: { url: (ids) => `/admin/kunder/${ids.b}`, want: "L R 200 404 200" },
    post: { url: (ids) => `/admin/kunder/${ids.b}`, form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.kunder.$kund.kreditfaktura.$file": {
    // B's credit note: utb (another distributor) does not find the customer.
    get: { url: (ids) => `/admin/kunder/${ids.b}/kreditfaktura/${ids.bCreditNote}.pdf`, want: "L R 200 404 200" },
    post: { url: (ids) => `/admin/kunder/${ids.b}/kreditfaktura/${ids.bCreditNote}.pdf`, form: noForm, want: "405 405 405 405 405" },
  },
  "routes/_staff.admin.kunder.$kund_.kreditera.$nummer": {
    // Kreditera: admin only. The post names another invoice than the page's (refused, B's rows
    // stay as they were); crediting itself is e2e-tested in credit-notes.spec.ts.
    get: { url: (ids) => `/admin/kunder/${ids.b}/kreditera/${ids.bInvoice}`, want: "L R R R 200" },
    post: { form: () => ({ intent: "kreditera", faktura: "1", motivering: "Matris" }), want: "L R 403 403 400" },
  },
  "routes/_staff.admin.kunder.$kund.faktura.$file": {
    // B's invoice: utb (another distributor) does not find the customer.
    get: { url: (ids) => `/admin/kunder/${ids.b}/faktura/${ids.bInvoice}.pdf`, want: "L R 200 404 200" },
    post: { url: (ids) => `/admin/kunder/${ids.b}/faktura/${ids.bInvoice}.pdf`, form: noForm, want: "405 405 405 405 405" },
  },
  "routes/_staff.admin.kunder.$kund_.andra": {
    get: { url: (ids) => `/admin/kunder/${ids.b}/andra`, want: "L R R R 200" },
    post: { url: (ids) => `/admin/kunder/${ids.b}/andra`, form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.kunder.ny": {
    get: { url: () => "/admin/kunder/ny", want: "L R R R 200" },
    post: { form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.kunder.$kund.pinbrev": {
    get: { url: (ids) => `/admin/kunder/${ids.b}/pinbrev`, want: "R R R R R" },
    // A PIN posted by the browser prints nothing: the letter comes only from "Ny pinkod"'s ticket.
    post: { url: (ids) => `/admin/kunder/${ids.b}/pinbrev`, form: () => ({ pin: "8765" }), want: "L 403 403 403 R" },
  },
  "routes/_staff.admin.logg._index": {
    get: { url: (ids) => `/admin/logg?kund=${ids.b}`, want: "L R R R 200" },
    post: { form: noForm, want: "L R 405 405 405" },
  },
  "routes/_staff.admin.logg.export[.]xlsx": {
    get: { url: (ids) => `/admin/logg/export.xlsx?kund=${ids.b}`, want: "L R R R 200" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  // Every staff user's own password: no other user's data on it, an empty form is 400.
  "routes/_staff.admin.losenord": {
    get: { url: () => "/admin/losenord", want: "L R 200 200 200" },
    post: { form: staffForm, want: "L R 400 400 400" },
  },
  "routes/_staff.admin.personal": {
    get: { url: () => "/admin/personal", want: "L R R R 200" },
    post: { form: staffForm, want: "L R 403 403 400" },
  },
  // Svar per helgdag: admin and sales every customer; utb (distributor 3) only its own, so B's name never shows.
  "routes/_staff.admin.holidays_.$id.svar": {
    get: { url: (ids) => `/admin/holidays/${ids.bHoliday}/svar`, want: "L R 200 200 200" },
    post: { form: noForm, want: "L R 405 405 405" },
  },
  "routes/_staff.admin.holidays_.$id.svar[.]xlsx": {
    get: { url: (ids) => `/admin/holidays/${ids.bHoliday}/svar.xlsx`, want: "L R 200 200 200" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/_staff.admin.invoice_.korning": {
    get: { url: () => "/admin/invoice/korning", want: "L R R R 200" },
    // An empty period: sent back to the form with a message, nothing run.
    post: { form: noForm, want: "L R 403 403 R" },
  },
  // Every invoice of a run to Excel: admin only; a run that is not there is 404.
  "routes/_staff.admin.invoice_.korning_.$id.fakturor[.]xlsx": {
    get: { url: () => "/admin/invoice/korning/999999999/fakturor.xlsx", want: "L R R R 404" },
    post: { form: noForm, want: "405 405 405 405 405" },
  },
  "routes/_staff.admin.messages": {
    get: { url: () => "/admin/messages", want: "L R R R 200" },
    post: { form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.bundles": {
    get: { url: (ids) => `/admin/bundles?kund=${ids.b}`, want: "L R R R 200" },
    post: { form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.dailyproducts_.ny": {
    get: { url: () => "/admin/dailyproducts/ny", want: "L R R R 200" },
    post: { form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.dailyproducts": {
    get: { url: () => "/admin/dailyproducts", want: "L R R R 200" },
    post: { form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.products": {
    get: { url: () => "/admin/products", want: "L R R R 200" },
    post: { form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.kreditering": {
    // B's bundle: a utb user of A's distributor gets the same 404 as for an unknown bundle.
    get: { url: (ids) => `/admin/kreditering?kund=${ids.b}&bunt=${ids.bBundle}`, want: "L R 200 404 200" },
    post: { form: noForm, want: "L R 405 405 405" },
  },
  "routes/_staff.admin.returdagar": {
    get: { url: () => "/admin/returdagar", want: "L R R R 200" },
    post: { form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.holidays": {
    get: { url: () => "/admin/holidays", want: "L R R R 200" },
    post: { form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.invoice": {
    get: { url: () => "/admin/invoice", want: "L R R R 200" },
    post: { form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.guarantees": {
    get: { url: (ids) => `/admin/guarantees?kund=${ids.b}`, want: "L R R R 200" },
    post: { form: staffForm, want: "L R 403 403 400" },
  },
  "routes/_staff.admin.guarantees.fil": {
    get: { url: () => "/admin/guarantees/fil", want: "L R R R 405" },
    post: { form: staffForm, want: "L 403 403 403 400" },
  },
};

type Manifest = Record<string, { id: string; parentId?: string; path?: string; index?: boolean; module: { loader?: unknown; action?: unknown } }>;

async function manifest(): Promise<{ routes: Manifest; entry: string }> {
  const dir = resolve(process.env.REMIX_BUILD_DIR || "build");
  const build = (await import(pathToFileURL(`${dir}/server/index.js`).href)) as { routes: Manifest; assets: { entry: { module: string } } };
  return { routes: build.routes, entry: build.assets.entry.module };
}

/** The URL pattern of a route: its own path joined to its parents'. */
function fullPath(routes: Manifest, id: string): string | null {
  const parts: string[] = [];
  let addressable = false;
  for (let r = routes[id]; r; r = r.parentId ? routes[r.parentId] : (undefined as never)) {
    if (r.path) parts.unshift(r.path);
    if (r.id === id) addressable = Boolean(r.path || r.index);
  }
  return addressable ? "/" + parts.join("/") : null;
}

const MARK = `Hemlig${Math.random().toString(36).slice(2, 10)}`;
let server: OwnServer;
let ids: Ids;
const ctx = {} as Record<Role, APIRequestContext>;
const creds = {} as Record<Exclude<Role, "anon">, { name: string | number; secret: string }>;
const figures = { requests: 0, get: 0, post: 0, crossSite: 0, headerChecks: 0, markerChecks: 0 };

test.beforeAll(async () => {
  // Thousands of requests: a loaded CI machine has taken 1.4–2 min (a hang is what this limit is for).
  test.setTimeout(300_000);
  server = await startOwnServer("access-matrix");
  const db = server.db;
  await ensureTitlesAndEditions(db);
  for (const d of [1, 2, 3]) await createDistributor(db, d);
  const a = 30001;
  const b = 30002;
  await createCustomer(db, { id: a, distributorId: 1, pin: "4321", name: "Kiosk A" });
  // B's name and address are the marker no answer to A (or to utb 3) may contain.
  await createCustomer(db, { id: b, distributorId: 2, pin: "8765", name: `${MARK} Kiosk B`, address: `${MARK}gatan 9` });
  const day = today();
  for (const c of [a, b]) {
    await createLabelBlock(db, { customerId: c, type: 0, status: "Levererad", fromDate: addDays(day, -30), toDate: addDays(day, 300), fromNumber: 101, toNumber: 150 });
  }
  const bundleB = await createBundle(db, { customerId: b, number: 777, type: 0, open: true, closedDate: null });
  const deliveryB = await createDelivery(db, { customerId: b, titleId: 1, editionId: 1, deliveryDate: day, delivered: 20, priceOre: 2200, reportedAt: null, received: null });
  await createDelivery(db, { customerId: a, titleId: 1, editionId: 1, deliveryDate: day, delivered: 20, priceOre: 2200, reportedAt: null, received: null });
  const returnB = await createReturn(db, { customerId: b, bundleId: bundleB.id, deliveryId: deliveryB.id, amount: 3 });
  const shortB = await createDelivery(db, { customerId: b, titleId: 2, editionId: 1, deliveryDate: day, delivered: 20, priceOre: 2163, reportedAt: null, received: 15 });
  const [claimB] = await db.insert(schema.claims).values({ deliveryId: shortB.id, customerId: b, copies: 5 }).returning();
  // A recall that reaches B only (distributor 2): A is not locked, utb 3 does not see it.
  const [recallB] = await db
    .insert(schema.recalls)
    .values({ titleId: 1, dateFrom: day, dateTo: day, reason: `${MARK} orsak`, action: "returnera", allDistributors: false, deadlineAt: portalNow() + 86_400_000, createdBy: "cli" })
    .returning();
  await db.insert(schema.recallEditions).values({ recallId: recallB.id, editionId: 1 });
  await db.insert(schema.recallDistributors).values({ recallId: recallB.id, distributorId: 2 });
  await db.insert(schema.recallCustomers).values({ recallId: recallB.id, customerId: b, delivered: 20 });
  // B's request for changed deliveries, and one decided and sent to planning.
  const [supplyB] = await db
    .insert(schema.supplyChanges)
    .values({ customerId: b, titleId: 1, editionId: 1, weekday: 6, oldCopies: 20, requested: 22, status: "sent", origin: "retailer", startDate: addDays(day, 14), cutoffAt: portalNow() + 86_400_000, createdBy: `customer:${b}` })
    .returning();
  const [exportB] = await db.insert(schema.supplyExports).values({ createdBy: "cli", rowCount: 1 }).returning();
  const [decidedB] = await db
    .insert(schema.supplyChanges)
    .values({ customerId: b, titleId: 1, editionId: 1, weekday: 5, oldCopies: 20, requested: 18, newCopies: 18, status: "approved", origin: "retailer", reason: `${MARK} skäl`, startDate: addDays(day, 14), cutoffAt: portalNow(), createdBy: `customer:${b}`, decidedBy: "cli", exportId: exportB.id })
    .returning();
  const emergency = await createLabelBlock(db, { customerId: b, type: 7, status: "Levererad", fromDate: day, toDate: day, fromNumber: 151, toNumber: 155 });
  const [invoice] = await db
    .insert(schema.invoices)
    .values({ number: 990001, customerId: b, paperType: 0, date: day, dueDate: addDays(day, 30), periodFrom: addDays(day, -30), periodTo: day, netOre: 100, vatOre: 6, amountOre: 106, status: "Obetald" })
    .returning();
  await db.insert(schema.invoiceLines).values({ invoiceId: invoice.id, description: `${MARK} rad`, quantity: 1, unitPriceOre: 100, vatPermille: 60, netOre: 100 });
  const [creditNote] = await db
    .insert(schema.creditNotes)
    .values({ number: 990002, invoiceId: invoice.id, customerId: b, paperType: 0, date: day, reason: `${MARK} orsak`, netOre: 0, vatOre: 0, amountOre: 0, actor: "cli", buyer: { id: b, name: `${MARK} Kiosk B`, coAddress: "", address: "", zip: "", city: "", orgNumber: "" } })
    .returning();
  // Outside its report window: no alert (and no lock) for anyone.
  const [holiday] = await db
    .insert(schema.holidays)
    .values({ description: "Matrisdagen", day: addDays(day, 60), startReportDay: addDays(day, 50), startForceReportDay: addDays(day, 55) })
    .returning();
  await db.insert(schema.holidayReports).values({ holidayId: holiday.id, customerId: b, open: true });
  await db.insert(schema.placards).values({ customerId: b, titleId: 1, amount: 9, newAmount: 12 });
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEklEQVR4nGP4z8DAwMDAxAAAHgMDAKqo9y4AAAAASUVORK5CYII=", "base64");
  const [pending] = await db.insert(schema.images).values({ filename: "p.png", contentType: "image/png", data: png, sha256: "p".repeat(64), published: false }).returning();
  const [published] = await db.insert(schema.images).values({ filename: "q.png", contentType: "image/png", data: png, sha256: "q".repeat(64), published: true }).returning();
  ids = {
    a,
    b,
    bBundle: bundleB.number,
    bDelivery: deliveryB.id,
    bReturn: returnB.id,
    bInvoice: invoice.number,
    bClaim: claimB.id,
    bRecall: recallB.id,
    bSupply: supplyB.id,
    bSupplyDecided: decidedB.id,
    bSupplyExport: exportB.id,
    bCreditNote: creditNote.number,
    bEmergencyBlock: emergency.id,
    bHoliday: holiday.id,
    pendingImage: pending.id,
    publishedImage: published.id,
  };

  const password = "matrix-password-1";
  for (const [role, roles, dist] of [["sales", "sales", null], ["utb", "utb", 3], ["admin", "admin", null]] as const) {
    const email = `${role}@matrix.example`;
    await createStaff(db, { email, name: `Matris ${role}`, password, roles, distributorId: dist });
    creds[role] = { name: email, secret: password };
  }
  creds.a = { name: a, secret: "4321" };
  for (const role of ROLES) {
    ctx[role] = await client(server.baseURL);
    if (role !== "anon") await logIn(ctx[role], creds[role].name, creds[role].secret);
  }
});

test.afterAll(async () => {
  for (const c of Object.values(ctx)) await c.dispose();
  await server?.stop();
});

function statusCell(res: APIResponse): string {
  if (res.status() !== 302) return String(res.status());
  return /^\/(login|personal\/logga-in)(\?|$)/.test(res.headers()["location"] ?? "") ? "L" : "R";
}

/**
 * What the answers of the running test got wrong besides their status: collected over the
 * whole table, so one run names every answer at fault, and asserted (hard) when the test ends.
 */
const faults: string[] = [];
test.afterEach(() => {
  expect(faults.splice(0), "headers missing, or B's data given").toEqual([]);
});

/** Security headers every answer carries (item 9). */
function checkHeaders(res: APIResponse, what: string) {
  const h = res.headers();
  const csp = h["content-security-policy"] ?? "";
  const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src")) ?? "";
  if (!/'nonce-[A-Za-z0-9+/=]{16,}'/.test(scriptSrc)) faults.push(`${what}: script-src without a nonce`);
  if (scriptSrc.includes("unsafe-inline")) faults.push(`${what}: unsafe-inline scripts`);
  if (!csp.includes("frame-ancestors 'none'")) faults.push(`${what}: no frame-ancestors 'none'`);
  if (h["x-content-type-options"] !== "nosniff") faults.push(`${what}: no nosniff`);
  if (h["referrer-policy"] !== "same-origin") faults.push(`${what}: Referrer-Policy ${h["referrer-policy"]}`);
  figures.headerChecks++;
}

async function checkNoMarker(res: APIResponse, role: Role, what: string) {
  if (role !== "a" && role !== "utb") return;
  const body = (await res.body()).toString("latin1") + (await res.body()).toString("utf8");
  if (body.includes(MARK)) faults.push(`${what}: ${role} was given retailer B's data`);
  figures.markerChecks++;
}

/** Row counts and the newest updated_at of every table that users change. */
async function snapshot(opts: { sessionCounts: boolean }) {
  const tables = await server.db.$client.execute("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name");
  const out: Record<string, unknown> = {};
  for (const { name } of tables.rows as unknown as { name: string }[]) {
    if (name === "audit_log") continue;
    if (name === "sessions" && !opts.sessionCounts) continue;
    const cols = await server.db.$client.execute(`pragma table_info("${name}")`);
    const hasUpdated = (cols.rows as unknown as { name: string }[]).some((c) => c.name === "updated_at");
    const q = await server.db.$client.execute(`select count(*) as n${hasUpdated && name !== "sessions" ? ", max(updated_at) as u" : ""} from "${name}"`);
    out[name] = q.rows[0];
  }
  return JSON.stringify(out);
}

async function bRows() {
  const out: unknown[] = [];
  for (const t of ["bundles", "returns", "deliveries", "placards", "holiday_reports", "label_blocks", "invoices"]) {
    out.push((await server.db.$client.execute({ sql: `select * from "${t}" where customer_id = ? order by rowid`, args: [ids.b] })).rows);
  }
  return JSON.stringify(out);
}

test("every route has a row in the expected table, and nothing else does", async () => {
  const { routes } = await manifest();
  const missing = Object.keys(routes).filter((id) => !(id in TABLE));
  expect(missing, "routes without a row in TABLE").toEqual([]);
  const stale = Object.keys(TABLE).filter((id) => !(id in routes));
  expect(stale, "rows for routes that no longer exist").toEqual([]);
  for (const id of Object.keys(routes)) {
    const addressable = fullPath(routes, id) !== null;
    expect(TABLE[id] !== null, `${id}: a URL route needs a row, a layout null`).toBe(addressable);
  }
});

test("GET: every route as every role answers as the table says, never with B's data, with the security headers, and changes nothing", async () => {
  // Thousands of requests: a loaded CI machine has taken 1.4–2 min (a hang is what this limit is for).
  test.setTimeout(300_000);
  const { routes, entry } = await manifest();
  const before = await snapshot({ sessionCounts: false });
  const bBefore = await bRows();
  const got: string[] = [];
  const want: string[] = [];
  for (const id of Object.keys(routes).sort()) {
    const row = TABLE[id];
    if (!row) continue;
    const url = row.get.url(ids);
    const cells: string[] = [];
    for (const role of ROLES) {
      const res = await ctx[role].get(url);
      figures.requests++;
      figures.get++;
      cells.push(statusCell(res));
      checkHeaders(res, `GET ${url} as ${role}`);
      await checkNoMarker(res, role, `GET ${url}`);
      // The single-fetch data request of the same URL is guarded the same way.
      if (!/\.(pdf|xlsx)$/.test(new URL(url, server.baseURL).pathname) && !id.includes("bilder")) {
        const u = new URL(url, server.baseURL);
        const dataUrl = `${u.pathname === "/" ? "/_root" : u.pathname}.data${u.search}`;
        const d = await ctx[role].get(dataUrl);
        figures.requests++;
        figures.get++;
        checkHeaders(d, `GET ${dataUrl} as ${role}`);
        await checkNoMarker(d, role, `GET ${dataUrl}`);
      }
    }
    got.push(`${id}: ${cells.join(" ")}`);
    want.push(`${id}: ${row.get.want}`);
  }
  // Answers outside the route table: an unknown page, a static asset, a published image.
  for (const [url, status] of [["/finns-inte-alls", 404], [entry, 200], [`/bilder/${ids.publishedImage}`, 200]] as const) {
    for (const role of ROLES) {
      const res = await ctx[role].get(url);
      figures.requests++;
      expect(res.status(), `GET ${url} as ${role}`).toBe(status);
      checkHeaders(res, `GET ${url} as ${role}`);
    }
  }
  expect(got.join("\n"), "the status table").toBe(want.join("\n"));
  // The control: B's own pages do show the marker, so its absence above means something.
  const asB = await client(server.baseURL);
  await logIn(asB, ids.b, "8765");
  expect((await (await asB.get("/kontakt")).text()).includes(MARK)).toBe(true);
  await asB.dispose();
  expect(await snapshot({ sessionCounts: false }), "a GET changed data").toBe(before);
  expect(await bRows()).toBe(bBefore);
});

test("POST: every route as every role, with B's ids in the form, answers as the table says and leaves B's data alone", async () => {
  // Thousands of requests: a loaded CI machine has taken 1.4–2 min (a hang is what this limit is for).
  test.setTimeout(300_000);
  const { routes } = await manifest();
  const bBefore = await bRows();
  const got: string[] = [];
  const want: string[] = [];
  // Logging out ends the session, so that row goes last.
  const order = Object.keys(routes)
    .sort()
    .sort((x, y) => Number(x === "routes/logout") - Number(y === "routes/logout"));
  for (const id of order) {
    const row = TABLE[id];
    if (!row) continue;
    const url = (row.post.url ?? row.get.url)(ids);
    const cells: string[] = [];
    for (const role of ROLES) {
      // With the session's own form token, so each cell shows the route's answer, not the token check.
      const res = await ctx[role].post(url, { form: { csrf: await formToken(ctx[role]), ...row.post.form(ids) }, headers: { Origin: server.baseURL } });
      figures.requests++;
      figures.post++;
      cells.push(statusCell(res));
      checkHeaders(res, `POST ${url} as ${role}`);
      await checkNoMarker(res, role, `POST ${url}`);
    }
    got.push(`${id}: ${cells.join(" ")}`);
    want.push(`${id}: ${row.post.want}`);
  }
  expect(got.join("\n"), "the status table").toBe(want.join("\n"));
  expect(await bRows(), "retailer B's rows changed").toBe(bBefore);
  // The logout rows ended every session on the server: the old cookies no longer work.
  for (const role of ["a", "admin"] as const) {
    expect(statusCell(await ctx[role].get(role === "a" ? "/kontakt" : "/admin/messages"))).toBe("L");
    await logIn(ctx[role], creds[role].name, creds[role].secret);
  }
});

test("CSRF: a POST from another site to any route is refused with 403 and changes nothing", async () => {
  // Thousands of requests: a loaded CI machine has taken 1.4–2 min (a hang is what this limit is for).
  test.setTimeout(300_000);
  const { routes } = await manifest();
  for (const role of ["a", "admin"] as const) {
    const res = await ctx[role].get(role === "a" ? "/kontakt" : "/admin/messages");
    if (res.status() !== 200) await logIn(ctx[role], creds[role].name, creds[role].secret);
  }
  // The sessions' own form tokens, so only the cross-site check stands in the way.
  const tokens = { anon: await formToken(ctx.anon), a: await formToken(ctx.a), admin: await formToken(ctx.admin) };
  const before = await snapshot({ sessionCounts: true });
  const foreign: Record<string, string>[] = [
    { Origin: "https://evil.example" },
    { "Sec-Fetch-Site": "cross-site" },
    { Origin: "null" },
    { "Sec-Fetch-Site": "same-site", Origin: "https://sub.example" },
  ];
  let actions = 0;
  for (const id of Object.keys(routes).sort()) {
    const row = TABLE[id];
    if (!row) continue;
    if (routes[id].module.action) actions++;
    const url = (row.post.url ?? row.get.url)(ids);
    for (const role of ["anon", "a", "admin"] as const) {
      for (const headers of foreign) {
        for (const path of [url, `${new URL(url, server.baseURL).pathname.replace(/\/$/, "/_root")}.data`]) {
          const res = await ctx[role].post(path, { form: { csrf: tokens[role], ...row.post.form(ids) }, headers });
          figures.requests++;
          figures.crossSite++;
          expect(res.status(), `${JSON.stringify(headers)} POST ${path} as ${role}`).toBe(403);
          checkHeaders(res, `cross-site POST ${path}`);
        }
      }
    }
  }
  expect(actions).toBeGreaterThan(15);
  expect(await snapshot({ sessionCounts: true }), "a refused cross-site POST changed data").toBe(before);
  // Still logged in: the logout POSTs were refused too.
  expect((await ctx.a.get("/kontakt")).status()).toBe(200);
  expect((await ctx.admin.get("/admin/messages")).status()).toBe(200);
  console.log(`access matrix figures: ${JSON.stringify(figures)}`);
});
