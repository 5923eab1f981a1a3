// 'Buntblock': the customer's label blocks; an unused block can be deleted.
import { useActionData } from "@remix-run/react";
import type { FormReply } from "~/http/form.server";
import type { listLabelBlocks } from "~/features/bundles/index.server";
import { FieldErrors } from "~/ui/field";
import { ConfirmAction } from "~/ui/confirm";
import { ActionsHeader, TableOrEmpty } from "~/ui/table";

type Block = Awaited<ReturnType<typeof listLabelBlocks>>[number];

export function BlocksSection({ blocks, customerId }: { blocks: Block[]; customerId: number }) {
  const reply = useActionData<FormReply>();
  const refused = reply?.initialValue?.intent === "delete-block" ? reply.error?.[""] ?? undefined : undefined;
  return (
    <section aria-label="Buntblock">
      <FieldErrors errors={refused} />
      <TableOrEmpty empty={blocks.length === 0} emptyText="Kunden har inga buntblock.">
        <thead>
          <tr>
            <th>Från datum</th>
            <th>Till datum</th>
            <th className="num">Från nr</th>
            <th className="num">Till nr</th>
            <th className="num">Oanvända</th>
            <th>Status</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {blocks.map((b) => (
            <tr key={b.id}>
              <td>{b.fromDate}</td>
              <td>{b.toDate}</td>
              <td className="num">{b.fromNumber}</td>
              <td className="num">{b.toNumber}</td>
              <td className="num">{b.numberUnused}</td>
              <td>{b.status}</td>
              <td>
                <ConfirmAction
                  confirm={`block-${b.id}`}
                  label="Ta bort"
                  ariaLabel={`Ta bort block ${b.fromNumber}–${b.toNumber}`}
                  title="Ta bort buntblocket?"
                  intent="delete-block"
                  fields={{ kund: customerId, blockId: b.id }}
                  confirmLabel="Ta bort blocket"
                >
                  <p>
                    Block {b.fromNumber}–{b.toNumber} ({b.fromDate} – {b.toDate}) tas bort från kund {customerId}. Ett block vars nummer används kan inte tas bort.
                  </p>
                </ConfirmAction>
              </td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
    </section>
  );
}
