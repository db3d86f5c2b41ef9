// The node's public REST API as the dashboard uses it: same origin, JSON or raw bytes,
// errors carrying the API's message (api.md §1.3).

export const SERIALIZER = 'application/vnd.iota.serializer-v1';

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(path, accept) {
  let response;
  try {
    response = await fetch(path, { headers: { Accept: accept }, cache: 'no-store' });
  } catch (err) {
    throw new ApiError(0, `the node did not answer (${err.message})`);
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      message = (await response.json()).error.message;
    } catch {
      // not the error body: keep the status line
    }
    throw new ApiError(response.status, message);
  }
  return response;
}

export const getJson = async (path) => (await request(path, 'application/json')).json();

export const getBytes = async (path) => new Uint8Array(await (await request(path, SERIALIZER)).arrayBuffer());

/** The JSON, or null for a 404; other failures throw. */
export async function findJson(path) {
  try {
    return await getJson(path);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** Run `work(item)` over `items` with at most `limit` at a time; results in order. */
export async function mapLimited(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
