// The question before a change that reaches many retailers (decision 029): what it will
// change, in numbers, then "Spara ändå" or "Avbryt". Inside the form that was sent, so what
// was typed stays on the page and goes again with `confirmed`; or, for a row's small form,
// a form of its own carrying the row's values. Plain HTML: the same without JavaScript.
import { Form, Link } from "@remix-run/react";
import type { Question } from "~/lib/question";
import { CsrfInput } from "./csrf";

/** The question of an action's answer (askFirst in http/form.server.ts), if it asks one. */
export function questionOf(answer: unknown): Question | null {
  if (typeof answer !== "object" || answer === null || !("ask" in answer)) return null;
  const ask = (answer as { ask: unknown }).ask;
  return typeof ask === "object" && ask !== null && "title" in ask && "text" in ask ? (ask as Question) : null;
}

function Asked({ question, cancelTo, children }: { question: Question; cancelTo?: string; children?: React.ReactNode }) {
  return (
    <section className="card ask" role="alert" aria-label={question.title}>
      <h3>{question.title}</h3>
      <p>{question.text}</p>
      {cancelTo ? null : <p>Inget är sparat än. Ändra i formuläret och spara igen, eller spara ändå.</p>}
      <div className="actions">
        {children}
        <button type="submit" name="confirmed" value="1" className="primary">
          Spara ändå
        </button>
        {cancelTo ? <Link to={cancelTo}>Avbryt</Link> : null}
      </div>
    </section>
  );
}

/**
 * The question inside the form that was sent: its "Spara ändå" sends the form as it is now.
 * With `cancelTo`, Avbryt leaves for it (the stored values); without, the form stays as
 * typed to be changed (a long text is never thrown away by a question).
 */
export function AskFirst({ question, cancelTo }: { question: Question; cancelTo?: string }) {
  return <Asked question={question} cancelTo={cancelTo} />;
}

/** The question as a form of its own, sending `fields` again with `confirmed`. */
export function AskFirstForm({ question, cancelTo, fields }: { question: Question; cancelTo: string; fields: Record<string, string | number> }) {
  return (
    <Form method="post">
      <Asked question={question} cancelTo={cancelTo}>
        <CsrfInput />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
      </Asked>
    </Form>
  );
}
