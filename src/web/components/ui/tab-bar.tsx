import type { KeyboardEvent, ReactNode, Ref } from "react";
import { tabTriggerClasses } from "./tab-styles";

export type TabBarItem<T extends string> = { id: T; label: ReactNode };

const tabId = (id: string, tab: string) => `${id}-tab-${tab}`;

/** Props for the one panel under a TabBar with the same `id` (only the selected panel is mounted). */
export const tabPanelProps = (id: string, current: string) =>
  ({ role: "tabpanel", id: `${id}-panel`, "aria-labelledby": tabId(id, current), tabIndex: 0 }) as const;

function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
  if (at < 0) return;
  const last = tabs.length - 1;
  const to = { ArrowRight: at === last ? 0 : at + 1, ArrowLeft: at === 0 ? last : at - 1, Home: 0, End: last }[
    event.key
  ];
  if (to === undefined) return;
  event.preventDefault();
  tabs[to].focus();
}

/**
 * The WAI-ARIA tabs pattern for a page whose sections live in the URL, with only the selected
 * panel mounted: arrow keys, Home and End move focus along the tabs, Enter or Space selects
 * (manual activation: each section loads its own data). The community page uses it instead of
 * Radix Tabs, which would add about 10 KB (gzip) to the page's first load
 * (docs/decisions/0009-web-bundle-budget.md).
 */
export function TabBar<T extends string>({
  id,
  label,
  items,
  current,
  onSelect,
  className,
  ref,
}: {
  id: string;
  label: string;
  items: readonly TabBarItem<T>[];
  current: T;
  onSelect: (tab: T) => void;
  className?: string;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <div
      ref={ref}
      role="tablist"
      aria-label={label}
      aria-orientation="horizontal"
      onKeyDown={moveFocus}
      className={className}
    >
      {items.map((item) => {
        const selected = item.id === current;
        return (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={tabId(id, item.id)}
            aria-selected={selected}
            aria-controls={selected ? `${id}-panel` : undefined}
            data-state={selected ? "active" : "inactive"}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(item.id)}
            className={tabTriggerClasses()}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}
