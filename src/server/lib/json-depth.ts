/** How deep a request body's JSON may nest. Hearth's own bodies nest four levels at most. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a parsed JSON value nests deeper than `max` arrays and objects. Iterative, so a body of
 * 100,000 levels is refused here instead of overflowing the stack of whatever reads it next.
 */
export function jsonDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}
