import sharp from "sharp";
import { IMAGE_VARIANTS } from "#shared/limits";
import { AppError } from "./errors";

/** Far below sharp's 268 MP default: a "pixel flood" header is refused before any decode. */
export const MAX_INPUT_PIXELS = 50_000_000;
const MAX_FRAMES = 200;

sharp.concurrency(1);
sharp.cache(false);

let active = 0;
const waiting: (() => void)[] = [];
const POOL_SIZE = 2;

/** Bounded pool: at most two decodes at a time in this process. */
async function withSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (active >= POOL_SIZE) await new Promise<void>((resolve) => waiting.push(resolve));
  active++;
  try {
    return await fn();
  } finally {
    active--;
    waiting.shift()?.();
  }
}

export type ImageInfo = { format: "jpeg" | "png" | "webp" | "gif"; width: number; height: number };

/** Decides the type from the bytes (sharp reads the header), never from the name or declared MIME type. */
export async function inspectImage(buffer: Buffer, notImageMessage: string): Promise<ImageInfo> {
  if (buffer.length === 0) throw new AppError("VALIDATION", notImageMessage);
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(buffer, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError("VALIDATION", notImageMessage);
  }
  const format = meta.format as string;
  if (!["jpeg", "png", "webp", "gif"].includes(format) || !meta.width || !meta.height) {
    throw new AppError("VALIDATION", notImageMessage);
  }
  if (meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw new AppError("VALIDATION", "Image dimensions are too large");
  }
  if ((meta.pages ?? 1) > MAX_FRAMES) throw new AppError("VALIDATION", "Image has too many frames");
  return { format: format as ImageInfo["format"], width: meta.width, height: meta.height };
}

export type ImageVariants = { original: Buffer; medium: Buffer; thumbnail: Buffer };

/**
 * Decodes and re-encodes (metadata stripped) into the spec's variants: the original capped at the
 * "large" size, medium and thumbnail. Everything is WebP. Animated input keeps its first frame.
 */
export async function renderVariants(buffer: Buffer, notImageMessage: string): Promise<ImageVariants> {
  // The header was checked by inspectImage before the bytes were kept; the pixel cap stays on the decode.
  return withSlot(async () => {
    try {
      const { large, medium, thumbnail } = IMAGE_VARIANTS;
      // Decoded once, to at most the large size; the three encodes start from those pixels.
      const { data, info } = await sharp(buffer, {
        limitInputPixels: MAX_INPUT_PIXELS,
        failOn: "error",
        animated: false,
      })
        .rotate()
        .resize(large.width, large.height, { fit: "inside", withoutEnlargement: true })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const pixels = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
      const [original, mediumBuf, thumbBuf] = await Promise.all([
        pixels().webp({ quality: large.quality }).toBuffer(),
        pixels()
          .resize(medium.width, medium.height, { fit: "inside", withoutEnlargement: true })
          .webp({ quality: medium.quality })
          .toBuffer(),
        pixels()
          .resize(thumbnail.width, thumbnail.height, { fit: "cover" })
          .webp({ quality: thumbnail.quality })
          .toBuffer(),
      ]);
      return { original, medium: mediumBuf, thumbnail: thumbBuf };
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError("VALIDATION", notImageMessage);
    }
  });
}
