// Avsluta påminnelser (decision 017): the link in every reminder mail. No
// login: the signed, expiring token names the customer. GET only asks (mail scanners
// open links); the button's POST — or a mail program's one-click POST (RFC 8058, body
// "List-Unsubscribe=One-Click" to the same address) — turns the reminders off.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useActionData, useLoaderData } from "@remix-run/react";
import { handleForm } from "~/http/form.server";
import { requestContext } from "~/http/request-context";
import { REMINDER_TEXTS as T } from "~/features/reminders";
import { readUnsubscribeToken, unsubscribe, UnsubscribeSchema } from "~/features/reminders/index.server";
import { BarePage } from "~/ui/bare-page";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: `${T.unsubscribeTitle} – Returportalen` }];

const UNSUBSCRIBE_SEARCH = { t: param.text(100) };
const tokenOf = (request: Request) => readSearch(request, UNSUBSCRIBE_SEARCH).t;

export async function loader({ request }: LoaderFunctionArgs) {
  const token = tokenOf(request);
  const target = await readUnsubscribeToken(token);
  if (!target) return data({ target: null, token: "" }, { status: 400 });
  return { target: { email: target.email, name: target.name, customerId: target.customerId, enabled: target.enabled }, token };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { ip, requestId } = requestContext(context);
  return handleForm(request, UnsubscribeSchema, async ({ t }) => {
    const target = await unsubscribe(tokenOf(request) || t, { ip, requestId });
    if (!target) return data({ done: false as const }, { status: 400 });
    return data({ done: true as const, alreadyOff: !target.enabled });
  });
}

export default function Unsubscribe() {
  const { target, token } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const answer = reply && "done" in reply ? reply : undefined;
  return (
    <BarePage>
      <h1>{T.unsubscribeTitle}</h1>
      {answer?.done ? (
        <p role="status">{answer.alreadyOff ? T.alreadyOff : T.unsubscribed}</p>
      ) : !target || answer?.done === false ? (
        <p role="alert">{T.badLink}</p>
      ) : !target.enabled ? (
        <p role="status">{T.alreadyOff}</p>
      ) : (
        <Form method="post">
          <input type="hidden" name="t" value={token} />
          <p>{T.unsubscribeAsk(target.email, target.name, target.customerId)}</p>
          <button type="submit" className="primary">
            {T.unsubscribeButton}
          </button>
        </Form>
      )}
      <p>
        <Link to="/login">Logga in i Returportalen</Link>
      </p>
    </BarePage>
  );
}
