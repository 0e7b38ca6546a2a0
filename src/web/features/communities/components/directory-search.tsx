import { Search, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { COMMUNITY_LIMITS } from "#shared/communities";
import { cn } from "#web/lib/cn";
import { inputClasses } from "#web/components/ui/field";

const DEBOUNCE_MS = 300;

/**
 * The directory's keyword box. Typing commits after a pause (Enter at once); `value` is the
 * committed term (the URL's ?q=), and a change to it from outside (back button, a link) replaces
 * what is in the box.
 */
export function DirectorySearch({ value, onCommit }: { value: string; onCommit: (q: string) => void }) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value.trim() !== draft.trim()) setDraft(value);
  }

  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const commitLater = (next: string) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => onCommit(next.trim()), DEBOUNCE_MS);
  };
  const commitNow = (next: string) => {
    window.clearTimeout(timer.current);
    onCommit(next.trim());
  };

  return (
    <form
      role="search"
      className="relative mx-auto w-full max-w-xl"
      onSubmit={(event) => {
        event.preventDefault();
        commitNow(draft);
      }}
    >
      <label htmlFor="directory-search" className="sr-only">
        Search communities
      </label>
      <Search
        className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-stone-500"
        aria-hidden="true"
      />
      <input
        ref={input}
        id="directory-search"
        type="search"
        value={draft}
        maxLength={COMMUNITY_LIMITS.searchMax}
        placeholder="Search communities"
        autoComplete="off"
        enterKeyHint="search"
        onChange={(event) => {
          setDraft(event.target.value);
          commitLater(event.target.value);
        }}
        className={cn(
          inputClasses,
          "h-12 rounded-xl pr-12 pl-12 text-base shadow-sm [&::-webkit-search-cancel-button]:appearance-none",
        )}
      />
      {draft && (
        <button
          type="button"
          aria-label="Clear search"
          className="absolute top-1/2 right-2 flex size-8 -translate-y-1/2 cursor-pointer items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 hover:text-stone-800"
          onClick={() => {
            setDraft("");
            commitNow("");
            input.current?.focus();
          }}
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      )}
    </form>
  );
}
