import sharp from "sharp";

/**
 * Demo artwork written as code, so nothing binary lives in git: a square SVG icon (gradient tile,
 * a geometric motif, the community's initial) and a 1084x576 cover rendered from an SVG pattern to
 * WebP at seed time. Only plain shapes and internal gradients: no script, no <style>, no links.
 */

export type Motif = "ring" | "diamond" | "triangle" | "hexagon" | "arcs" | "dots";
export type CoverPattern = "orbs" | "waves" | "stripes" | "grid" | "rings" | "peaks";
export type Palette = { from: string; to: string; accent: string };

export const COVER_SIZE = { width: 1084, height: 576 } as const;

function hslToHex(h: number, s: number, l: number): string {
  const hue = ((h % 360) + 360) % 360;
  const sat = s / 100;
  const light = l / 100;
  const k = (n: number) => (n + hue / 30) % 12;
  const a = sat * Math.min(light, 1 - light);
  const f = (n: number) => light - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return `#${[f(0), f(8), f(4)]
    .map((v) =>
      Math.round(v * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** Two related colours and an accent from one hue: every community gets its own look. */
export function paletteFor(hue: number): Palette {
  // Yellows and limes are light at any saturation: a little darker, so the white initial stays readable.
  const light = hue % 360 >= 40 && hue % 360 <= 100 ? 46 : 56;
  return { from: hslToHex(hue, 72, light), to: hslToHex(hue + 38, 68, 34), accent: hslToHex(hue - 28, 85, 72) };
}

/** Small deterministic generator (mulberry32): the same seed draws the same artwork every time. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const r1 = (n: number) => Math.round(n * 10) / 10;

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

function motifShapes(motif: Motif): string {
  const fill = `fill="#ffffff" fill-opacity="0.16"`;
  switch (motif) {
    case "ring":
      return `<circle cx="128" cy="128" r="88" fill="none" stroke="#ffffff" stroke-opacity="0.22" stroke-width="18"/>`;
    case "diamond":
      return `<path d="M128 28 L228 128 L128 228 L28 128 Z" ${fill}/>`;
    case "triangle":
      return `<path d="M128 30 L232 212 L24 212 Z" ${fill}/>`;
    case "hexagon": {
      const pts = Array.from({ length: 6 }, (_, i) => {
        const a = (Math.PI / 3) * i - Math.PI / 2;
        return `${r1(128 + 100 * Math.cos(a))},${r1(128 + 100 * Math.sin(a))}`;
      }).join(" ");
      return `<polygon points="${pts}" ${fill}/>`;
    }
    case "arcs":
      return [150, 110, 70]
        .map(
          (r, i) =>
            `<circle cx="0" cy="256" r="${r}" fill="none" stroke="#ffffff" stroke-opacity="${0.12 + i * 0.06}" stroke-width="14"/>`,
        )
        .join("");
    case "dots":
      return Array.from({ length: 16 }, (_, i) => {
        const x = 44 + (i % 4) * 56;
        const y = 44 + Math.floor(i / 4) * 56;
        return `<circle cx="${x}" cy="${y}" r="9" ${fill}/>`;
      }).join("");
  }
}

/** A square icon: rounded gradient tile, a faint motif, and the initial in white. */
export function iconSvg(input: { name: string; palette: Palette; motif: Motif }): string {
  const initial = escapeXml((input.name.match(/[A-Za-z0-9]/)?.[0] ?? "H").toUpperCase());
  const { from, to, accent } = input.palette;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">`,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">`,
    `<stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>`,
    `</linearGradient></defs>`,
    `<rect width="256" height="256" rx="56" fill="url(#g)"/>`,
    motifShapes(input.motif),
    `<circle cx="204" cy="52" r="14" fill="${accent}"/>`,
    `<text x="128" y="128" dy="0.35em" text-anchor="middle" font-family="Inter, system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" font-size="124" font-weight="700" fill="#ffffff">${initial}</text>`,
    `</svg>`,
  ].join("");
}

function patternShapes(pattern: CoverPattern, palette: Palette, rand: () => number): string {
  const { width: W, height: H } = COVER_SIZE;
  const white = (o: number) => `fill="#ffffff" fill-opacity="${r1(o * 100) / 100}"`;
  switch (pattern) {
    case "orbs":
      return Array.from({ length: 9 }, () => {
        const r = 60 + rand() * 220;
        return `<circle cx="${r1(rand() * W)}" cy="${r1(rand() * H)}" r="${r1(r)}" ${white(0.06 + rand() * 0.14)}/>`;
      }).join("");
    case "waves":
      return Array.from({ length: 5 }, (_, i) => {
        const y = 180 + i * 90;
        const amp = 30 + rand() * 50;
        const d = `M0 ${y} C ${W * 0.25} ${r1(y - amp)}, ${W * 0.5} ${r1(y + amp)}, ${W * 0.75} ${y} S ${W} ${r1(y - amp)}, ${W} ${y} L ${W} ${H} L 0 ${H} Z`;
        return `<path d="${d}" ${white(0.07 + i * 0.02)}/>`;
      }).join("");
    case "stripes":
      return Array.from({ length: 12 }, (_, i) => {
        const x = -H + i * 150 + rand() * 40;
        const w = 30 + rand() * 60;
        return `<path d="M${r1(x)} ${H} L${r1(x + H)} 0 L${r1(x + H + w)} 0 L${r1(x + w)} ${H} Z" ${white(0.05 + rand() * 0.1)}/>`;
      }).join("");
    case "grid": {
      const cells: string[] = [];
      for (let y = 36; y < H; y += 72) {
        for (let x = 36; x < W; x += 72) {
          const r = 4 + rand() * 10;
          cells.push(`<circle cx="${x}" cy="${y}" r="${r1(r)}" ${white(0.1 + rand() * 0.2)}/>`);
        }
      }
      return cells.join("");
    }
    case "rings": {
      const cx = r1(W * (0.6 + rand() * 0.3));
      const cy = r1(H * (0.3 + rand() * 0.4));
      return Array.from(
        { length: 8 },
        (_, i) =>
          `<circle cx="${cx}" cy="${cy}" r="${60 + i * 70}" fill="none" stroke="#ffffff" stroke-opacity="${r1(22 - i * 2) / 100}" stroke-width="${18 - i}"/>`,
      ).join("");
    }
    case "peaks":
      return [0.55, 0.68, 0.8]
        .map((base, i) => {
          const pts: string[] = [`0,${H}`];
          for (let x = 0; x <= W; x += W / 6) pts.push(`${r1(x)},${r1(H * base - rand() * 160)}`);
          pts.push(`${W},${H}`);
          const fill = i === 2 ? `fill="${palette.to}" fill-opacity="0.55"` : white(0.08 + i * 0.05);
          return `<polygon points="${pts.join(" ")}" ${fill}/>`;
        })
        .join("");
  }
}

/** The cover as SVG (gradient background, a pattern, a soft accent glow). Deterministic for a seed. */
export function coverSvg(input: { palette: Palette; pattern: CoverPattern; seed: number }): string {
  const { width: W, height: H } = COVER_SIZE;
  const { from, to, accent } = input.palette;
  const rand = prng(input.seed);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
    `<defs>`,
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>`,
    `<radialGradient id="glow" cx="0.2" cy="0.25" r="0.6"><stop offset="0" stop-color="${accent}" stop-opacity="0.55"/><stop offset="1" stop-color="${accent}" stop-opacity="0"/></radialGradient>`,
    `</defs>`,
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>`,
    `<rect width="${W}" height="${H}" fill="url(#glow)"/>`,
    patternShapes(input.pattern, input.palette, rand),
    `</svg>`,
  ].join("");
}

/** Renders a cover SVG (its own size, 1084x576) to WebP. Low encoder effort: gradients compress well anyway. */
export function renderCover(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).webp({ quality: 80, effort: 2 }).toBuffer();
}
