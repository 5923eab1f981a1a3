import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { z } from "zod";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { deleteMessage, getMessage, listMessages, saveMessage } from "~/features/messages/index.server";
import { Field, FieldErrors } from "~/ui/field";
import { RowAction } from "~/ui/row-action";
import { SaveActions } from "~/ui/save-actions";
import staffStyles from "~/ui/staff-monitoring.css?url";
import { TableOrEmpty } from "~/ui/table";
import { parseId } from "~/lib/ids";
import { CsrfInput } from "~/ui/csrf";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Meddelanden – Returportalen" }];

const TYPES = [
  { id: 1, label: "Leveransinformation" },
  { id: 2, label: "Följesedel" },
  { id: 3, label: "Kundmeddelande" },
  { id: 4, label: "Returrapportering" },
];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const MessageSchema = z
  .object({
    id: z.coerce.number().int().positive().optional(),
    type: z.enum(["1", "2", "3", "4"], { error: "Måste välja typ!" }),
    startDate: z.string({ error: "Datum ej ifyllt is" }).regex(DATE, "Datum ej ifyllt is"),
    stopDate: z.string().regex(DATE, "Perioden felaktig").optional(),
    header: z.string().trim().max(200).optional(),
    content: z.string({ error: "Innehåll saknas" }).max(20_000),
    customers: z.string().max(100_000).optional(),
  })
  .refine((v) => !v.stopDate || v.stopDate >= v.startDate, { message: "Perioden felaktig", path: ["stopDate"] });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const idText = new URL(request.url).searchParams.get("id");
  let editing = null;
  if (idText) {
    const id = parseId(idText);
    editing = id !== null ? await getMessage(id) : null;
    if (!editing) throw new Response("Meddelandet finns inte.", { status: 404 });
  }
  return { messages: await listMessages(), editing };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const form = await request.formData();
  const meta = user.actor;
  if (form.get("intent") === "delete") {
    const id = parseId(form.get("id"));
    if (id === null || !(await deleteMessage(id, user.staffId, meta))) throw new Response("Meddelandet finns inte.", { status: 404 });
    return redirectWithToast(request, "/admin/messages", "Meddelandet är borttaget.");
  }
  const submission = parseWithZod(form, { schema: MessageSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = submission.value;
  const result = await saveMessage(
    { id: v.id, type: Number(v.type), header: v.header ?? "", content: v.content, startDate: v.startDate, stopDate: v.stopDate ?? "", customers: v.customers ?? "" },
    user.staffId,
    meta,
  );
  if (!result.ok) {
    const fieldErrors = Object.fromEntries(Object.entries(result.errors).map(([k, m]) => [k, [m!]]));
    return data(submission.reply({ fieldErrors }), { status: 400 });
  }
  return redirectWithToast(request, "/admin/messages", v.id ? "Meddelandet är uppdaterat." : "Meddelandet är sparat.");
}

const typeLabel = (t: number) => MESSAGE_TYPES_LABELS[t] ?? String(t);
const MESSAGE_TYPES_LABELS: Record<number, string> = Object.fromEntries(TYPES.map((t) => [t.id, t.label]));

export default function MessagesPage() {
  const { messages, editing } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigate = useNavigate();
  const [form, fields] = useForm({
    id: `message-${editing?.id ?? "new"}`,
    lastResult,
    defaultValue: editing
      ? { id: String(editing.id), type: String(editing.type), startDate: editing.startDate, stopDate: editing.stopDate, header: editing.header, content: editing.content, customers: editing.customers }
      : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MessageSchema }),
  });
  const { key: typeKey, ...typeProps } = getSelectProps(fields.type, { ariaDescribedBy: fields.type.errors ? fields.type.errorId : undefined });
  const { key: contentKey, ...contentProps } = getTextareaProps(fields.content, {
    ariaDescribedBy: [`${fields.content.id}-hint`, fields.content.errors ? fields.content.errorId : ""].filter(Boolean).join(" "),
  });
  const { key: customersKey, ...customersProps } = getTextareaProps(fields.customers, {
    ariaDescribedBy: [`${fields.customers.id}-hint`, fields.customers.errors ? fields.customers.errorId : ""].filter(Boolean).join(" "),
  });
  return (
    <>
      <h1>Meddelanden</h1>
      <section className="card" aria-labelledby="message-form-title">
        <h2 id="message-form-title">{editing ? `Redigera meddelande ${editing.id}` : "Nytt meddelande"}</h2>
        <Form method="post" action={editing ? `/admin/messages?id=${editing.id}` : "/admin/messages"} {...getFormProps(form)}>
          <CsrfInput />
          {editing ? <input {...getInputProps(fields.id, { type: "hidden" })} key={fields.id.key} /> : null}
          <div className="field">
            <label htmlFor={fields.type.id}>Typ</label>
            <select key={typeKey} {...typeProps}>
              <option value="">Välj typ</option>
              {TYPES.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.id} {t.label}
                </option>
              ))}
            </select>
            <FieldErrors id={fields.type.errorId} errors={fields.type.errors} />
          </div>
          <div className="field-row">
            <Field label="Från" field={fields.startDate} type="date" />
            <Field label="Till" field={fields.stopDate} type="date" hint="Tomt: bara ett datum." />
          </div>
          <Field label="Rubrik" field={fields.header} />
          <div className="field">
            <label htmlFor={fields.content.id}>Innehåll</label>
            <FormatButtons textareaId={fields.content.id} />
            <textarea key={contentKey} {...contentProps} className="message-editor" rows={8} />
            <small id={`${fields.content.id}-hint`} className="hint">
              Text, eller HTML med &lt;p&gt;, &lt;strong&gt;, &lt;em&gt;, &lt;u&gt;, &lt;ul&gt;/&lt;ol&gt;/&lt;li&gt;, &lt;a href&gt;, &lt;br&gt;. Annat tas bort när det sparas.
            </small>
            <FieldErrors id={fields.content.errorId} errors={fields.content.errors} />
          </div>
          <div className="field">
            <label htmlFor={fields.customers.id}>Kundnummer</label>
            <textarea key={customersKey} {...customersProps} rows={2} />
            <small id={`${fields.customers.id}-hint`} className="hint">
              För Kundmeddelande och Returrapportering: kundnummer åtskilda med komma. Tomt: alla kunder.
            </small>
            <FieldErrors id={fields.customers.errorId} errors={fields.customers.errors} />
          </div>
          <FieldErrors id={fields.id.errorId} errors={fields.id.errors} />
          <SaveActions editing={!!editing}>
            <Link to="/admin/messages" className="button" reloadDocument>
              Nollställ
            </Link>
          </SaveActions>
        </Form>
      </section>

      <h2>Sparade meddelanden</h2>
      <TableOrEmpty empty={messages.length === 0} emptyText="Inga meddelanden.">
        <thead>
          <tr>
            <th scope="col">Typ</th>
            <th scope="col">Rubrik</th>
            <th scope="col">Från</th>
            <th scope="col">Till</th>
            <th scope="col" className="num">
              Kunder
            </th>
            <th scope="col">Åtgärd</th>
          </tr>
        </thead>
        <tbody>
          {messages.map((m) => (
            <tr
              key={m.id}
              className={editing?.id === m.id ? "selected clickable" : "clickable"}
              onClick={(e) => {
                if ((e.target as HTMLElement).closest("a,button,form")) return;
                navigate(`/admin/messages?id=${m.id}`);
              }}
            >
              <td>{typeLabel(m.type)}</td>
              <td>
                <Link to={`/admin/messages?id=${m.id}`} aria-label={`Redigera ${m.header || `meddelande ${m.id}`}`}>
                  {m.header || "(utan rubrik)"}
                </Link>
              </td>
              <td className="date">{m.startDate}</td>
              <td className="date">{m.stopDate}</td>
              <td className="num">{m.customerCount || "Alla"}</td>
              <td>
                <RowAction
                  intent="delete"
                  fields={{ id: m.id }}
                  label="Ta bort"
                  ariaLabel={`Ta bort ${m.header || `meddelande ${m.id}`}`}
                  action="/admin/messages"
                  className="inline-form"
                  buttonClassName="link-button"
                />
              </td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
    </>
  );
}

// Decision: no rich-text editor library. The textarea takes the same small HTML subset
// the sanitiser keeps; with JavaScript these buttons wrap the selection in those tags.
const FORMATS = [
  { label: "Fet", before: "<strong>", after: "</strong>" },
  { label: "Kursiv", before: "<em>", after: "</em>" },
  { label: "Stycke", before: "<p>", after: "</p>" },
  { label: "Punktlista", before: "<ul>\n<li>", after: "</li>\n</ul>" },
  { label: "Länk", before: '<a href="https://">', after: "</a>" },
];

function FormatButtons({ textareaId }: { textareaId: string }) {
  const [enhanced, setEnhanced] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => setEnhanced(true), []);
  if (!enhanced) return null;
  return (
    <div className="format-buttons" role="toolbar" aria-label="Formatering" ref={ref}>
      {FORMATS.map((f) => (
        <button
          key={f.label}
          type="button"
          onClick={() => {
            const area = document.getElementById(textareaId) as HTMLTextAreaElement | null;
            if (!area) return;
            const { selectionStart: s, selectionEnd: e, value } = area;
            area.value = value.slice(0, s) + f.before + value.slice(s, e) + f.after + value.slice(e);
            area.focus();
            area.setSelectionRange(s + f.before.length, e + f.before.length);
            area.dispatchEvent(new Event("input", { bubbles: true }));
          }}
        >
          {f.label}
        </button>
      ))}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
