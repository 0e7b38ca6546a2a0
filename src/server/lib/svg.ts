import createDOMPurify from "dompurify";
import { JSDOM } from "jsdom";
import { AppError } from "./errors";

let purifier: ReturnType<typeof createDOMPurify> | null = null;
function purify() {
  purifier ??= createDOMPurify(new JSDOM("").window as unknown as Window & typeof globalThis);
  return purifier;
}

/**
 * An uploaded SVG reduced to an allow-list of SVG elements and attributes: no script, no event
 * handlers, no foreignObject, no javascript: or external links. Media is also served with a
 * sandboxing CSP, so this is the second of two locks. Refuses anything whose root is not <svg>.
 */
export function sanitizeSvg(bytes: Buffer, notSvgMessage: string): Buffer {
  const text = bytes.toString("utf8");
  if (!/<svg[\s>]/i.test(text) || text.includes("\u0000")) throw new AppError("VALIDATION", notSvgMessage);
  const clean = purify().sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ["foreignObject", "use", "image", "a", "style"],
    FORBID_ATTR: ["href", "xlink:href"],
  });
  if (!/^\s*<svg[\s>]/i.test(clean)) throw new AppError("VALIDATION", notSvgMessage);
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${clean}`, "utf8");
}
