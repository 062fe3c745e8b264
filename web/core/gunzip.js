// @ts-check
// gunzip.js: base64 text of a gzip stream -> its bytes, with the platform's DecompressionStream
// (every current browser, and Node 18+). The Wasm builds of the core are shipped this way
// (tools/embed-wasm.mjs): gzip takes the 34 KB module to 16 KB, and base64 of compressed bytes
// costs almost nothing more once the page itself is served gzipped.

/** @param {string} text base64 @returns {Uint8Array<ArrayBuffer>} */
export function decodeBase64(text) {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/**
 * Inflates base64-encoded gzip data.
 * @param {string} text base64 of a gzip stream
 * @returns {Promise<Uint8Array>} the uncompressed bytes
 */
export async function gunzipBase64(text) {
  if (typeof DecompressionStream !== 'function') {
    throw new Error('This browser cannot unpack the attention core: it has no DecompressionStream. ' +
      'Every current browser has it (Chrome and Edge 80, Firefox 113, Safari 16.4 and later; Node.js 18): update the browser.');
  }
  // A Blob's stream piped through the inflater, read back whole by a Response: all three are in
  // every engine that has DecompressionStream.
  const inflated = new Blob([decodeBase64(text)]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}
