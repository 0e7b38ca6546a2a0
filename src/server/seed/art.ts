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

// ---------------------------------------------------------------------------------------------
// Post pictures: a handful of 1200x900 illustrations for the demo's image posts.

export type PostPicture = "painting" | "bars" | "line" | "photo" | "bowl" | "abstract";

export const POST_PICTURE_SIZE = { width: 1200, height: 900 } as const;

function paintingShapes(hue: number, rand: () => number): string {
  const { width: W, height: H } = POST_PICTURE_SIZE;
  const sky = [hslToHex(hue, 70, 86), hslToHex(hue + 30, 60, 70)];
  const parts = [
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="#fbf8f1"/>`,
    `<rect x="40" y="40" width="${W - 80}" height="${H - 80}" fill="url(#sky)" opacity="0.9"/>`,
    `<circle cx="${r1(250 + rand() * 700)}" cy="${r1(170 + rand() * 120)}" r="${r1(60 + rand() * 40)}" fill="${hslToHex(hue + 180, 80, 72)}" fill-opacity="0.7"/>`,
  ];
  // Washes: translucent hills laid over each other, darker towards the front.
  for (let layer = 0; layer < 4; layer++) {
    const base = 430 + layer * 110;
    const pts: string[] = [`40,${H - 40}`];
    for (let x = 40; x <= W - 40; x += 80) pts.push(`${x},${r1(base - rand() * (120 - layer * 20))}`);
    pts.push(`${W - 40},${H - 40}`);
    const colour = hslToHex(hue + 60 + layer * 25, 45 + layer * 8, 62 - layer * 10);
    parts.push(`<polygon points="${pts.join(" ")}" fill="${colour}" fill-opacity="${0.45 + layer * 0.12}"/>`);
  }
  // A few blooms and drips.
  for (let i = 0; i < 14; i++) {
    parts.push(
      `<ellipse cx="${r1(60 + rand() * (W - 120))}" cy="${r1(60 + rand() * (H - 120))}" rx="${r1(8 + rand() * 30)}" ry="${r1(6 + rand() * 22)}" fill="${hslToHex(hue + rand() * 120, 60, 55)}" fill-opacity="${r1(0.08 + rand() * 0.2)}"/>`,
    );
  }
  return parts.join("");
}

function chartShapes(kind: "bars" | "line", hue: number, rand: () => number): string {
  const { width: W, height: H } = POST_PICTURE_SIZE;
  const accent = hslToHex(hue, 75, 52);
  const soft = hslToHex(hue, 70, 90);
  const parts = [
    `<rect width="${W}" height="${H}" fill="#f5f5f4"/>`,
    `<rect x="60" y="60" width="${W - 120}" height="${H - 120}" rx="28" fill="#ffffff"/>`,
    `<rect x="110" y="110" width="220" height="26" rx="13" fill="#d6d3d1"/>`,
    `<rect x="110" y="150" width="140" height="18" rx="9" fill="#e7e5e4"/>`,
  ];
  const left = 130;
  const right = W - 130;
  const top = 230;
  const bottom = H - 150;
  for (let i = 0; i <= 4; i++) {
    const y = r1(top + ((bottom - top) / 4) * i);
    parts.push(`<line x1="${left}" y1="${y}" x2="${right}" y2="${y}" stroke="#e7e5e4" stroke-width="2"/>`);
  }
  const n = kind === "bars" ? 12 : 30;
  const values: number[] = [];
  let v = 0.12 + rand() * 0.08;
  for (let i = 0; i < n; i++) {
    v = Math.min(0.97, v + (rand() * 0.09 - 0.015) * (kind === "bars" ? 1.4 : 1));
    values.push(v);
  }
  const step = (right - left) / n;
  if (kind === "bars") {
    values.forEach((value, i) => {
      const h = (bottom - top) * value;
      parts.push(
        `<rect x="${r1(left + i * step + step * 0.18)}" y="${r1(bottom - h)}" width="${r1(step * 0.64)}" height="${r1(h)}" rx="8" fill="${i === n - 1 ? accent : soft}"/>`,
      );
    });
  } else {
    const pts = values.map((value, i) => `${r1(left + i * step + step / 2)},${r1(bottom - (bottom - top) * value)}`);
    parts.push(
      `<polygon points="${r1(left + step / 2)},${bottom} ${pts.join(" ")} ${r1(left + (n - 0.5) * step)},${bottom}" fill="${soft}"/>`,
      `<polyline points="${pts.join(" ")}" fill="none" stroke="${accent}" stroke-width="7" stroke-linejoin="round" stroke-linecap="round"/>`,
      `<circle cx="${pts.at(-1)!.split(",")[0]}" cy="${pts.at(-1)!.split(",")[1]}" r="14" fill="${accent}"/>`,
    );
  }
  return parts.join("");
}

function photoShapes(hue: number, rand: () => number): string {
  const { width: W, height: H } = POST_PICTURE_SIZE;
  const horizon = 520;
  const ridge = (base: number, jag: number) => {
    const pts: string[] = [`0,${horizon}`];
    for (let x = 0; x <= W; x += 60) pts.push(`${x},${r1(base - rand() * jag)}`);
    pts.push(`${W},${horizon}`);
    return pts.join(" ");
  };
  const far = ridge(410, 130);
  const near = ridge(480, 60);
  return [
    `<defs>`,
    `<linearGradient id="dusk" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hslToHex(hue + 200, 45, 42)}"/><stop offset="0.7" stop-color="${hslToHex(hue, 80, 72)}"/><stop offset="1" stop-color="${hslToHex(hue + 15, 90, 82)}"/></linearGradient>`,
    `<radialGradient id="vignette" cx="0.5" cy="0.5" r="0.75"><stop offset="0.6" stop-color="#000000" stop-opacity="0"/><stop offset="1" stop-color="#000000" stop-opacity="0.45"/></radialGradient>`,
    `</defs>`,
    `<rect width="${W}" height="${H}" fill="url(#dusk)"/>`,
    `<circle cx="${r1(300 + rand() * 600)}" cy="${horizon - 160}" r="56" fill="#fff4d6" fill-opacity="0.85"/>`,
    `<polygon points="${far}" fill="${hslToHex(hue + 220, 25, 38)}" fill-opacity="0.85"/>`,
    `<polygon points="${near}" fill="${hslToHex(hue + 210, 30, 24)}"/>`,
    `<rect y="${horizon}" width="${W}" height="${H - horizon}" fill="${hslToHex(hue + 200, 35, 30)}"/>`,
    // The reflection: the ridges flipped below the waterline, faded.
    `<g transform="translate(0 ${horizon * 2}) scale(1 -1)" opacity="0.35"><polygon points="${far}" fill="${hslToHex(hue + 220, 25, 50)}"/><polygon points="${near}" fill="${hslToHex(hue + 210, 30, 36)}"/></g>`,
    ...Array.from(
      { length: 10 },
      (_, i) =>
        `<rect x="${r1(rand() * W)}" y="${r1(horizon + 20 + i * 36)}" width="${r1(80 + rand() * 240)}" height="3" fill="#ffffff" fill-opacity="0.18"/>`,
    ),
    `<rect width="${W}" height="${H}" fill="url(#vignette)"/>`,
  ].join("");
}

function bowlShapes(hue: number, rand: () => number): string {
  const { width: W, height: H } = POST_PICTURE_SIZE;
  const cx = W / 2;
  const cy = H / 2;
  const foods = [
    [hslToHex(hue + 100, 55, 45), 34], // greens
    [hslToHex(hue + 20, 85, 60), 26], // sweet potato
    [hslToHex(hue + 50, 75, 62), 22], // chickpeas
    [hslToHex(hue - 20, 70, 45), 18], // beans
    [hslToHex(hue + 150, 45, 70), 20], // edamame
  ] as const;
  const parts = [
    `<rect width="${W}" height="${H}" fill="${hslToHex(hue + 30, 25, 84)}"/>`,
    `<circle cx="${cx + 18}" cy="${cy + 22}" r="330" fill="#000000" fill-opacity="0.12"/>`,
    `<circle cx="${cx}" cy="${cy}" r="330" fill="#fafaf9"/>`,
    `<circle cx="${cx}" cy="${cy}" r="285" fill="${hslToHex(hue + 40, 30, 92)}"/>`,
  ];
  foods.forEach(([colour, size], sector) => {
    const from = (sector / foods.length) * Math.PI * 2;
    for (let i = 0; i < 22; i++) {
      const a = from + rand() * ((Math.PI * 2) / foods.length);
      const d = 40 + rand() * 210;
      parts.push(
        `<ellipse cx="${r1(cx + Math.cos(a) * d)}" cy="${r1(cy + Math.sin(a) * d)}" rx="${r1(size * (0.7 + rand() * 0.5))}" ry="${r1(size * (0.5 + rand() * 0.4))}" transform="rotate(${Math.round(rand() * 180)} ${r1(cx + Math.cos(a) * d)} ${r1(cy + Math.sin(a) * d)})" fill="${colour}"/>`,
      );
    }
  });
  for (let i = 0; i < 40; i++) {
    parts.push(
      `<circle cx="${r1(cx - 200 + rand() * 400)}" cy="${r1(cy - 200 + rand() * 400)}" r="4" fill="#44403c" fill-opacity="0.6"/>`,
    );
  }
  parts.push(`<rect x="${W - 190}" y="120" width="26" height="660" rx="13" fill="#a8a29e"/>`);
  return parts.join("");
}

function abstractShapes(hue: number, rand: () => number): string {
  const { width: W, height: H } = POST_PICTURE_SIZE;
  const parts = [`<rect width="${W}" height="${H}" fill="#f3efe6"/>`];
  for (let i = 0; i < 9; i++) {
    const colour = hslToHex(hue + rand() * 90 - 45, 55 + rand() * 30, 35 + rand() * 40);
    const x = r1(80 + rand() * (W - 360));
    const y = r1(80 + rand() * (H - 360));
    const s = r1(120 + rand() * 220);
    parts.push(
      i % 3 === 0
        ? `<circle cx="${x + s / 2}" cy="${y + s / 2}" r="${r1(s / 2)}" fill="${colour}" fill-opacity="0.85"/>`
        : i % 3 === 1
          ? `<rect x="${x}" y="${y}" width="${s}" height="${r1(s * 0.6)}" fill="${colour}" fill-opacity="0.8"/>`
          : `<path d="M${x} ${y + s} Q ${r1(x + s / 2)} ${r1(y - s / 3)} ${x + s} ${y + s} Z" fill="${colour}" fill-opacity="0.75"/>`,
    );
  }
  parts.push(
    `<path d="M80 ${H - 140} C 360 ${H - 260}, 700 ${H - 40}, ${W - 80} ${H - 200}" fill="none" stroke="#1c1917" stroke-width="6" stroke-linecap="round"/>`,
  );
  return parts.join("");
}

/** A demo post picture as SVG: plain shapes and gradients only, deterministic for a seed. */
export function postPictureSvg(input: { kind: PostPicture; hue: number; seed: number }): string {
  const { width: W, height: H } = POST_PICTURE_SIZE;
  const rand = prng(input.seed);
  const body =
    input.kind === "painting"
      ? paintingShapes(input.hue, rand)
      : input.kind === "bars" || input.kind === "line"
        ? chartShapes(input.kind, input.hue, rand)
        : input.kind === "photo"
          ? photoShapes(input.hue, rand)
          : input.kind === "bowl"
            ? bowlShapes(input.hue, rand)
            : abstractShapes(input.hue, rand);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${body}</svg>`;
}

export type PictureVariants = { original: Buffer; medium: Buffer; thumbnail: Buffer };

/**
 * The variants an upload gets (original, medium within 800x800, 200x200 thumbnail), all WebP,
 * from one rasterised SVG. Opaque, and the fastest encoder effort: about 35 ms of CPU a picture
 * (effort 2 with alpha took 55) for files a little larger, which nobody notices at these sizes.
 */
export async function renderPostPicture(svg: string): Promise<PictureVariants> {
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const raw = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const [original, medium, thumbnail] = await Promise.all([
    raw().webp({ quality: 80, effort: 0 }).toBuffer(),
    raw().resize(800, 800, { fit: "inside" }).webp({ quality: 80, effort: 0 }).toBuffer(),
    raw().resize(200, 200, { fit: "cover" }).webp({ quality: 75, effort: 0 }).toBuffer(),
  ]);
  return { original, medium, thumbnail };
}
