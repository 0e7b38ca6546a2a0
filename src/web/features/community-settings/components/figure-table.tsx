import type { ReactNode } from "react";

/** A table of figures: its caption for screen readers, its column headings, its rows. */
export function FigureTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: readonly { label: string; className?: string }[];
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-stone-200 bg-white shadow-xs">
      <table className="w-full text-sm [&_td]:px-4 [&_td]:py-2.5 [&_th]:px-4 [&_th]:py-2.5 [&_th]:text-left">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-stone-50 text-xs font-semibold tracking-wide text-stone-600 uppercase">
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.className}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">{children}</tbody>
      </table>
    </div>
  );
}
