// fetch-config.js: loading a config from the element's src attribute. Its own module, which the
// element imports the first time a src is set (in dist/, its own part): the explorer's first load
// does without it.

import { MAX_JSON, SRC_TIMEOUT_MS, clipMessage } from '../blocks/config.js';

/**
 * Fetches a config's text, refusing anything past MAX_JSON characters before reading it all.
 * `signal` aborts it (a newer src, or the element removed): it then rejects with an AbortError.
 * After `timeout` ms it rejects with a message that says so.
 * @param {string} url @param {typeof fetch} [fetchFn] @param {{ signal?: AbortSignal, timeout?: number }} [options]
 * @returns {Promise<string>}
 */
export async function fetchConfigText(url, fetchFn = globalThis.fetch, { signal, timeout = SRC_TIMEOUT_MS } = {}) {
  const shown = clipMessage(url, 120);
  const stop = new AbortController();
  let timedOut = false;
  const onAbort = () => stop.abort(signal?.reason);
  if (signal) {
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  const timer = setTimeout(() => ((timedOut = true), stop.abort()), timeout);
  const failed = (/** @type {unknown} */ e, /** @type {string | undefined} */ message = undefined) => {
    if (timedOut) return new Error(`The config at “${shown}” did not arrive within ${Math.round(timeout / 1000)} seconds, so it was not loaded. Check that the address is right and the server answers, or put the JSON in the config attribute instead.`);
    if (stop.signal.aborted) return Object.assign(new Error('The config load was cancelled: a newer src replaced it, or the element was removed.'), { name: 'AbortError' });
    return e instanceof Error && message === undefined ? e : new Error(message);
  };
  try {
    let res;
    try {
      res = await fetchFn(url, { credentials: 'omit', mode: 'cors', signal: stop.signal });
    } catch (e) {
      throw failed(e, `Could not load the config from “${shown}”. A config on another site loads only if that site allows it (CORS: Access-Control-Allow-Origin), and a page opened from file:// cannot load files at all: put the JSON in the config attribute instead. (The browser said: ${clipMessage(/** @type {Error} */ (e).message, 120)})`);
    }
    if (!res.ok) throw new Error(`Could not load the config from “${shown}”: the server answered ${res.status} ${clipMessage(res.statusText, 60)}.`);
    const declared = Number(res.headers.get('content-length'));
    if (declared > MAX_JSON) throw new Error(`The config at “${shown}” is ${declared} bytes; the limit is ${MAX_JSON}. It was not loaded.`);
    if (!res.body || !res.body.getReader) {
      try {
        return await res.text();
      } catch (e) {
        throw failed(e);
      }
    }
    const reader = res.body.getReader();
    const parts = [];
    let size = 0;
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch (e) {
        throw failed(e, `The config at “${shown}” stopped arriving part-way (${clipMessage(/** @type {Error} */ (e).message, 120)}). It was not loaded.`);
      }
      const { done, value } = chunk;
      if (done) break;
      size += value.length;
      if (size > MAX_JSON) {
        reader.cancel();
        throw new Error(`The config at “${shown}” is more than ${MAX_JSON} bytes; the limit is ${MAX_JSON}. It was not loaded.`);
      }
      parts.push(value);
    }
    return decodeParts(parts, size);
  } finally {
    clearTimeout(timer);
    if (signal) signal.removeEventListener('abort', onAbort);
  }
}

/** @param {Uint8Array[]} parts @param {number} size */
function decodeParts(parts, size) {
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) all.set(p, at), (at += p.length);
  return new TextDecoder().decode(all);
}
