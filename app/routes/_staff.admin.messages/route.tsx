import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { MessageActionSchema } from "~/features/messages";
import { deleteMessage, getMessage, listMessages, MESSAGE_SORT_COLUMNS, messageQuestion, saveMessage } from "~/features/messages/index.server";
import { askFirst, handleForm } from "~/http/form.server";
import { listUrl } from "~/http/params";
import { parseId } from "~/lib/ids";
import staffStyles from "~/ui/staff-monitoring.css?url";
import { MessageForm } from "./message-form";
import { MessagesTable } from "./messages-table";
import { param, readSearch } from "~/lib/search-params";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Meddelanden – Returportalen" }];

const GONE = "Meddelandet finns inte.";

const MESSAGES_SEARCH = {
  id: param.ref(),
  sok: param.text(200),
  sort: param.sort(MESSAGE_SORT_COLUMNS, { column: "fran", descending: true }),
  sida: param.page(),
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const { id, sok: search, sort, sida: page } = readSearch(request, MESSAGES_SEARCH);
  let editing = null;
  if (id !== undefined) {
    editing = id !== null ? await getMessage(id) : null;
    if (!editing) throw new Response(GONE, { status: 404 });
  }
  return { list: await listMessages({ search, sort, page }), sort, search, editing };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, MessageActionSchema, async (v, submission) => {
    if (v.intent === "delete") {
      const id = parseId(v.id);
      // Deleting twice (two tabs, a double press) is not an error: what was asked for holds.
      const deleted = id !== null && (await deleteMessage(id, user.actor));
      return redirectWithToast(request, messagesList(request), deleted ? "Meddelandet är borttaget." : "Meddelandet var redan borttaget.");
    }
    const input = { id: v.id, version: v.version, type: Number(v.type), header: v.header ?? "", content: v.content, startDate: v.startDate, stopDate: v.stopDate ?? "", customers: v.customers ?? "" };
    // A message that reaches every retailer says so and asks first.
    const question = v.confirmed ? null : await messageQuestion(input);
    if (question) return askFirst(submission, question);
    await saveMessage(input, user.actor);
    return redirectWithToast(request, "/admin/messages", v.id ? "Meddelandet är uppdaterat." : "Meddelandet är sparat.");
  });
}

/** The list as it was shown (search, sort, page), without the confirm step. */
const messagesList = (request: Request) => listUrl(request, "/admin/messages", ["sok", "sortera", "ordning", "sida"]);

// A refused save because someone else changed the message (409) shows what is stored now.
export { revalidateOnConflict as shouldRevalidate } from "~/ui/stored-now";

export default function MessagesPage() {
  const { list, sort, search, editing } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  // After a save (a redirect here) the form starts empty, as it does without JavaScript;
  // an answer to the form (refused, or asked) keeps the one on the page as typed.
  const location = useLocation();
  return (
    <>
      <h1>Meddelanden</h1>
      <section className="card" aria-labelledby="message-form-title">
        <h2 id="message-form-title">{editing ? `Redigera meddelande ${editing.id}` : "Nytt meddelande"}</h2>
        <MessageForm key={lastResult ? "answered" : location.key} editing={editing} lastResult={lastResult} />
      </section>

      <h2 id="saved-messages">Sparade meddelanden</h2>
      <MessagesTable list={list} sort={sort} search={search} selectedId={editing?.id ?? null} />
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
