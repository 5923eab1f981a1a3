import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { handleForm } from "~/http/form.server";
import { today } from "~/lib/dates";
import { orderBlockSchema } from "~/features/labels";
import { LABEL_TYPE, getBlock, labelsOnHand, newFormToken, orderBlock } from "~/features/labels/index.server";
import { replyError } from "~/ui/form-reply";
import { CsrfInput } from "~/ui/csrf";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Beställ returetiketter – Returportalen" }];

// The dialog's steps are URL state (?steg=bekrafta, ?block={id}) so they work without JavaScript.
const ORDER_SEARCH = { block: param.id(), steg: param.maybeOneOf(["bekrafta"]) };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const { block: blockId, steg } = readSearch(request, ORDER_SEARCH);
  const block = blockId !== null ? await getBlock(user.customerId, blockId) : null;
  if (block && block.type === LABEL_TYPE.normal) return { step: "result" as const, block: { fromNumber: block.fromNumber, toNumber: block.toNumber }, customerId: user.customerId, token: newFormToken() };
  // Before an order: how many labels the shop still has, so nobody orders 50 while 90 lie in the drawer.
  const onHand = await labelsOnHand(user.customerId);
  if (steg === "bekrafta") return { step: "confirm" as const, block: null, customerId: user.customerId, token: newFormToken(), onHand };
  return { step: "start" as const, block: null, customerId: user.customerId, token: null, onHand };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, orderBlockSchema, async ({ token }) => {
    const block = await orderBlock(user.customerId, today(), token || undefined);
    return redirect(`/order?block=${block.id}`);
  });
}

export default function OrderLabels() {
  const loaded = useLoaderData<typeof loader>();
  const { step, block, token } = loaded;
  const onHand = "onHand" in loaded ? loaded.onHand : null;
  const refused = replyError(useActionData<typeof action>());
  const navigation = useNavigation();
  return (
    <>
      <h1>Beställ returetiketter</h1>
      <p className="intro">
        Beställ ett nytt block med 50 returetiketter. Varje etikett har ett eget buntnummer. Blocket skickas till din butik.
      </p>
      {refused ? (
        <p className="field-error" role="alert">
          {refused}
        </p>
      ) : null}
      {onHand && step !== "result" ? (
        <p className="notice">
          {onHand.unused > 0 ? (
            <>
              Du har {onHand.unused} oanvända returetiketter ({onHand.series.join(", ")}). <Link to="/buntblock">Se dina buntblock</Link>
            </>
          ) : (
            "Du har inga oanvända returetiketter."
          )}
        </p>
      ) : null}
      {step === "start" ? (
        <p className="actions">
          <Link to="/order?steg=bekrafta" className="button primary">
            Beställ
          </Link>
        </p>
      ) : null}
      {step === "confirm" ? (
        <section className="card dialog-section" aria-labelledby="confirm-heading">
          <h2 id="confirm-heading">Beställ buntblock</h2>
          <p>Vill du beställa ett nytt block med returetiketter?</p>
          <Form method="post" className="actions">
            <CsrfInput />
            <input type="hidden" name="token" value={token ?? ""} />
            <Link to="/order" className="button">
              Avbryt
            </Link>
            <button type="submit" name="intent" value="bestall" className="primary" disabled={navigation.state !== "idle"}>
              Beställ
            </button>
          </Form>
        </section>
      ) : null}
      {step === "result" && block ? (
        <section className="card dialog-section" aria-labelledby="result-heading" role="status">
          <h2 id="result-heading">Beställningen är klar</h2>
          <p>
            Din nya nummerserie:{" "}
            <strong className="series">
              {block.fromNumber} - {block.toNumber}
            </strong>
          </p>
          <p>Det nya blocket kommer om cirka två veckor.</p>
          <p>
            Behöver du etiketter innan dess? <Link to="/nodetiketter">Skriv ut nödetiketter</Link>
          </p>
          <p className="actions">
            <Link to="/buntblock" className="button primary">
              OK
            </Link>
          </p>
          {/* A fresh token: a deliberate second order is new; the confirm form sent again is not. */}
          <Form method="post" className="actions">
            <CsrfInput />
            <input type="hidden" name="token" value={token ?? ""} />
            <button type="submit" name="intent" value="bestall" disabled={navigation.state !== "idle"}>
              Beställ ett block till
            </button>
          </Form>
        </section>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
