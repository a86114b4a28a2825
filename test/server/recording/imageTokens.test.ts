import {
  imageSize,
  imageTokensForSize,
  resultImageTokens,
  UNKNOWN_IMAGE_TOKENS,
} from '../../../src/server/recording/imageTokens';
import { resultTokens } from '../../../src/server/recording/tokenCounter';
import type { QueuedToolCall } from '../../../src/server/recording/rows';

// An image in a tool result is counted as the model receives it — by its pixels — not as the
// base64 text it travels in (docs/analytics.md "Token"): a 1 KB icon is not ~340 tokens of text.

function png(width: number, height: number, padding = 2_000): Buffer {
  const header = Buffer.alloc(24);
  header.writeUInt32BE(0x89504e47, 0);
  header.writeUInt32BE(0x0d0a1a0a, 4);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return Buffer.concat([header, Buffer.alloc(padding, 7)]);
}

function jpeg(width: number, height: number): Buffer {
  // SOI, an APP0 segment of 16 bytes, then SOF0 with height and width.
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.alloc(14)]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 3]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(64)]);
}

describe('image tokens', () => {
  it('reads the size from PNG, JPEG and GIF headers', () => {
    expect(imageSize(png(640, 480))).toEqual({ width: 640, height: 480 });
    expect(imageSize(jpeg(1024, 768))).toEqual({ width: 1024, height: 768 });
    const gif = Buffer.concat([
      Buffer.from('GIF89a', 'latin1'),
      Buffer.from([0x20, 0x00, 0x10, 0x00]),
      Buffer.alloc(8),
    ]);
    expect(imageSize(gif)).toEqual({ width: 32, height: 16 });
    expect(imageSize(Buffer.from('not an image'))).toBeNull();
  });

  it("follows the vendor's pixel rule: ⌈w·h/750⌉ after fitting 1568 px and ~1.15 MP", () => {
    expect(imageTokensForSize(200, 200)).toBe(54);
    expect(imageTokensForSize(1000, 1000)).toBe(1334);
    // A large photo is scaled down first: never more than ~1,600 tokens.
    expect(imageTokensForSize(4000, 3000)).toBeLessThanOrEqual(1_534);
    expect(imageTokensForSize(4000, 3000)).toBeGreaterThan(1_400);
  });

  it('counts a result’s image by its pixels, not its base64 text; audio and other blobs add nothing', () => {
    const data = png(100, 100).toString('base64');
    const result = {
      content: [
        { type: 'text', text: 'here it is' },
        { type: 'image', data, mimeType: 'image/png' },
        { type: 'audio', data: Buffer.alloc(3_000).toString('base64'), mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.bin', mimeType: 'application/octet-stream', blob: data } },
        { type: 'image', data: 'bm90IGFuIGltYWdl', mimeType: 'image/png' },
      ],
    };
    expect(resultImageTokens(result)).toBe(imageTokensForSize(100, 100) + UNKNOWN_IMAGE_TOKENS);
    const call = { result, response_bytes: JSON.stringify(result).length } as unknown as QueuedToolCall;
    // 'here it is' is 3 tokens; the image 14, the unreadable one the rule's upper bound.
    expect(resultTokens(call)).toBe(3 + 14 + UNKNOWN_IMAGE_TOKENS);
    expect(resultTokens(call)).toBeLessThan(data.length / 4 + UNKNOWN_IMAGE_TOKENS);
  });
});
