import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { MessageActionSchema } from "~/features/messages";
import { deleteMessage, getMessage, listMessages, saveMessage } from "~/features/messages/index.server";
import { handleForm, refusalResponse } from "~/http/form.server";
import { parseId } from "~/lib/ids";
import { refuse } from "~/lib/refusal";
import staffStyles from "~/ui/staff-monitoring.css?url";
import { MessageForm } from "./message-form";
import { MessagesTable } from "./messages-table";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Meddelanden – Returportalen" }];

const GONE = "Meddelandet finns inte.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const idText = new URL(request.url).searchParams.get("id");
  let editing = null;
  if (idText) {
    const id = parseId(idText);
    editing = id !== null ? await getMessage(id) : null;
    if (!editing) throw new Response(GONE, { status: 404 });
  }
  return { messages: await listMessages(), editing };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, MessageActionSchema, async (v) => {
    if (v.intent === "delete") {
      const id = parseId(v.id);
      if (id === null || !(await deleteMessage(id, user.actor))) throw refusalResponse(refuse.notFound(GONE));
      return redirectWithToast(request, "/admin/messages", "Meddelandet är borttaget.");
    }
    await saveMessage(
      { id: v.id, version: v.version, type: Number(v.type), header: v.header ?? "", content: v.content, startDate: v.startDate, stopDate: v.stopDate ?? "", customers: v.customers ?? "" },
      user.actor,
    );
    return redirectWithToast(request, "/admin/messages", v.id ? "Meddelandet är uppdaterat." : "Meddelandet är sparat.");
  });
}

// A refused save because someone else changed the message (409) shows what is stored now.
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) => actionStatus === 409 || defaultShouldRevalidate;

export default function MessagesPage() {
  const { messages, editing } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <>
      <h1>Meddelanden</h1>
      <section className="card" aria-labelledby="message-form-title">
        <h2 id="message-form-title">{editing ? `Redigera meddelande ${editing.id}` : "Nytt meddelande"}</h2>
        <MessageForm editing={editing} lastResult={lastResult} />
      </section>

      <h2>Sparade meddelanden</h2>
      <MessagesTable messages={messages} selectedId={editing?.id ?? null} />
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
