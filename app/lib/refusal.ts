// The one way a rule says no (architecture: "one way to refuse"). Every feature refuses
// by throwing a Refusal: a code that says what kind of no it is, a Swedish message for
// the user, and optionally the form field (or fields) it is about. The web maps it to an
// HTTP status and form errors in one place (app/http/form.server.ts, refusalStatus); the
// CLI prints the message and exits non-zero. No other error class crosses a feature's
// edge: anything else thrown is a bug and becomes the 500 page.

export type RefusalCode =
  /** The input breaks a rule (400). */
  | "invalid"
  /** What the request names does not exist, or not for this user (404). */
  | "not-found"
  /** The input was right but the stored state has moved on (409). */
  | "conflict"
  /** A per-user or per-day limit is reached (429). */
  | "limit"
  /** The database or the hashing queue is busy; try again shortly (503). */
  | "busy"
  /** A body or file is larger than allowed (413). */
  | "too-large"
  /** Credentials were wrong (400 on the login form). */
  | "login";

/**
 * What one kind of refusal carries besides its message, typed: declared beside the rule that
 * refuses (`const STALE = refusalDetail<Stale>("stale")`), put in with `detail: STALE.carry(v)`
 * and read with `STALE.of(e)`: the value, or null when `e` is no refusal carrying it. No
 * caller reads `detail` itself, so none reads it through a cast. The value is kept beside the
 * refusal (a WeakMap), its `detail` only names the channel.
 */
export function refusalDetail<T>(channel: string) {
  const carried = new WeakMap<object, T>();
  return {
    carry(value: T): { channel: string } {
      const box = { channel };
      carried.set(box, value);
      return box;
    },
    of(e: unknown): T | null {
      if (!isRefusal(e) || typeof e.detail !== "object" || e.detail === null) return null;
      return carried.get(e.detail) ?? null;
    },
  };
}

export type RefusalOptions = {
  /** The form field the message belongs beside. */
  field?: string;
  /** Several fields at once, each with its own message. */
  fields?: Record<string, string>;
  /** For "limit" and "busy": how long to wait, in seconds. */
  retryAfterSeconds?: number;
  /** What a caller needs besides the message: a refusalDetail channel's `carry(value)`. */
  detail?: { channel: string };
  /** The error it stands for, when it stands for one (a database another process held). */
  cause?: unknown;
};

export class Refusal extends Error {
  readonly code: RefusalCode;
  readonly fields: Readonly<Record<string, string>>;
  readonly retryAfterSeconds?: number;
  readonly detail?: { channel: string };

  constructor(code: RefusalCode, message: string, options: RefusalOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "Refusal";
    this.code = code;
    this.fields = { ...(options.field ? { [options.field]: message } : {}), ...options.fields };
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.detail = options.detail;
  }
}

export function isRefusal(e: unknown, code?: RefusalCode): e is Refusal {
  return e instanceof Refusal && (code === undefined || e.code === code);
}

/** Shorthands, so a rule reads `throw refuse.notFound("Helgdagen finns inte.")`. */
export const refuse = {
  invalid: (message: string, options?: RefusalOptions) => new Refusal("invalid", message, options),
  notFound: (message: string, options?: RefusalOptions) => new Refusal("not-found", message, options),
  conflict: (message: string, options?: RefusalOptions) => new Refusal("conflict", message, options),
  limit: (message: string, options?: RefusalOptions) => new Refusal("limit", message, options),
  busy: (message: string, options?: RefusalOptions) => new Refusal("busy", message, options),
  tooLarge: (message: string, options?: RefusalOptions) => new Refusal("too-large", message, options),
  login: (message: string, options?: RefusalOptions) => new Refusal("login", message, options),
};

/** The HTTP status of each kind of refusal: the one table the web answers from. */
export const REFUSAL_STATUS: Readonly<Record<RefusalCode, number>> = {
  invalid: 400,
  "not-found": 404,
  conflict: 409,
  limit: 429,
  busy: 503,
  "too-large": 413,
  login: 400,
};
