import { Form, Link } from "@remix-run/react";
import { CsrfInput } from "~/ui/csrf";

export function truncateName(name: string, max = 20): string {
  return name.length > max ? `${name.slice(0, max)}…` : name;
}

/** The header for a logged-in user: name (cut to 20 characters on small screens) and 'Logga ut'. */
export function UserHeader({ name, home }: { name: string; home: string }) {
  return (
    <header className="site-header">
      <Link to={home} className="brand">
        Returportalen
      </Link>
      <div className="user-box">
        <span className="user-name">
          <span className="wide-only">{name}</span>
          <span className="narrow-only" aria-hidden="true">
            {truncateName(name)}
          </span>
        </span>
        <Form method="post" action="/logout">
          <CsrfInput />
          <button type="submit" className="link-button">
            Logga ut
          </button>
        </Form>
      </div>
    </header>
  );
}
