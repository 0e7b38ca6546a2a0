import { useCallback, useEffect, useRef, useState } from "react";
import { LIMITS } from "#shared/limits";

/** A success message that vanishes after 3 s (SPEC §9). */
export function useFlashMessage(durationMs: number = LIMITS.successMessageMs) {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const show = useCallback(
    (text: string) => {
      window.clearTimeout(timer.current);
      setMessage(text);
      timer.current = window.setTimeout(() => setMessage(null), durationMs);
    },
    [durationMs],
  );
  const clear = useCallback(() => {
    window.clearTimeout(timer.current);
    setMessage(null);
  }, []);
  return { message, show, clear };
}
