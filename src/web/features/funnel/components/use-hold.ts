import { type FocusEvent, useState } from "react";

/**
 * Whether the pointer is over an element or the keyboard is inside it: moving content holds
 * still then (WCAG 2.2.2). A mouse click's focus does not count, so clicking a control does not
 * freeze the slides until the next click elsewhere. Spread `holdProps` on the element.
 */
export function useHold() {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const holdProps = {
    onMouseEnter: () => setHovered(true),
    onMouseLeave: () => setHovered(false),
    onFocus: (event: FocusEvent<HTMLElement>) => setFocused(event.target.matches(":focus-visible")),
    onBlur: (event: FocusEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
    },
  };
  return { held: hovered || focused, holdProps };
}
