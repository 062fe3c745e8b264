// @ts-check
// png-palette.mjs: a screenshot as a PNG of at most 256 colours, for the README's picture
// (tools/screenshot.mjs). A page of text and heatmaps has few colours, but font smoothing makes
// thousands of near-copies of them, so Chromium's true-colour PNG is two to three times larger
// than a palette one that looks the same. No dependency: node:zlib does the deflating.
//
// How: read the PNG (8-bit RGB or RGBA, not interlaced: what Chromium writes), count the colours
// in buckets of 4 bits a channel, keep the 256 fullest buckets' mean colours as the palette, give
// each pixel its nearest palette colour, and write a colour-type-3 PNG.
import { deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/** @param {Buffer} png @returns {{ width: number, height: number, rgb: Uint8Array }} */
export function readPng(png) {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  let width = 0, height = 0, channels = 0;
  /** @type {Buffer[]} */
  const idat = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at), type = png.toString('latin1', at + 4, at + 8), data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colourType, , , interlace] = data.subarray(8, 13);
      channels = colourType === 2 ? 3 : colourType === 6 ? 4 : 0;
      if (depth !== 8 || !channels || interlace) throw new Error(`PNG of bit depth ${depth}, colour type ${colourType}, interlace ${interlace}: only 8-bit RGB or RGBA, not interlaced, can be read`);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat)), stride = width * channels;
  const rows = new Uint8Array(height * stride), rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = rows.subarray(y * stride, (y + 1) * stride), up = y ? rows.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[i - channels] : 0, b = up[i], c = i >= channels ? up[i - channels] : 0;
      out[i] = line[i] + unfilter(filter, a, b, c);
    }
  }
  for (let p = 0; p < width * height; p++) for (let k = 0; k < 3; k++) rgb[p * 3 + k] = rows[p * channels + k];
  return { width, height, rgb };
}

/** What PNG filter `filter` adds back, from the left (a), upper (b) and upper-left (c) bytes. @param {number} filter @param {number} a @param {number} b @param {number} c */
function unfilter(filter, a, b, c) {
  switch (filter) {
    case 0: return 0;
    case 1: return a;
    case 2: return b;
    case 3: return (a + b) >> 1;
    case 4: {
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default: throw new Error(`PNG row filter ${filter} is not one of 0-4`);
  }
}

/**
 * The picture with at most `colours` colours, as a palette PNG.
 * @param {{ width: number, height: number, rgb: Uint8Array }} image @param {number} [colours]
 * @returns {Buffer}
 */
export function palettePng({ width, height, rgb }, colours = 256) {
  const n = width * height, sums = new Float64Array(4096 * 4);
  for (let p = 0; p < n; p++) {
    const r = rgb[p * 3], g = rgb[p * 3 + 1], b = rgb[p * 3 + 2], bucket = ((r >> 4) << 8 | (g >> 4) << 4 | b >> 4) * 4;
    sums[bucket] += r; sums[bucket + 1] += g; sums[bucket + 2] += b; sums[bucket + 3]++;
  }
  const fullest = [...Array(4096).keys()].filter((i) => sums[i * 4 + 3]).sort((i, j) => sums[j * 4 + 3] - sums[i * 4 + 3]).slice(0, colours);
  const palette = fullest.map((i) => [0, 1, 2].map((k) => Math.round(sums[i * 4 + k] / sums[i * 4 + 3])));
  /** @type {Map<number, number>} */
  const nearest = new Map();
  /** The palette colour nearest (r, g, b), weighting green most, as the eye does. @param {number} r @param {number} g @param {number} b */
  const indexOf = (r, g, b) => {
    const key = r << 16 | g << 8 | b, known = nearest.get(key);
    if (known !== undefined) return known;
    let best = 0, bestDistance = Infinity;
    for (let i = 0; i < palette.length; i++) {
      const [pr, pg, pb] = palette[i];
      const d = 2 * (r - pr) ** 2 + 4 * (g - pg) ** 2 + 3 * (b - pb) ** 2;
      if (d < bestDistance) [bestDistance, best] = [d, i];
    }
    nearest.set(key, best);
    return best;
  };
  const rows = Buffer.alloc(height * (width + 1));   // filter 0 (none) on every row: best for palettes
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      rows[y * (width + 1) + 1 + x] = indexOf(rgb[p], rgb[p + 1], rgb[p + 2]);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 3, 0, 0, 0], 8);
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('PLTE', Buffer.from(palette.flat())),
    chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** @param {string} type @param {Buffer} data */
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** @type {Uint32Array | undefined} */
let crcTable;
/** @param {Buffer} bytes */
function crc32(bytes) {
  crcTable ||= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (const byte of bytes) c = /** @type {number} */ (crcTable[(c ^ byte) & 0xff]) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
