// Talking to Reverie: JSON requests with the session cookie and the CSRF header on every write.

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
let csrfToken = null;
let onSignedOut = () => {};

/** Remember the session's CSRF token (from sign-in or /auth/me). */
export function setCsrf(token) {
  csrfToken = token;
}

/** What to do when the session turns out to be gone (401). */
export function whenSignedOut(handler) {
  onSignedOut = handler;
}

/** An error answer: `status`, the server's `code`, and per-field messages in `fields`. */
export class ApiError extends Error {
  constructor(status, body) {
    const openai = body && typeof body.error === 'object' && body.error; // the /v1/ routes answer as OpenAI
    super((openai ? openai.message : body && body.detail) || `The server answered ${status}`);
    this.status = status;
    this.code = openai ? openai.code : body && body.error;
    this.fields = (body && body.fields) || {};
  }
}

/** Headers for a request: JSON, and the CSRF token on writes. */
export function headersFor(method, extra = {}) {
  const headers = { Accept: 'application/json', ...extra };
  if (!SAFE.has(method) && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  return headers;
}

/** Send a request and return the parsed JSON answer (null for 204); throws ApiError. */
export async function api(path, { method = 'GET', body, headers } = {}) {
  const init = { method, headers: headersFor(method, headers), credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  return readAnswer(response);
}

/** The JSON of a response, or an ApiError for an error status. */
export async function readAnswer(response) {
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401) onSignedOut();
    throw new ApiError(response.status, data);
  }
  return data;
}

/** A query string from an object, leaving out empty values. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
