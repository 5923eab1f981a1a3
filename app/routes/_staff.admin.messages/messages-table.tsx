import { Link, useNavigate } from "@remix-run/react";
import { MESSAGE_TYPES } from "~/features/messages";
import { RowAction } from "~/ui/row-action";
import { TableOrEmpty } from "~/ui/table";

type Row = { id: number; type: number; header: string; startDate: string; stopDate: string; customerCount: number };

const TYPE_LABEL: Record<number, string> = Object.fromEntries(MESSAGE_TYPES.map((t) => [t.id, t.label]));

/** The saved messages: clicking a row (or its heading) edits it; Ta bort deletes it. */
export function MessagesTable({ messages, selectedId }: { messages: Row[]; selectedId: number | null }) {
  const navigate = useNavigate();
  return (
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
            className={selectedId === m.id ? "selected clickable" : "clickable"}
            onClick={(e) => {
              if ((e.target as HTMLElement).closest("a,button,form")) return;
              navigate(`/admin/messages?id=${m.id}`);
            }}
          >
            <td>{TYPE_LABEL[m.type] ?? String(m.type)}</td>
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
  );
}
