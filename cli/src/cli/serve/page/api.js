// Calls to the server's JSON API, and a reader of its server-sent events over fetch (so a job
// can be started with a JSON body, and stopped by aborting the request). Every request carries
// this page's client id, so that the server gives each student their own long job.

/** This tab's client id: random, kept for the tab's life (sessionStorage), never sent elsewhere. */
export const clientId = (() => {
  const made = () => {
    // crypto.getRandomValues works on plain http too (a class on a LAN address), randomUUID not
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  };
  try {
    let id = sessionStorage.getItem('slidetable-client');
    if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
      id = made();
      sessionStorage.setItem('slidetable-client', id);
    }
    return id;
  } catch (_) {
    return made();
  }
})();

const HEADERS = { 'Content-Type': 'application/json', 'X-Slidetable-Client': clientId };

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function errorOf(response) {
  let message = `HTTP ${response.status}`;
  try {
    const body = await response.json();
    if (body && body.error) message = body.error;
  } catch (_) {
    // not JSON: keep the status
  }
  return new ApiError(message, response.status);
}

/** GET `path` (no body) or POST `body` as JSON; the answer's JSON, or an ApiError. */
export async function call(path, body) {
  const init = body === undefined
    ? { method: 'GET', headers: { 'X-Slidetable-Client': clientId } }
    : { method: 'POST', headers: HEADERS, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  if (!response.ok) throw await errorOf(response);
  return response.json();
}

const running = new Set();

/**
 * Starts a long job: POST `body` to `path`, then `onEvent(name, data)` for each event as it
 * arrives. Returns `{ done, abort }`: `done` resolves when the stream ends (to true when it was
 * aborted), rejects with an ApiError when the server refuses the job.
 */
export function stream(path, body, onEvent) {
  const controller = new AbortController();
  running.add(controller);
  const done = (async () => {
    try {
      const response = await fetch(path, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!response.ok) throw await errorOf(response);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let name = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) name = line.slice(6).trim();
            else if (line.startsWith('data:')) data += line.slice(5).trim();
          }
          if (data) onEvent(name, JSON.parse(data));
        }
      }
      return false;
    } catch (e) {
      if (e.name === 'AbortError') return true;
      throw e;
    } finally {
      running.delete(controller);
    }
  })();
  return { done, abort: () => controller.abort() };
}

/** Stops every job this page has running (their connections close, so the server stops them). */
export function abortAll() {
  for (const c of running) c.abort();
}

// leaving the page stops its jobs on the server
window.addEventListener('pagehide', abortAll);
