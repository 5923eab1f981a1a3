// Leveransändring (decision 037): per main paper the seven weekdays — what the shop usually
// gets, what sold and came back on the last eight same weekdays, the sold-out days and a
// suggestion in words — and a field per weekday for the number wanted. One Skicka per paper;
// a one-off change for a single date is a form of its own. The shop's requests and the
// distributor's proposals are listed with their status; a request not yet decided can be
// taken back, a proposal accepted or declined.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { config } from "~/config.server";
import {
  ANSWER,
  RetailerSupplySchema,
  SEND_ONE_OFF,
  SEND_WEEKDAYS,
  SUPPLY_RULE,
  SUPPLY_TEXTS,
  WITHDRAW,
  supplyStatusText,
  supplyWhen,
  weekdayName,
  weekdayTitle,
} from "~/features/supply";
import { answerProposal, customerSupply, sendOneOffChange, sendWeekdayChanges, weekdayStart, withdrawChange } from "~/features/supply/index.server";
import { handleForm } from "~/http/form.server";
import { CsrfInput } from "~/ui/csrf";
import { replyError, replyValue } from "~/ui/form-reply";
import { portalNow } from "../../db/clock";

const NUMBER_WORDS: Record<number, string> = { 2: "två", 3: "tre", 4: "fyra", 5: "fem" };

export const meta: MetaFunction = () => [{ title: "Leveransändring – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const c = config.supplyCutoffs;
  return {
    papers: await customerSupply(user.customerId),
    startDate: weekdayStart(portalNow(), c).startDate,
    cutoffText: `En ändring per veckodag som skickas senast ${weekdayName(c.weekday)} kl. ${c.weekdayTime} gäller från måndagen efter, annars från måndagen veckan därpå.`,
    oneOffText: `En ändring för en enstaka dag ska skickas senast kl. ${c.oneOffTime} ${c.oneOffDays === 0 ? "samma arbetsdag som" : c.oneOffDays === 1 ? "en arbetsdag före" : `${NUMBER_WORDS[c.oneOffDays] ?? c.oneOffDays} arbetsdagar före`} dagen (helgdagar räknas inte).`,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, RetailerSupplySchema, async (v) => {
    if (v.intent === SEND_WEEKDAYS) {
      const wanted = ([1, 2, 3, 4, 5, 6, 7] as const).flatMap((d) => {
        const copies = v[`dag${d}`];
        return copies === undefined ? [] : [{ weekday: d, copies }];
      });
      const { startDate, paper, sent } = await sendWeekdayChanges(user.customerId, v.tidning, wanted, user.actor);
      const what = sent.map((w) => `${weekdayName(w.weekday)} ${w.copies} ex`).join(", ");
      return redirectWithToast(request, "/leverans", `Ändringen av ${paper} är skickad: ${what} från ${startDate}.`);
    }
    if (v.intent === SEND_ONE_OFF) {
      await sendOneOffChange(user.customerId, v.tidning, v.datum, v.antal, user.actor);
      return redirectWithToast(request, "/leverans", `Ändringen för ${v.datum} är skickad: ${v.antal} ex.`);
    }
    if (v.intent === WITHDRAW) {
      await withdrawChange(user.customerId, v.andring, user.actor);
      return redirectWithToast(request, "/leverans", `Ändring ${v.andring} är återtagen.`);
    }
    const { startDate } = await answerProposal(user.customerId, v.andring, v.svar === "ja", user.actor);
    return redirectWithToast(request, "/leverans", v.svar === "ja" ? `Du har tackat ja till ändring ${v.andring}: den gäller från ${startDate}.` : `Du har tackat nej till ändring ${v.andring}.`);
  });
}

type Paper = ReturnType<typeof useLoaderData<typeof loader>>["papers"][number];

export default function SupplyPage() {
  const { papers, startDate, cutoffText, oneOffText } = useLoaderData<typeof loader>();
  const proposals = papers.flatMap((p) => p.changes.filter((c) => c.status === "proposed"));
  // A refused Ångra or answer (another tab did it first, staff replaced the proposal) is said
  // at the top: its row may be gone from the page.
  const answer = useActionData<typeof action>();
  const intent = replyValue(answer, "intent");
  const rowError = intent === WITHDRAW || intent === ANSWER ? replyError(answer) : null;
  return (
    <>
      <h1>{SUPPLY_TEXTS.title}</h1>
      <p className="intro">{SUPPLY_TEXTS.intro}</p>
      <p>
        {cutoffText} Skickar du nu gäller den från <strong>{startDate}</strong>.
      </p>
      {rowError ? (
        <p className="field-error" role="alert">
          {rowError}
        </p>
      ) : null}
      {papers.length === 0 ? <p>Inga leveranser de senaste {SUPPLY_RULE.weeks} veckorna.</p> : null}
      {proposals.length > 0 ? (
        <section className="card notice" aria-labelledby="forslag-rubrik">
          <h2 id="forslag-rubrik">Förslag från distributören</h2>
          <ul className="plain-list">
            {proposals.map((c) => (
              <li key={c.id}>
                <ProposalAnswer change={c} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {papers.map((p) => (
        <PaperSupplyCard key={`${p.titleId}:${p.editionId}`} paper={p} startDate={startDate} oneOffText={oneOffText} />
      ))}
    </>
  );
}

function ProposalAnswer({ change: c }: { change: Paper["changes"][number] }) {
  const day = c.weekday !== null ? weekdayName(c.weekday) : `den ${c.oneOffDate}`;
  return (
    <>
      <p>
        Ändring {c.id}: {c.paper}, {day}: {c.oldCopies} → <strong>{c.requested} ex</strong>
        {c.reason ? `. ${c.reason}` : ""}
      </p>
      <Form method="post" className="inline-actions">
        <CsrfInput />
        <input type="hidden" name="intent" value={ANSWER} />
        <input type="hidden" name="andring" value={c.id} />
        <button type="submit" name="svar" value="ja" className="primary">
          Tacka ja<span className="visually-hidden"> till ändring {c.id}</span>
        </button>
        <button type="submit" name="svar" value="nej">
          Tacka nej<span className="visually-hidden"> till ändring {c.id}</span>
        </button>
      </Form>
    </>
  );
}

function PaperSupplyCard({ paper: p, startDate, oneOffText }: { paper: Paper; startDate: string; oneOffText: string }) {
  const answer = useActionData<typeof action>();
  const key = `${p.titleId}:${p.editionId}`;
  const mine = replyValue(answer, "tidning") === key ? answer : undefined;
  const weekdaysReply = replyValue(mine, "intent") === SEND_WEEKDAYS ? mine : undefined;
  const oneOffReply = replyValue(mine, "intent") === SEND_ONE_OFF ? mine : undefined;
  const id = `leverans-${p.titleId}-${p.editionId}`;
  const formError = replyError(weekdaysReply, "") ?? replyError(weekdaysReply, "tidning");
  const current = (weekday: number) => p.changes.find((c) => c.weekday === weekday && c.status !== "withdrawn" && c.status !== "declined");
  // The shop's own requests and the proposals it answered (a proposal staff replaced was never its).
  const listed = p.changes.filter((c) => c.status !== "proposed" && !(c.origin === "staff" && c.status === "withdrawn"));
  return (
    <section className="card supply-paper" aria-labelledby={`${id}-rubrik`}>
      <h2 id={`${id}-rubrik`}>{p.paper}</h2>
      <Form method="post" noValidate>
        <CsrfInput />
        <input type="hidden" name="intent" value={SEND_WEEKDAYS} />
        <input type="hidden" name="tidning" value={key} />
        {formError ? (
          <p className="field-error" role="alert">
            {formError}
          </p>
        ) : null}
        <table className="supply-table">
          <caption>
            {p.paper} per veckodag, de senaste {SUPPLY_RULE.weeks} veckorna. Lämna fältet tomt för oförändrat antal.
          </caption>
          <thead>
            <tr>
              <th scope="col">Dag</th>
              <th scope="col" className="num">
                Brukar få
              </th>
              <th scope="col" className="num">
                Sålt
              </th>
              <th scope="col" className="num">
                Retur
              </th>
              <th scope="col">Slutsålt</th>
              <th scope="col" className="text">
                Förslag
              </th>
              <th scope="col">Önskat antal</th>
            </tr>
          </thead>
          <tbody>
            {p.weekdays.map((w) => {
              const field = `dag${w.weekday}`;
              const error = replyError(weekdaysReply, field);
              const now = current(w.weekday);
              return (
                <tr key={w.weekday}>
                  <th scope="row">{weekdayTitle(w.weekday)}</th>
                  <td className="num" data-label="Brukar få">
                    {w.usual} ex
                  </td>
                  <td className="num" data-label="Sålt">
                    {w.days > 0 ? `${w.sold} ex` : "–"}
                  </td>
                  <td className="num" data-label="Retur">
                    {w.days > 0 ? `${w.returned} ex` : "–"}
                  </td>
                  <td data-label="Slutsålt">{w.days > 0 ? `${w.soldOut} av ${w.days}` : "–"}</td>
                  <td className="text" data-label="Förslag">
                    {w.suggestion ? (
                      <>
                        <strong>{w.suggestion.copies} ex.</strong> {w.suggestion.reason}.
                      </>
                    ) : w.days < SUPPLY_RULE.minDays ? (
                      "För få veckor att föreslå något."
                    ) : (
                      "Inget att ändra."
                    )}
                    {now ? <span className="supply-status">{supplyStatusText({ ...now, reason: now.status === "proposed" ? null : now.reason })}</span> : null}
                  </td>
                  <td className="supply-want">
                    <label htmlFor={`${id}-${field}`}>
                      {p.paper}, {weekdayName(w.weekday)}
                    </label>
                    <input
                      id={`${id}-${field}`}
                      name={field}
                      inputMode="numeric"
                      autoComplete="off"
                      size={4}
                      defaultValue={replyValue(weekdaysReply, field) ?? ""}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-${field}-fel` : undefined}
                    />
                    {error ? (
                      <span id={`${id}-${field}-fel`} className="field-error" role="alert">
                        {error}
                      </span>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <p>Gäller från {startDate} om du skickar nu.</p>
        <button type="submit" className="primary">
          Skicka<span className="visually-hidden"> ändringarna för {p.paper}</span>
        </button>
      </Form>

      <OneOffForm paper={p} id={id} reply={oneOffReply} text={oneOffText} />

      {listed.length > 0 ? (
        <>
          <h3>Dina ändringar av {p.paper}</h3>
          <ul className="plain-list supply-changes">
            {listed.map((c) => (
              <li key={c.id}>
                Ändring {c.id}: {supplyWhen(c)}, {c.oldCopies} → {c.requested} ex. <strong>{supplyStatusText(c)}</strong>
                {c.status === "sent" ? (
                  <Form method="post" className="inline-actions">
                    <CsrfInput />
                    <input type="hidden" name="intent" value={WITHDRAW} />
                    <input type="hidden" name="andring" value={c.id} />
                    <button type="submit">
                      Ångra<span className="visually-hidden"> ändring {c.id}</span>
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function OneOffForm({ paper: p, id, reply, text }: { paper: Paper; id: string; reply: ReturnType<typeof useActionData<typeof action>> | undefined; text: string }) {
  const dateError = replyError(reply, "datum");
  const copiesError = replyError(reply, "antal") ?? (dateError ? null : replyError(reply));
  return (
    <Form method="post" noValidate className="supply-one-off">
      <CsrfInput />
      <input type="hidden" name="intent" value={SEND_ONE_OFF} />
      <input type="hidden" name="tidning" value={`${p.titleId}:${p.editionId}`} />
      <h3>Ändring för en enstaka dag</h3>
      <p>{text}</p>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-datum`}>Datum för {p.paper}</label>
          <input
            id={`${id}-datum`}
            name="datum"
            type="date"
            defaultValue={replyValue(reply, "datum") ?? ""}
            aria-invalid={dateError ? true : undefined}
            aria-describedby={dateError ? `${id}-datum-fel` : undefined}
          />
          {dateError ? (
            <p id={`${id}-datum-fel`} className="field-error" role="alert">
              {dateError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-antal`}>Antal ex av {p.paper} den dagen</label>
          <input
            id={`${id}-antal`}
            name="antal"
            inputMode="numeric"
            autoComplete="off"
            defaultValue={replyValue(reply, "antal") ?? ""}
            aria-invalid={copiesError ? true : undefined}
            aria-describedby={copiesError ? `${id}-antal-fel` : undefined}
          />
          {copiesError ? (
            <p id={`${id}-antal-fel`} className="field-error" role="alert">
              {copiesError}
            </p>
          ) : null}
        </div>
      </div>
      <button type="submit">
        Skicka<span className="visually-hidden"> ändringen för en dag av {p.paper}</span>
      </button>
    </Form>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
