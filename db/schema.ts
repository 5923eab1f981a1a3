// The whole data model of Returportalen. Money is integer öre, delivery dates are
// `YYYY-MM-DD` (Europe/Stockholm), instants are integer milliseconds UTC.
import { sql, type SQLWrapper } from "drizzle-orm";
import {
  blob,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { clockOffset, portalNow } from "./clock";

/**
 * Now, in SQL, epoch ms: the column default for when a row was made or changed. The
 * database's own clock, unless the portal's clock is shifted (db/clock.ts: tests and demos),
 * and then the portal's time as a parameter, read when the statement is built, so a row
 * made in a test run carries the time the portal decides by. The migrations hold the
 * unshifted form, and so does what drizzle-kit reads here (no setting, no shift).
 */
export const sqlNow = sql`${{
  getSQL: () => (clockOffset() !== 0 ? sql`${portalNow()}` : sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  shouldOmitSQLParens: () => true,
} satisfies SQLWrapper}`;
const now = sqlNow;
const timestamps = {
  createdAt: integer("created_at").notNull().default(now),
  updatedAt: integer("updated_at").notNull().default(now),
};

export const distributors = sqliteTable(
  "distributors",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    // Returns after the paper's last return day (decision 018): 'reject' locks
    // the row, 'accept' stores it marked late. The network follows its publishers' rule.
    lateReturns: text("late_returns").notNull().default("reject"),
    // Make the RETURDAG alert imperative from the day before the last return day.
    deadlineLock: integer("deadline_lock", { mode: "boolean" }).notNull().default(false),
    ...timestamps,
  },
  (t) => [check("late_returns_policy", sql`${t.lateReturns} in ('reject', 'accept')`)],
);

export const customers = sqliteTable(
  "customers",
  {
    // The kundnummer, 1–5 digits.
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    address: text("address").notNull().default(""),
    zip: text("zip").notNull().default(""),
    city: text("city").notNull().default(""),
    distributorId: integer("distributor_id")
      .notNull()
      .references(() => distributors.id),
    contact: text("contact").notNull().default(""),
    phone: text("phone").notNull().default(""),
    email: text("email").notNull().default(""),
    pinHash: text("pin_hash"),
    // Payout details (garantibelopp).
    coAddress: text("co_address").notNull().default(""),
    orgNumber: text("org_number").notNull().default(""),
    bankgiro: text("bankgiro").notNull().default(""),
    bankAccount: text("bank_account").notNull().default(""),
    // Set when staff deactivate the customer: no login, data kept.
    deactivatedAt: integer("deactivated_at"),
    ...timestamps,
  },
  (t) => [
    index("customers_distributor").on(t.distributorId),
    index("customers_name").on(t.name),
    check("customer_id_range", sql`${t.id} between 1 and 99999`),
  ],
);

export const staffUsers = sqliteTable("staff_users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash").notNull(),
  // Comma-separated set of admin, sales, utb.
  roles: text("roles").notNull(),
  distributorId: integer("distributor_id").references(() => distributors.id),
  // TOTP (RFC 6238) second factor: the base32 secret once enrolled, and the scrypt
  // hashes of the unused recovery codes (JSON array).
  totpSecret: text("totp_secret"),
  totpRecovery: text("totp_recovery").notNull().default("[]"),
  // The last time step a code was accepted for, so a code works once (RFC 6238 §5.2).
  totpLastStep: integer("totp_last_step").notNull().default(0),
  // Set when an admin deactivates the account: no login, sessions ended, history kept.
  deactivatedAt: integer("deactivated_at"),
  // A password an admin gave (Lägg till, Nytt lösenord): works for one login, which must
  // set a new one before anything else (docs/decisions/019-production-start.md).
  passwordOneTime: integer("password_one_time", { mode: "boolean" }).notNull().default(false),
  // When the current password was set (epoch ms): a one-time password expires 72 hours
  // after, and the login that used it is noted in passwordOneTimeUsedAt, so a second login
  // with it is refused (docs/decisions/035-passwords-and-sessions.md).
  passwordSetAt: integer("password_set_at"),
  passwordOneTimeUsedAt: integer("password_one_time_used_at"),
  ...timestamps,
});

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    customerId: integer("customer_id").references(() => customers.id, { onDelete: "cascade" }),
    staffId: integer("staff_id").references(() => staffUsers.id, { onDelete: "cascade" }),
    // The staff user who opened a retailer's portal as that retailer.
    impersonatorId: integer("impersonator_id").references(() => staffUsers.id, { onDelete: "cascade" }),
    data: text("data").notNull().default("{}"),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sessions_customer").on(t.customerId), index("sessions_staff").on(t.staffId), index("sessions_expires").on(t.expiresAt)],
);

// A form posted after its session lapsed: kept for the same customer to
// find filled in after logging in again, never saved without their press. Keyed by a
// random id that only the browser's cookie holds; expires within the hour.
export const carriedForms = sqliteTable(
  "carried_forms",
  {
    id: text("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    // The posted fields as JSON [name, value][] (text fields only).
    body: text("body").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("carried_forms_expires").on(t.expiresAt)],
);

// Login attempts per key ("customer:123", "staff:a@b.se", "ip:1.2.3.4", "device:…",
// "totp:staff:7"), shared by all app servers because they share the database
// (docs/decisions/012-login-policy.md).
export const loginThrottle = sqliteTable("login_throttle", {
  key: text("key").primaryKey(),
  // Weighed failures in a row, attempts still being checked included; a success sets it to 0.
  failures: integer("failures").notNull().default(0),
  // When the last attempt was reserved.
  lastFailureAt: integer("last_failure_at").notNull(),
  // JSON array of the instants (ms) of the attempts weighed in the current window, oldest first.
  recent: text("recent").notNull().default("[]"),
});

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull().default(now),
    // "customer:123", "staff:7", "cli", "anonymous"
    actor: text("actor").notNull(),
    // The customer a staff user acted for, in that customer's portal ("customer:123").
    onBehalfOf: text("on_behalf_of"),
    action: text("action").notNull(),
    target: text("target"),
    detail: text("detail"),
    ip: text("ip"),
    requestId: text("request_id"),
  },
  (t) => [index("audit_at").on(t.at), index("audit_action").on(t.action, t.at)],
);

export const titles = sqliteTable("titles", {
  // 1 Aftonbladet, 2 Expressen.
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  // Publisher ledger: 83 Aftonbladet, 80 Expressen.
  ledger: integer("ledger").notNull(),
});

export const editions = sqliteTable(
  "editions",
  {
    titleId: integer("title_id")
      .notNull()
      .references(() => titles.id),
    editionId: integer("edition_id").notNull(),
    // 0 Huvudtidning, 1 Bilaga.
    type: integer("type").notNull(),
    description: text("description").notNull(),
    code: text("code").notNull().default(""),
    // Days after the delivery date a return may be reported for this edition; null = the
    // paper type's window (return_windows), decision 018.
    returnDays: integer("return_days"),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.titleId, t.editionId] }),
    check("edition_type", sql`${t.type} in (0, 1)`),
    check("edition_return_days", sql`${t.returnDays} is null or ${t.returnDays} between 1 and 14`),
  ],
);

// The return window per paper type (0 Huvudtidning, 1 Bilaga): the last return day is the
// delivery date + days. Seeded by migration 0012 (decision 018).
export const returnWindows = sqliteTable(
  "return_windows",
  {
    paperType: integer("paper_type").primaryKey(),
    days: integer("days").notNull(),
    ...timestamps,
  },
  (t) => [check("return_window_type", sql`${t.paperType} in (0, 1)`), check("return_window_days", sql`${t.days} between 1 and 14`)],
);

export const deliveries = sqliteTable(
  "deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    titleId: integer("title_id").notNull(),
    editionId: integer("edition_id").notNull(),
    deliveryDate: text("delivery_date").notNull(),
    delivered: integer("delivered").notNull(),
    // Net unit price in öre.
    priceOre: integer("price_ore").notNull(),
    // The retailer's received amount (leveransreklamation); null until reported.
    received: integer("received"),
    receivedAt: integer("received_at"),
    // Set when the retailer has reported returns for this delivery (state 2 from then on).
    reportedAt: integer("reported_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("deliveries_natural").on(t.customerId, t.titleId, t.editionId, t.deliveryDate),
    index("deliveries_customer_date").on(t.customerId, t.deliveryDate),
    index("deliveries_date").on(t.deliveryDate, t.customerId),
    // Distribution monitoring reads only reported rows of a date range; this partial
    // index covers that query so it never touches the table (bench B3).
    // Unreported papers, for the missing reports after the last return day.
    index("deliveries_unreported").on(t.deliveryDate, t.customerId).where(sql`reported_at is null`),
    index("deliveries_reported")
      .on(t.deliveryDate, t.customerId, t.titleId, t.editionId, t.delivered, t.received, t.priceOre)
      .where(sql`received is not null`),
    check("delivered_nonneg", sql`${t.delivered} >= 0`),
  ],
);

export const bundles = sqliteTable(
  "bundles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    number: integer("number").notNull(),
    // 0 Huvudtidningar, 1 Bilagor.
    type: integer("type").notNull(),
    open: integer("open", { mode: "boolean" }).notNull().default(true),
    closedDate: text("closed_date"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("bundles_customer_number").on(t.customerId, t.number),
    index("bundles_customer_open").on(t.customerId, t.open, t.type),
    check("bundle_type", sql`${t.type} in (0, 1)`),
  ],
);

export const returns = sqliteTable(
  "returns",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    bundleId: integer("bundle_id")
      .notNull()
      .references(() => bundles.id),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => deliveries.id),
    amount: integer("amount").notNull(),
    // Reported or changed after the paper's last return day, under the 'accept' policy.
    late: integer("late", { mode: "boolean" }).notNull().default(false),
    // The copies invoice runs have credited for this return so far (the sum of its
    // invoice_credits rows, decision 030). While it differs from `amount` on a delivery
    // already billed, the next run credits (or charges back) the difference.
    credited: integer("credited").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    // One return row per customer + bundle + title + edition + date (the delivery).
    uniqueIndex("returns_natural").on(t.customerId, t.bundleId, t.deliveryId),
    index("returns_delivery").on(t.deliveryId),
    index("returns_bundle").on(t.bundleId),
    // Late returns are few; the distribution monitor counts them per distributor.
    index("returns_late").on(t.deliveryId).where(sql`late = 1`),
    // Returns not (fully) credited yet: this month's, and any changed after their run.
    index("returns_uncredited").on(t.customerId).where(sql`amount <> credited`),
    check("return_amount", sql`${t.amount} between 0 and 999`),
  ],
);

// Form tokens already applied, so a resubmitted form (double click, back, retry)
// is answered without being applied twice.
export const appliedSubmissions = sqliteTable("applied_submissions", {
  token: text("token").primaryKey(),
  customerId: integer("customer_id").notNull(),
  at: integer("at").notNull(),
});

// Label blocks are the allocations of bundle numbers: a normal block (type 0) of 50
// numbers, or an emergency allocation (type 7) of 1–20 numbers.
export const labelBlocks = sqliteTable(
  "label_blocks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    type: integer("type").notNull(),
    status: text("status").notNull(),
    fromDate: text("from_date").notNull(),
    toDate: text("to_date").notNull(),
    fromNumber: integer("from_number").notNull(),
    toNumber: integer("to_number").notNull(),
    numberUnused: integer("number_unused").notNull(),
    ...timestamps,
  },
  (t) => [
    index("label_blocks_customer").on(t.customerId, t.fromNumber),
    check("label_range", sql`${t.fromNumber} <= ${t.toNumber} and ${t.fromNumber} >= 1 and ${t.toNumber} <= 99999`),
  ],
);

export const holidays = sqliteTable(
  "holidays",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    descriptionId: integer("description_id"),
    description: text("description").notNull(),
    day: text("day").notNull(),
    startReportDay: text("start_report_day").notNull(),
    startForceReportDay: text("start_force_report_day").notNull(),
    completed: integer("completed", { mode: "boolean" }).notNull().default(false),
    deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
    ...timestamps,
  },
  (t) => [index("holidays_day").on(t.day)],
);

export const holidayReports = sqliteTable(
  "holiday_reports",
  {
    holidayId: integer("holiday_id")
      .notNull()
      .references(() => holidays.id),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    open: integer("open", { mode: "boolean" }).notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.customerId, t.holidayId] })],
);

// Opening hours (Öppettider, the OPPETTIDER alert): staff ask every retailer to report
// their hours from a day, imperative from a later day; a retailer answers by saving all
// seven days. A request reaches one distributor's customers, or everyone (null); one
// request per reach is current at a time.
export const openingHoursRequests = sqliteTable("opening_hours_requests", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  distributorId: integer("distributor_id").references(() => distributors.id),
  startReportDay: text("start_report_day").notNull(),
  startForceReportDay: text("start_force_report_day").notNull(),
  closed: integer("closed", { mode: "boolean" }).notNull().default(false),
  ...timestamps,
});

/** A retailer's hours per weekday (1 Monday … 7 Sunday); both null: closed that day. */
export const openingHours = sqliteTable(
  "opening_hours",
  {
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    weekday: integer("weekday").notNull(),
    opens: text("opens"),
    closes: text("closes"),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.customerId, t.weekday] })],
);

/** When a retailer last reported (or confirmed) their opening hours. */
export const openingHoursReports = sqliteTable("opening_hours_reports", {
  customerId: integer("customer_id")
    .primaryKey()
    .references(() => customers.id),
  reportedDay: text("reported_day").notNull(),
  ...timestamps,
});

export const placards = sqliteTable(
  "placards",
  {
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    titleId: integer("title_id")
      .notNull()
      .references(() => titles.id),
    // The amount delivered today, and the amount the retailer asked for (null until set).
    amount: integer("amount").notNull().default(0),
    newAmount: integer("new_amount"),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.customerId, t.titleId] })],
);

export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // 1 Leveransinformation, 2 Följesedel, 3 Kundmeddelande, 4 Returrapportering.
    type: integer("type").notNull(),
    header: text("header").notNull(),
    // Sanitised HTML.
    content: text("content").notNull(),
    startDate: text("start_date").notNull(),
    stopDate: text("stop_date").notNull(),
    ...timestamps,
  },
  (t) => [index("messages_dates").on(t.stopDate, t.startDate)],
);

export const messageCustomers = sqliteTable(
  "message_customers",
  {
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.customerId] }), index("message_customers_customer").on(t.customerId)],
);

// Uploaded images (covers), served by a resource route with cache headers.
export const images = sqliteTable("images", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  filename: text("filename").notNull(),
  contentType: text("content_type").notNull(),
  data: blob("data", { mode: "buffer" }).notNull(),
  sha256: text("sha256").notNull(),
  // Pending uploads are not published until attached to a product.
  published: integer("published", { mode: "boolean" }).notNull().default(false),
  titleId: integer("title_id"),
  editionId: integer("edition_id"),
  date: text("date"),
  ...timestamps,
});

export const dailyProducts = sqliteTable(
  "daily_products",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    titleId: integer("title_id")
      .notNull()
      .references(() => titles.id),
    editionId: integer("edition_id").notNull(),
    heading: text("heading").notNull().default(""),
    description: text("description").notNull(),
    extraDescription: text("extra_description").notNull().default(""),
    startDate: text("start_date").notNull(),
    endDate: text("end_date").notNull(),
    priceOre: integer("price_ore").notNull().default(0),
    eanCode: text("ean_code").notNull().default(""),
    coverImageId: integer("cover_image_id").references(() => images.id),
    ...timestamps,
  },
  (t) => [uniqueIndex("daily_products_natural").on(t.titleId, t.editionId, t.startDate), index("daily_products_end").on(t.endDate)],
);

export const productInformation = sqliteTable(
  "product_information",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    titleId: integer("title_id")
      .notNull()
      .references(() => titles.id),
    editionId: integer("edition_id").notNull(),
    deliveryDate: text("delivery_date"),
    productCode: text("product_code").notNull(),
    accountCode: text("account_code").notNull(),
    articleId: text("article_id").notNull(),
    ...timestamps,
  },
  (t) => [
    index("product_information_title").on(t.titleId, t.editionId),
    // One row per title, edition and delivery date, the dateless default row included
    // (NULLs are distinct in a plain unique index, so the date is coalesced).
    uniqueIndex("product_information_one_per_day").on(t.titleId, t.editionId, sql`coalesce(${t.deliveryDate}, '')`),
  ],
);

// Every invoice run that was not a dry run, from the web or the CLI (the
// invoicing history): who, when, the period, what it made and its totals.
export const invoiceRuns = sqliteTable(
  "invoice_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actor: text("actor").notNull(),
    periodFrom: text("period_from").notNull(),
    periodTo: text("period_to").notNull(),
    created: integer("created").notNull(),
    existing: integer("existing").notNull(),
    firstNumber: integer("first_number"),
    lastNumber: integer("last_number"),
    netOre: integer("net_ore").notNull(),
    vatOre: integer("vat_ore").notNull(),
    amountOre: integer("amount_ore").notNull(),
    ranAt: integer("ran_at").notNull().default(now),
    // The run as a job in the database (decision 024): running, done or failed; its
    // progress (done of planned invoices), a heartbeat while it works, and why it failed.
    status: text("status").notNull().default("done"),
    planned: integer("planned").notNull().default(0),
    heartbeatAt: integer("heartbeat_at"),
    finishedAt: integer("finished_at"),
    message: text("message"),
    // Who works the run now: a token made at each claim. A chunk is written only under the
    // token it was claimed with, so a run taken over (its heartbeat stale) cannot be worked
    // by two processes at once.
    claim: text("claim"),
  },
  (t) => [index("invoice_runs_at").on(t.ranAt), uniqueIndex("invoice_runs_one_running").on(t.status).where(sql`status = 'running'`)],
);

export type InvoiceBuyer = { id: number; name: string; coAddress: string; address: string; zip: string; city: string; orgNumber: string };
export type InvoiceSeller = { name: string; address: string; orgNumber: string; vatNumber: string; bankgiro: string; fSkatt: boolean };
export type InvoiceBundleCredit = { bundle: number; copies: number; valueOre: number };
/**
 * What an invoice's paper lines are made of, as the run saw it (decision 038): per paper and
 * price [name, price öre, delivered, returned, claimed]; per day [date, paper index,
 * delivered, returned]; returns of earlier periods settled [date, paper name, bundle, copies].
 */
export type InvoiceSpecificationRecord = {
  papers: [string, number, number, number, number][];
  days: [string, number, number, number][];
  later: [string, string, number, number][];
};

export const invoices = sqliteTable(
  "invoices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    number: integer("number").notNull().unique(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    paperType: integer("paper_type").notNull(),
    date: text("date").notNull(),
    dueDate: text("due_date").notNull(),
    periodFrom: text("period_from").notNull(),
    periodTo: text("period_to").notNull(),
    netOre: integer("net_ore").notNull(),
    vatOre: integer("vat_ore").notNull(),
    amountOre: integer("amount_ore").notNull(),
    status: text("status").notNull(),
    // The record as issued (decision 021): the buyer and seller as they were that day and
    // the credited returns per bundle, so that later renames, renumberings and corrections
    // never change an issued invoice. Written by the invoice run in its transaction.
    buyer: text("buyer", { mode: "json" }).$type<InvoiceBuyer>(),
    seller: text("seller", { mode: "json" }).$type<InvoiceSeller>(),
    credits: text("credits", { mode: "json" }).$type<InvoiceBundleCredit[]>(),
    specification: text("specification", { mode: "json" }).$type<InvoiceSpecificationRecord>(),
    ...timestamps,
  },
  (t) => [
    index("invoices_customer").on(t.customerId, t.paperType, t.date),
    uniqueIndex("invoices_period").on(t.customerId, t.paperType, t.periodFrom, t.periodTo),
  ],
);

export const invoiceLines = sqliteTable(
  "invoice_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceOre: integer("unit_price_ore").notNull(),
    // VAT in tenths of a percent (60 = 6.0 %).
    vatPermille: integer("vat_permille").notNull(),
    netOre: integer("net_ore").notNull(),
    // What the line bills or credits, for Avstämning (decision 033): 'sold' (a period's
    // sales), 'after' (returns settled after their run), 'claim', 'extra', 'order'; and the
    // paper's title and edition where it is one. Null on lines made before migration 0023.
    kind: text("kind"),
    titleId: integer("title_id"),
    editionId: integer("edition_id"),
  },
  (t) => [index("invoice_lines_invoice").on(t.invoiceId)],
);

// The credit trail (decision 016): each return an invoice run settled, with
// the copies settled then and the invoice that credited them (null: the customer had
// nothing to bill for that paper type and period). A return changed afterwards keeps its
// row; the trail shows what was credited then and what it is now. One row per return and run at most.
export const invoiceCredits = sqliteTable(
  "invoice_credits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: integer("run_id")
      .notNull()
      .references(() => invoiceRuns.id),
    invoiceId: integer("invoice_id").references(() => invoices.id),
    returnId: integer("return_id")
      .notNull()
      .references(() => returns.id),
    amount: integer("amount").notNull(),
  },
  (t) => [uniqueIndex("invoice_credits_return_run").on(t.returnId, t.runId), index("invoice_credits_invoice").on(t.invoiceId)],
);

// Credit notes (kreditfakturor, decision 032): an issued invoice credited whole or line by
// line, in a number series of their own, naming the invoice they credit. Immutable, as
// invoices are (triggers in migration 0022); the buyer and seller are the invoice's.
export const creditNotes = sqliteTable(
  "credit_notes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    number: integer("number").notNull().unique(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    paperType: integer("paper_type").notNull(),
    date: text("date").notNull(),
    reason: text("reason").notNull(),
    // Negative: what the customer is credited.
    netOre: integer("net_ore").notNull(),
    vatOre: integer("vat_ore").notNull(),
    amountOre: integer("amount_ore").notNull(),
    buyer: text("buyer", { mode: "json" }).$type<InvoiceBuyer>(),
    seller: text("seller", { mode: "json" }).$type<InvoiceSeller>(),
    actor: text("actor").notNull(),
    ...timestamps,
  },
  (t) => [index("credit_notes_invoice").on(t.invoiceId), index("credit_notes_customer").on(t.customerId, t.date)],
);

export const creditNoteLines = sqliteTable(
  "credit_note_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    creditNoteId: integer("credit_note_id")
      .notNull()
      .references(() => creditNotes.id),
    // The invoice line credited: each at most once.
    invoiceLineId: integer("invoice_line_id")
      .notNull()
      .references(() => invoiceLines.id),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceOre: integer("unit_price_ore").notNull(),
    vatPermille: integer("vat_permille").notNull(),
    netOre: integer("net_ore").notNull(),
  },
  (t) => [uniqueIndex("credit_note_lines_invoice_line").on(t.invoiceLineId), index("credit_note_lines_note").on(t.creditNoteId)],
);

// Delivery claims (reklamationer, decision 031): a Mottagit below Levererat is a claim with a
// case number (its id) for life. Staff decide it (approved, partly approved, rejected, with
// a reason for the last two); the approved copies are credited on the customer's next
// invoice, which the run records here. A claim the retailer takes back before the decision
// (Mottagit raised to Levererat) is 'withdrawn' and keeps its number.
export const claims = sqliteTable(
  "claims",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => deliveries.id),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    // Copies claimed: delivered − received, as the retailer last saved it.
    copies: integer("copies").notNull(),
    status: text("status").notNull().default("open"),
    // Copies approved (all of them, some, or 0 when rejected); null until decided.
    approved: integer("approved"),
    reason: text("reason"),
    decidedBy: text("decided_by"),
    decidedAt: integer("decided_at"),
    // The invoice that credited the approved copies, and the run that made it.
    invoiceId: integer("invoice_id").references(() => invoices.id),
    runId: integer("run_id").references(() => invoiceRuns.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("claims_delivery").on(t.deliveryId),
    index("claims_customer").on(t.customerId),
    // Approved and not yet credited: what the next run credits.
    index("claims_to_credit").on(t.customerId).where(sql`approved > 0 and invoice_id is null`),
    check("claim_status", sql`${t.status} in ('open', 'withdrawn', 'approved', 'partly', 'rejected')`),
    check("claim_approved", sql`${t.approved} is null or (${t.approved} >= 0 and ${t.approved} <= ${t.copies})`),
  ],
);

// Batches of extra invoice lines sent by staff ("the pending list grouped by file").
export const extraInvoiceFiles = sqliteTable("extra_invoice_files", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  createdBy: integer("created_by").references(() => staffUsers.id),
  ...timestamps,
});

export const extraInvoiceLines = sqliteTable(
  "extra_invoice_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // Null while the line is a staff user's draft (before 'Skicka').
    fileId: integer("file_id").references(() => extraInvoiceFiles.id),
    // The staff user whose draft list holds the line.
    createdBy: integer("created_by").references(() => staffUsers.id),
    magazineTitle: text("magazine_title").notNull(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    productGroup: text("product_group").notNull(),
    articleId: text("article_id").notNull().default(""),
    articleName: text("article_name").notNull(),
    editionId: integer("edition_id"),
    productCode: text("product_code").notNull().default(""),
    deliveryDate: text("delivery_date").notNull(),
    deliveredAmount: integer("delivered_amount").notNull(),
    reclaimAmount: integer("reclaim_amount").notNull().default(0),
    grossPriceOre: integer("gross_price_ore").notNull(),
    nettoPriceOre: integer("netto_price_ore").notNull(),
    // VAT in tenths of a percent (60 = 6.0 %).
    vatPermille: integer("vat_permille").notNull(),
    profitPercentage: integer("profit_percentage").notNull().default(0),
    ediReferenceText: text("edi_reference_text").notNull().default(""),
    invoiceId: integer("invoice_id").references(() => invoices.id),
    ...timestamps,
  },
  (t) => [index("extra_invoice_lines_pending").on(t.invoiceId, t.customerId), index("extra_invoice_lines_file").on(t.fileId, t.createdBy)],
);

export const orderFiles = sqliteTable("order_files", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  filename: text("filename").notNull(),
  rowCount: integer("row_count").notNull(),
  uploadedBy: text("uploaded_by").notNull(),
  ...timestamps,
});

export const orderLines = sqliteTable(
  "order_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    fileId: integer("file_id")
      .notNull()
      .references(() => orderFiles.id, { onDelete: "cascade" }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    orderDate: text("order_date").notNull(),
    articleNumber: text("article_number").notNull(),
    articleDescription: text("article_description").notNull(),
    amount: integer("amount").notNull(),
    priceOre: integer("price_ore").notNull(),
    ledger: integer("ledger").notNull(),
    transferredAt: integer("transferred_at"),
    invoiceId: integer("invoice_id").references(() => invoices.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("order_lines_natural").on(t.customerId, t.orderDate, t.articleNumber, t.ledger),
    index("order_lines_file").on(t.fileId),
    index("order_lines_pending").on(t.transferredAt, t.invoiceId),
  ],
);

// Every Klarmarkera of Garantibelopp (decision 022): who, when, what it paid, and the
// payout files and underlag it paid by, kept to be fetched again.
export const payoutBatches = sqliteTable(
  "payout_batches",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actor: text("actor").notNull(),
    madeAt: integer("made_at").notNull().default(now),
    customers: integer("customers").notNull(),
    guarantees: integer("guarantees").notNull(),
    amountOre: integer("amount_ore").notNull(),
  },
  (t) => [index("payout_batches_made").on(t.madeAt)],
);

export const payoutFiles = sqliteTable(
  "payout_files",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    batchId: integer("batch_id")
      .notNull()
      .references(() => payoutBatches.id),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    content: blob("content", { mode: "buffer" }).notNull(),
    ledger: integer("ledger").notNull(),
    /** "2026-v50": the ISO week of the payment date. */
    week: text("week").notNull(),
    customers: integer("customers").notNull(),
    amountOre: integer("amount_ore").notNull(),
  },
  (t) => [index("payout_files_batch").on(t.batchId)],
);

export const guarantees = sqliteTable(
  "guarantees",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    // 80 Expressen, 83 Aftonbladet.
    ledger: integer("ledger").notNull(),
    amountOre: integer("amount_ore").notNull(),
    refunded: integer("refunded", { mode: "boolean" }).notNull().default(false),
    refundDate: text("refund_date"),
    // Set when staff mark the payout complete.
    completedAt: integer("completed_at"),
    // The Klarmarkera that paid it (decision 022).
    batchId: integer("batch_id").references(() => payoutBatches.id),
    ...timestamps,
  },
  (t) => [
    index("guarantees_customer").on(t.customerId, t.ledger),
    index("guarantees_refunds").on(t.refunded, t.completedAt),
  ],
);

export const shortcuts = sqliteTable(
  "shortcuts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    staffId: integer("staff_id")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    ...timestamps,
  },
  (t) => [index("shortcuts_staff").on(t.staffId)],
);

// E-mail reminders (decision 017): a retailer's opt-in, the address, and the
// key that signs the unsubscribe links of their mails (random per customer, so a link
// works whichever process sent it, and a new key voids every old link).
export const emailReminders = sqliteTable("email_reminders", {
  customerId: integer("customer_id")
    .primaryKey()
    .references(() => customers.id),
  email: text("email").notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
  key: text("key").notNull(),
  ...timestamps,
});

// One row per customer and day a reminder went out (or was being sent): at most one a day,
// however many processes run the job. A failed send removes its row, so a later run retries.
export const reminderLog = sqliteTable(
  "reminder_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    day: text("day").notNull(),
    email: text("email").notNull(),
    papers: integer("papers").notNull(),
    state: text("state", { enum: ["sending", "sent"] }).notNull(),
    messageId: text("message_id"),
    ...timestamps,
  },
  (t) => [uniqueIndex("reminder_log_customer_day").on(t.customerId, t.day), index("reminder_log_day").on(t.day)],
);

export type Customer = typeof customers.$inferSelect;
export type StaffUser = typeof staffUsers.$inferSelect;
export type Delivery = typeof deliveries.$inferSelect;
export type Bundle = typeof bundles.$inferSelect;
export type ReturnRow = typeof returns.$inferSelect;
export type LabelBlock = typeof labelBlocks.$inferSelect;
export type Holiday = typeof holidays.$inferSelect;
export type Message = typeof messages.$inferSelect;
export type Invoice = typeof invoices.$inferSelect;
export type Guarantee = typeof guarantees.$inferSelect;

// Återkallelser (decision 036): editions of a title, delivered on some dates, withdrawn.
export const recalls = sqliteTable(
  "recalls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    titleId: integer("title_id").notNull(),
    dateFrom: text("date_from").notNull(),
    dateTo: text("date_to").notNull(),
    // The reason in words shown to retailers.
    reason: text("reason").notNull(),
    // 'returnera' (Ta bort från hyllan och returnera) or 'forstor' (Ta bort och förstör).
    action: text("action").notNull(),
    // True: every distributor; else recall_distributors lists them.
    allDistributors: integer("all_distributors", { mode: "boolean" }).notNull(),
    // The deadline, epoch ms (given as a Stockholm date and time).
    deadlineAt: integer("deadline_at").notNull(),
    // The last day recalled copies may be returned: the deadline's Stockholm date + 14 days.
    returnUntil: text("return_until").notNull().default(""),
    createdBy: text("created_by").notNull(),
    endedAt: integer("ended_at"),
    endedBy: text("ended_by"),
    ...timestamps,
  },
  (t) => [check("recall_action", sql`${t.action} in ('returnera', 'forstor')`), check("recall_dates", sql`${t.dateFrom} <= ${t.dateTo}`)],
);

export const recallEditions = sqliteTable(
  "recall_editions",
  {
    recallId: integer("recall_id")
      .notNull()
      .references(() => recalls.id),
    editionId: integer("edition_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.recallId, t.editionId] })],
);

export const recallDistributors = sqliteTable(
  "recall_distributors",
  {
    recallId: integer("recall_id")
      .notNull()
      .references(() => recalls.id),
    distributorId: integer("distributor_id")
      .notNull()
      .references(() => distributors.id),
  },
  (t) => [primaryKey({ columns: [t.recallId, t.distributorId] })],
);

// The customers a recall reaches, named when it is made, and each one's acknowledgement.
export const recallCustomers = sqliteTable(
  "recall_customers",
  {
    recallId: integer("recall_id")
      .notNull()
      .references(() => recalls.id),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    // Copies of the recalled deliveries the customer got.
    delivered: integer("delivered").notNull(),
    acknowledgedAt: integer("acknowledged_at"),
    removedCopies: integer("removed_copies"),
    acknowledgedBy: text("acknowledged_by"),
    // The mail about it (decision 036): null until tried; 'sending' while a process sends
    // it (claimed, so two servers never both send), 'sent', or 'none' (no address). A
    // failed send goes back to null with the next try's time.
    mailState: text("mail_state", { enum: ["sending", "sent", "none"] }),
    mailTo: text("mail_to"),
    mailAt: integer("mail_at"),
    mailAttempts: integer("mail_attempts").notNull().default(0),
    mailNextAt: integer("mail_next_at"),
  },
  (t) => [
    primaryKey({ columns: [t.recallId, t.customerId] }),
    index("recall_customers_customer").on(t.customerId, t.acknowledgedAt),
    index("recall_customers_mail").on(t.mailState, t.mailNextAt),
  ],
);

// Leveransändring (decision 037): a request to change how many copies a shop gets of one
// paper, on one weekday from a start date on or for one date only. A retailer asks
// (origin 'retailer', status 'sent') and staff decide; or staff propose (origin 'staff',
// status 'proposed') and the retailer accepts or declines. Decided changes go to planning
// once (export_id) and become 'in_force' when the deliveries import brings the new number.
export const supplyExports = sqliteTable("supply_exports", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  // Who made it: a staff user's e-mail, or "cli".
  createdBy: text("created_by").notNull(),
  rowCount: integer("row_count").notNull(),
  ...timestamps,
});

export const supplyChanges = sqliteTable(
  "supply_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    titleId: integer("title_id").notNull(),
    editionId: integer("edition_id").notNull(),
    // ISO weekday 1–7 for a standing change, or null with one_off_date for one date only.
    weekday: integer("weekday"),
    oneOffDate: text("one_off_date"),
    // The usual delivery when it was asked (the most common of the last four same weekdays).
    oldCopies: integer("old_copies").notNull(),
    // What the retailer asked for, or staff proposed.
    requested: integer("requested").notNull(),
    // The decided number (= requested when approved, or staff's adjustment); null until decided.
    newCopies: integer("new_copies"),
    status: text("status").notNull(),
    origin: text("origin").notNull(),
    // The suggestion's words when the number came from one.
    suggestion: text("suggestion"),
    // Staff's reason: of an adjustment, a rejection or a proposal.
    reason: text("reason"),
    startDate: text("start_date").notNull(),
    // The moment after which it is late for its start date (epoch ms).
    cutoffAt: integer("cutoff_at").notNull(),
    createdBy: text("created_by").notNull(),
    decidedAt: integer("decided_at"),
    // Who decided (a staff user's e-mail; for an accepted proposal, who proposed it).
    decidedBy: text("decided_by"),
    answeredAt: integer("answered_at"),
    exportId: integer("export_id").references(() => supplyExports.id),
    inForceAt: integer("in_force_at"),
    ...timestamps,
  },
  (t) => [
    index("supply_changes_customer").on(t.customerId, t.titleId, t.editionId),
    index("supply_changes_status_start").on(t.status, t.startDate),
    // The changes planning has not had yet, and those waiting to come into force.
    index("supply_changes_to_export")
      .on(t.id)
      .where(sql`${t.status} in ('approved', 'adjusted') and ${t.exportId} is null`),
    index("supply_changes_export").on(t.exportId),
    check("supply_change_when", sql`(${t.weekday} is null) <> (${t.oneOffDate} is null)`),
    check("supply_change_weekday", sql`${t.weekday} is null or ${t.weekday} between 1 and 7`),
    check("supply_change_status", sql`${t.status} in ('sent', 'approved', 'adjusted', 'rejected', 'withdrawn', 'proposed', 'declined', 'in_force')`),
    check("supply_change_origin", sql`${t.origin} in ('retailer', 'staff')`),
    check("supply_change_copies", sql`${t.requested} between 0 and 9999 and ${t.oldCopies} >= 0 and (${t.newCopies} is null or ${t.newCopies} between 0 and 9999)`),
  ],
);
