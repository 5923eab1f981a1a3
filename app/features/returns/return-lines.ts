// The lines of the returns form, shared by the route's action (no-JS round trips)
// and the page's client code (the same changes without a round trip).

export type FormLine = {
  key: string;
  deliveryId: number;
  /** An existing return row (state 2). */
  returnId?: number;
  bundle: string;
  amount: string;
  /** The pre-filled bundle number; an untouched line (this bundle, no amount) is not sent as a return. */
  dflt: string;
  split: boolean;
  /**
   * A stored return row (state 2): the amount the page showed when it was loaded. A save
   * leaves the row alone when the typed amount is still this one, and refuses it when
   * someone else changed the row since.
   */
  fore?: string;
  /**
   * In the browser: the user has edited this line's bundle field. Its `dflt` is then
   * cleared (a bundle the user typed without an amount is a half row, 'Ange antal.'),
   * and a bundle chosen on another line is no longer copied into it.
   */
  touched?: boolean;
};

/** A refused row's messages by field: every problem of the row, not only the first. */
export type RowProblems = { bundle?: string; amount?: string };

/** The text a row shows: its fields' messages, bundle first. */
export const rowMessage = (p: RowProblems) => [p.bundle, p.amount].filter(Boolean).join(" ");

/** A line after the user typed `value` into its bundle or amount field. */
export function typedInto(line: FormLine, field: "bundle" | "amount", value: string): FormLine {
  return field === "bundle" ? { ...line, bundle: value, dflt: "", touched: true } : { ...line, amount: value };
}

export type LinePaper = { deliveryId: number; type: number; returns: { id: number; bundle: number; amount: number }[] };

/** State 1: one line per paper with the default bundle. State 2: one line per existing return. */
export function initialLines(papers: LinePaper[], state: 1 | 2, defaults: Record<number, number | null>): FormLine[] {
  if (state === 1) {
    return papers.map((p) => {
      const dflt = defaults[p.type] ? String(defaults[p.type]) : "";
      return { key: `d${p.deliveryId}`, deliveryId: p.deliveryId, bundle: dflt, amount: "", dflt, split: false };
    });
  }
  return papers.flatMap((p) =>
    p.returns.map((r) => ({
      key: `r${r.id}`,
      deliveryId: p.deliveryId,
      returnId: r.id,
      bundle: String(r.bundle),
      amount: String(r.amount),
      dflt: "",
      split: false,
      fore: String(r.amount),
    })),
  );
}

const KEY = /^[dr]\d{1,12}(s\d{1,4})?$/;

/** Reads the lines back from a posted form (`line` = keys, `<key>.<field>` = values). */
export function linesFromForm(form: FormData): FormLine[] {
  const lines: FormLine[] = [];
  const seen = new Set<string>();
  for (const raw of form.getAll("line")) {
    const key = String(raw);
    if (!KEY.test(key) || seen.has(key)) continue;
    seen.add(key);
    const get = (f: string) => {
      const v = form.get(`${key}.${f}`);
      return typeof v === "string" ? v.slice(0, 20) : "";
    };
    const deliveryId = Number(get("delivery"));
    if (!Number.isSafeInteger(deliveryId) || deliveryId <= 0) continue;
    const returnId = key.startsWith("r") ? Number(key.slice(1)) : undefined;
    const fore = form.get(`${key}.fore`);
    lines.push({
      key, deliveryId, returnId, bundle: get("bundle"), amount: get("amount"), dflt: get("dflt"), split: /s\d+$/.test(key),
      ...(returnId && typeof fore === "string" ? { fore: fore.slice(0, 20) } : {}),
    });
  }
  return lines;
}

/**
 * The same from the form as conform parses it (the returns schema's payload):
 * `line` is one key or several, each `<key>` an object of its fields.
 */
export function linesFromPayload(payload: Record<string, unknown>): FormLine[] {
  const keys = ([] as unknown[]).concat(payload.line ?? []);
  const lines: FormLine[] = [];
  const seen = new Set<string>();
  for (const raw of keys) {
    if (typeof raw !== "string" || !KEY.test(raw) || seen.has(raw)) continue;
    seen.add(raw);
    const fields = payload[raw];
    const get = (f: string) => {
      const v = fields && typeof fields === "object" ? (fields as Record<string, unknown>)[f] : undefined;
      return typeof v === "string" ? v.slice(0, 20) : "";
    };
    const deliveryId = Number(get("delivery"));
    if (!Number.isSafeInteger(deliveryId) || deliveryId <= 0) continue;
    const returnId = raw.startsWith("r") ? Number(raw.slice(1)) : undefined;
    const fore = fields && typeof fields === "object" ? (fields as Record<string, unknown>).fore : undefined;
    lines.push({
      key: raw, deliveryId, returnId, bundle: get("bundle"), amount: get("amount"), dflt: get("dflt"), split: /s\d+$/.test(raw),
      // An empty shown value (conform reads "" as absent) is no shown value: the old rule applies.
      ...(returnId && typeof fore === "string" ? { fore: fore.slice(0, 20) } : {}),
    });
  }
  return lines;
}

/**
 * "Bunt för huvudtidningar – Byt": the type's bundle becomes the pre-filled bundle of the
 * lines of that type the user has not touched (new, not split, no amount, the bundle still
 * the pre-filled one). Typing in one row never rewrites another; this control does, and says so.
 */
export function withTypeBundle(lines: FormLine[], deliveries: Set<number>, bundle: string, { pageDefault }: { pageDefault?: string } = {}): FormLine[] {
  // Byt changes the rows nobody has typed in. The save (`pageDefault`: the type's bundle the
  // page put in its rows) also gives the type's bundle to rows with an amount whose bundle
  // field still shows that, so a "Bunt för bilagor" typed without pressing Byt (without
  // JavaScript: no round trip) counts; a bundle field the user cleared stays cleared.
  const onSave = pageDefault !== undefined;
  return lines.map((l) =>
    deliveries.has(l.deliveryId) &&
    l.returnId === undefined &&
    !l.split &&
    l.bundle === l.dflt &&
    (onSave ? l.dflt === pageDefault : !l.touched && l.amount.trim() === "")
      ? { ...l, bundle, dflt: bundle }
      : l,
  );
}

/** The key the paper's next split line gets: `d<delivery>s<n>`, one past its highest. */
export function nextSplitKey(lines: FormLine[], deliveryId: number): string {
  let n = 0;
  for (const l of lines) {
    const m = l.key.match(new RegExp(`^d${deliveryId}s(\\d+)$`));
    if (m) n = Math.max(n, Number(m[1]));
  }
  return `d${deliveryId}s${n + 1}`;
}

/** A split line for the paper: no bundle, no amount (spec 4 "Split"). */
export function addSplit(lines: FormLine[], deliveryId: number): FormLine[] {
  const line: FormLine = { key: nextSplitKey(lines, deliveryId), deliveryId, bundle: "", amount: "", dflt: "", split: true };
  let last = -1;
  lines.forEach((l, i) => {
    if (l.deliveryId === deliveryId) last = i;
  });
  const at = last === -1 ? lines.length : last + 1;
  return [...lines.slice(0, at), line, ...lines.slice(at)];
}

/**
 * Slutsåld: 0 returned, and no bundle (nothing goes in one; the server asks for none).
 * The pre-filled bundle is kept in `dflt`, so pressing Slutsåld again gives it back.
 */
export function soldOut(line: FormLine): FormLine {
  return { ...line, amount: "0", bundle: "", touched: true };
}

/** Slutsåld pressed: marks the line sold out, or, when it is, undoes that (no amount, the pre-filled bundle). */
export function toggleSoldOut(line: FormLine): FormLine {
  return isSoldOut(line) ? { ...line, amount: "", bundle: line.dflt, touched: false } : soldOut(line);
}

/** A line marked sold out: shown without a bundle field. */
export const isSoldOut = (line: FormLine) => line.returnId === undefined && line.bundle.trim() === "" && line.amount.trim() !== "" && Number(line.amount) === 0;

/** Applies a no-JS button (`split:<deliveryId>`, `undo:<key>`, `soldout:<key>` which toggles); null for anything else. */
export function applyIntent(lines: FormLine[], intent: string, knownDeliveries: Set<number>): FormLine[] | null {
  const [kind, arg] = intent.split(":");
  if (kind === "split") {
    const id = Number(arg);
    return knownDeliveries.has(id) ? addSplit(lines, id) : lines;
  }
  if (kind === "undo") return lines.filter((l) => !(l.key === arg && l.split));
  if (kind === "soldout") return lines.map((l) => (l.key === arg ? toggleSoldOut(l) : l));
  return null;
}
