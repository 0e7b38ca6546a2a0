import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { SEARCH_LIMITS, SEARCH_MESSAGES } from "#shared/search";
import { SearchIcon } from "./search-icon";

/** Typing in a field, a text area or an editor: `/` is a character there, not the shortcut. */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/**
 * The search box of a page whose results follow ?q= (the community page, /search). What is typed
 * goes to the address after SEARCH_LIMITS.debounceMs of idle typing: starting a search adds a
 * history entry, refining it replaces that entry, so back and forward step between searches.
 * With `shortcut`, `/` anywhere else on the page focuses it. Kept small: the results load apart.
 */
export function SearchField({
  label,
  placeholder,
  shortcut,
  className,
}: {
  label: string;
  placeholder: string;
  shortcut?: boolean;
  className?: string;
}) {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const [value, setValue] = useState(q);
  // Back and forward: the field follows the address.
  const [shown, setShown] = useState(q);
  if (q !== shown) {
    setShown(q);
    setValue(q);
  }
  const input = useRef<HTMLInputElement>(null);

  const apply = (next: string) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (next.trim()) p.set("q", next);
        else p.delete("q");
        return p;
      },
      { replace: Boolean(q.trim() && next.trim()), preventScrollReset: true },
    );

  useEffect(() => {
    if (value === q) return;
    const timer = setTimeout(() => apply(value), SEARCH_LIMITS.debounceMs);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only typing starts the timer
  }, [value]);

  useEffect(() => {
    if (!shortcut) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      event.preventDefault();
      input.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [shortcut]);

  return (
    <form
      role="search"
      aria-label={label}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        if (value !== q) apply(value);
      }}
    >
      <label className="relative block">
        <span className="sr-only">{label}</span>
        <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-500" />
        <input
          ref={input}
          type="search"
          name="q"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          placeholder={placeholder}
          maxLength={SEARCH_LIMITS.queryAcceptMax}
          autoComplete="off"
          aria-keyshortcuts={shortcut ? "/" : undefined}
          className="h-10 w-full rounded-xl border border-stone-300 bg-white pr-3 pl-9 text-sm text-stone-900 placeholder:text-stone-500 hover:border-stone-400 focus:border-brand-700 focus:ring-3 focus:ring-brand-600/25 focus:outline-none"
        />
        {shortcut && !value && (
          <kbd
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 right-2.5 hidden -translate-y-1/2 rounded border border-stone-300 px-1.5 text-xs text-stone-500 sm:block"
          >
            /
          </kbd>
        )}
      </label>
    </form>
  );
}

/** The community page's box, with `/` to focus it (loaded once the page is idle). */
export function CommunitySearchField({ className }: { className?: string }) {
  return (
    <SearchField
      label={SEARCH_MESSAGES.placeholder}
      placeholder={SEARCH_MESSAGES.placeholder}
      shortcut
      className={className}
    />
  );
}
