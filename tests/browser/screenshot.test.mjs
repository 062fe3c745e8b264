// make screenshot: tools/screenshot.mjs takes the README's picture from the real explorer page,
// as a palette PNG of the documented window, small enough to commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { screenshot, SCREENSHOT_VIEW } from '../../tools/screenshot.mjs';

test('the screenshot script writes a PNG of the explorer at its window size, in at most 256 colours, under 150 KB', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ae-shot-'));
  try {
    const { out, bytes } = await screenshot(join(dir, 'explorer.png'));
    const png = readFileSync(out);
    assert.equal(png.length, bytes);
    assert.ok(bytes < 150 * 1024, `${(bytes / 1024).toFixed(0)} KB`);
    assert.equal(png.toString('latin1', 12, 16), 'IHDR');
    const { width, height, scale } = SCREENSHOT_VIEW;
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [width * scale, height * scale]);
    assert.equal(png[25], 3, 'colour type 3: a palette');
    // The picture is not blank: its rows (filter byte, then one palette index a pixel) use many colours.
    const idat = [];
    for (let at = 8; at < png.length; at += 12 + png.readUInt32BE(at)) {
      if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + png.readUInt32BE(at)));
    }
    const pixels = inflateSync(Buffer.concat(idat));
    assert.equal(pixels.length, height * scale * (width * scale + 1));
    assert.ok(new Set(pixels).size > 32, 'many colours are used');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
