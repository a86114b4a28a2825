// Images in a tool result, counted as a model receives them (docs/analytics.md "Token"): not as
// their base64 text (bytes ÷ 4 of that text counted a 1 KB icon as ~340 tokens and a photo as tens
// of thousands) but as image input, which vendors size by the picture's pixels. The rule used is
// Anthropic's published one, since the default model is Claude: the image is first scaled to fit
// 1568 px on its long edge and ~1.15 megapixels, then costs ⌈width × height / 750⌉ tokens. Pixels
// come from the image's own header (PNG, JPEG, GIF, WebP); an image whose size cannot be read
// counts as the largest the rule allows (1,600 tokens), an upper bound rather than nothing.

const MAX_EDGE = 1568;
const MAX_PIXELS = 1_150_000;
const PIXELS_PER_TOKEN = 750;
export const UNKNOWN_IMAGE_TOKENS = 1_600;

/** Tokens of an image of `width` × `height` pixels as the model receives it. */
export function imageTokensForSize(width: number, height: number): number {
  if (!(width > 0 && height > 0)) return UNKNOWN_IMAGE_TOKENS;
  let scale = Math.min(1, MAX_EDGE / Math.max(width, height));
  scale = Math.min(scale, Math.sqrt(MAX_PIXELS / (width * height)));
  const w = Math.max(1, Math.floor(width * scale));
  const h = Math.max(1, Math.floor(height * scale));
  return Math.ceil((w * h) / PIXELS_PER_TOKEN);
}

/** Width and height from the first bytes of a PNG, GIF, WebP or JPEG; null when not recognised. */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF') {
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (bytes.length >= 30 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    const chunk = bytes.toString('latin1', 12, 16);
    if (chunk === 'VP8X') return { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
    if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = bytes.readUInt32LE(21);
      return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
    }
    return null;
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    // JPEG: walk the segments to a start-of-frame marker (C0–CF, but not C4, C8, CC).
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1];
      const length = bytes.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { width: bytes.readUInt16BE(i + 7), height: bytes.readUInt16BE(i + 5) };
      i += 2 + length;
    }
  }
  return null;
}

/** Only the first bytes of an image are decoded: the header holds the size. */
const HEADER_BASE64_CHARS = 64 * 1024;

/**
 * Tokens of the images of a result's content (image blocks, and embedded resources whose blob is
 * an image). Audio and other binary blobs add none: models take audio as seconds of sound (priced
 * per second, not per token), and MCP clients do not hand a non-image blob to the model.
 */
export function resultImageTokens(result: unknown): number {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return 0;
  let tokens = 0;
  for (const item of content as unknown[]) {
    if (!item || typeof item !== 'object') continue;
    const block = item as { type?: unknown; data?: unknown; resource?: { blob?: unknown; mimeType?: unknown } };
    let data: unknown;
    if (block.type === 'image') data = block.data;
    else if (
      block.type === 'resource' &&
      block.resource &&
      typeof block.resource.mimeType === 'string' &&
      block.resource.mimeType.startsWith('image/')
    )
      data = block.resource.blob;
    else continue;
    if (typeof data !== 'string') {
      tokens += UNKNOWN_IMAGE_TOKENS;
      continue;
    }
    const size = imageSize(Buffer.from(data.slice(0, HEADER_BASE64_CHARS), 'base64'));
    tokens += size ? imageTokensForSize(size.width, size.height) : UNKNOWN_IMAGE_TOKENS;
  }
  return tokens;
}
