/**
 * Fits images into what providers accept inline: at most 2000×2000 pixels and under 4.5MB of
 * base64 (headroom below Anthropic's 5MB). Uses photon (Rust compiled to WebAssembly, the
 * codec the reference uses, so output bytes match it). Photon is imported only when an image
 * actually needs resizing; images already within limits are measured from their headers.
 *
 * @module
 */
import type * as PhotonModule from "npm:@silvia-odwyer/photon-node@0.3.4";
import { fromBase64, toBase64 } from "../util/bytes.ts";
import { getExifOrientation, orientationSwapsAxes } from "./image_exif.ts";
import { readImageSize } from "./image_dimensions.ts";

type Photon = typeof PhotonModule;
type PhotonImage = PhotonModule.PhotonImage;

/** Limits for {@link resizeImage}. */
export interface ImageResizeOptions {
  /** Widest allowed, in pixels. */
  maxWidth?: number;
  /** Tallest allowed, in pixels. */
  maxHeight?: number;
  /** Upper bound (exclusive) for the base64 payload length. */
  maxBytes?: number;
  /** First JPEG quality tried. */
  jpegQuality?: number;
}

/** A base64 image that fits the limits, with its original and displayed sizes. */
export interface ResizedImage {
  /** Base64 data of the image sent. */
  data: string;
  /** Its MIME type. */
  mimeType: string;
  /** Width before resizing. */
  originalWidth: number;
  /** Height before resizing. */
  originalHeight: number;
  /** Width after resizing. */
  width: number;
  /** Height after resizing. */
  height: number;
  /** Whether it was resized. */
  wasResized: boolean;
}

const DEFAULTS: Required<ImageResizeOptions> = {
  maxWidth: 2000,
  maxHeight: 2000,
  maxBytes: 4.5 * 1024 * 1024,
  jpegQuality: 80,
};

let photonPromise: Promise<Photon | null> | undefined;

/** Loads the WebAssembly codec once; null if it cannot be loaded (then images are omitted). */
function loadPhoton(): Promise<Photon | null> {
  photonPromise ??= import("npm:@silvia-odwyer/photon-node@0.3.4")
    .then((mod) => ((mod as unknown as { default?: Photon }).default ?? mod) as Photon)
    .catch(() => null);
  return photonPromise;
}

/**
 * Re-encodes an image type models do not take inline (BMP) as PNG, upright per its EXIF
 * orientation; null when it cannot be decoded.
 */
export async function convertImageToPng(bytes: Uint8Array): Promise<Uint8Array | null> {
  const photon = await loadPhoton();
  if (!photon) return null;
  try {
    const image = uprightImage(
      photon,
      photon.PhotonImage.new_from_byteslice(bytes),
      getExifOrientation(bytes),
    );
    try {
      return new Uint8Array(image.get_bytes());
    } finally {
      image.free();
    }
  } catch {
    return null;
  }
}

function base64Length(byteLength: number): number {
  return Math.ceil(byteLength / 3) * 4;
}

/** A quarter turn via raw pixels; `target` maps a source pixel to its index in the rotated image. */
function rotate(
  photon: Photon,
  image: PhotonImage,
  target: (x: number, y: number, w: number, h: number) => number,
): PhotonImage {
  const w = image.get_width();
  const h = image.get_height();
  const src = image.get_raw_pixels();
  const dst = new Uint8Array(src.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const from = (y * w + x) * 4;
      const to = target(x, y, w, h) * 4;
      dst[to] = src[from];
      dst[to + 1] = src[from + 1];
      dst[to + 2] = src[from + 2];
      dst[to + 3] = src[from + 3];
    }
  }
  return new photon.PhotonImage(dst, h, w);
}

/** Returns an upright image; may return `image` itself (flipped in place) or a new one. */
function uprightImage(photon: Photon, image: PhotonImage, orientation: number): PhotonImage {
  const clockwise = (x: number, y: number, _w: number, h: number) => x * h + (h - 1 - y);
  const counter = (x: number, y: number, w: number, h: number) => (w - 1 - x) * h + y;
  switch (orientation) {
    case 2:
      photon.fliph(image);
      return image;
    case 3:
      photon.fliph(image);
      photon.flipv(image);
      return image;
    case 4:
      photon.flipv(image);
      return image;
    case 5:
    case 7: {
      const rotated = rotate(photon, image, orientation === 5 ? clockwise : counter);
      photon.fliph(rotated);
      return rotated;
    }
    case 6:
      return rotate(photon, image, clockwise);
    case 8:
      return rotate(photon, image, counter);
    default:
      return image;
  }
}

/**
 * Fits a base64 image within the limits. Already-fitting images come back untouched. Others
 * are scaled (Lanczos3) to fit the box, then PNG and JPEG at falling qualities are tried, and
 * the size shrinks by a quarter per round until something fits. Null when nothing fits or the
 * image cannot be decoded.
 */
export async function resizeImage(
  img: { data: string; mimeType?: string },
  options?: ImageResizeOptions,
): Promise<ResizedImage | null> {
  const opts = { ...DEFAULTS, ...options };
  const input = fromBase64(img.data);
  const inputBase64Size = img.data.length;
  const format = img.mimeType?.split("/")[1] ?? "png";

  const stored = readImageSize(input, img.mimeType ?? `image/${format}`);
  if (stored) {
    const swap = orientationSwapsAxes(getExifOrientation(input));
    const width = swap ? stored.height : stored.width;
    const height = swap ? stored.width : stored.height;
    if (width <= opts.maxWidth && height <= opts.maxHeight && inputBase64Size < opts.maxBytes) {
      return {
        data: img.data,
        mimeType: img.mimeType ?? `image/${format}`,
        originalWidth: width,
        originalHeight: height,
        width,
        height,
        wasResized: false,
      };
    }
  }

  const photon = await loadPhoton();
  if (!photon) return null;
  let image: PhotonImage | undefined;
  try {
    const decoded = photon.PhotonImage.new_from_byteslice(input);
    image = uprightImage(photon, decoded, getExifOrientation(input));
    if (image !== decoded) decoded.free();
    const originalWidth = image.get_width();
    const originalHeight = image.get_height();
    if (
      originalWidth <= opts.maxWidth && originalHeight <= opts.maxHeight && inputBase64Size < opts.maxBytes
    ) {
      return {
        data: img.data,
        mimeType: img.mimeType ?? `image/${format}`,
        originalWidth,
        originalHeight,
        width: originalWidth,
        height: originalHeight,
        wasResized: false,
      };
    }

    let width = originalWidth;
    let height = originalHeight;
    if (width > opts.maxWidth) {
      height = Math.round((height * opts.maxWidth) / width);
      width = opts.maxWidth;
    }
    if (height > opts.maxHeight) {
      width = Math.round((width * opts.maxHeight) / height);
      height = opts.maxHeight;
    }
    const qualities = [...new Set([opts.jpegQuality, 85, 70, 55, 40])];
    const source = image;
    const encodings = (w: number, h: number) => {
      const scaled = photon.resize(source, w, h, photon.SamplingFilter.Lanczos3);
      try {
        const list = [{ bytes: scaled.get_bytes(), mimeType: "image/png" }];
        for (const q of qualities) list.push({ bytes: scaled.get_bytes_jpeg(q), mimeType: "image/jpeg" });
        return list;
      } finally {
        scaled.free();
      }
    };

    while (true) {
      const [png, jpeg, ...lowerQualityJpegs] = encodings(width, height);
      // The smaller of PNG and the first JPEG first, then the lower JPEG qualities.
      const preferred = jpeg && jpeg.bytes.length < png.bytes.length ? [jpeg, png] : [png, jpeg];
      for (const candidate of [...preferred, ...lowerQualityJpegs]) {
        if (!candidate) continue;
        if (base64Length(candidate.bytes.length) < opts.maxBytes) {
          return {
            data: toBase64(candidate.bytes),
            mimeType: candidate.mimeType,
            originalWidth,
            originalHeight,
            width,
            height,
            wasResized: true,
          };
        }
      }
      if (width === 1 && height === 1) return null;
      const nextWidth = width === 1 ? 1 : Math.max(1, Math.floor(width * 0.75));
      const nextHeight = height === 1 ? 1 : Math.max(1, Math.floor(height * 0.75));
      if (nextWidth === width && nextHeight === height) return null;
      width = nextWidth;
      height = nextHeight;
    }
  } catch {
    return null;
  } finally {
    image?.free();
  }
}

/**
 * The note telling the model how displayed coordinates map back to the original image;
 * undefined when the image was not resized.
 */
export function formatDimensionNote(result: ResizedImage): string | undefined {
  if (!result.wasResized) return undefined;
  const scale = result.originalWidth / result.width;
  return `[Image: original ${result.originalWidth}x${result.originalHeight}, displayed at ${result.width}x${result.height}. Multiply coordinates by ${
    scale.toFixed(2)
  } to map to original image.]`;
}
