import { startTransition, useEffect, useState } from "react";

/**
 * True once the browser has been idle after the page came (at most a second later). What it brings
 * in renders as a transition: React yields to a click or a keystroke while it draws it.
 */
export function useIdle() {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const becomeIdle = () => startTransition(() => setIdle(true));
    if (typeof requestIdleCallback === "function") {
      const id = requestIdleCallback(becomeIdle, { timeout: 1000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(becomeIdle, 200);
    return () => clearTimeout(id);
  }, []);
  return idle;
}
