// The worker's HTTP requests to the server (the panels fetched over HTTP, recordings): the token's header, the
// server's error body (`{"error": {"code", "message"}}`) read and worded, a GET of a JSON panel, a POST. A feature
// panel's model on a fleet dashboard names the instance picked (its `carriedTo()`): the dashboard carries each such
// request with `?instance=ID` to it (docs/fleet.md "Feature panels through the fleet").

import { parseJSON } from "../../lib/json-reader.mjs";

/**
 * What a model that talks HTTP has: the server's http://host:port, the token, fetch (a fake one in tests) and,
 * for a feature panel's model, `carriedTo()`: the fleet instance its requests are for (none on a single server).
 * @typedef {{origin: string, token: string, fetch: typeof fetch, carriedTo?: () => string|null|undefined}} Client
 */

/**
 * The URL of `path` on the client's server; with `?instance=ID` when the client is for one instance of a fleet.
 * @param {Client} client
 * @param {string} path
 */
export function urlOf({ origin, carriedTo }, path) {
  const instance = carriedTo?.();
  if (typeof instance !== "string" || instance === "*") return `${origin}${path}`;
  return `${origin}${path}${path.includes("?") ? "&" : "?"}instance=${encodeURIComponent(instance)}`;
}

/**
 * The headers of a request with the token.
 * @param {string} token
 * @param {Record<string, string>} [extra]
 */
export function authHeaders(token, extra = {}) {
  return { Authorization: `Bearer ${token}`, ...extra };
}

/**
 * The error in an error response's body (`{"error": {"code", "message"}}`), or the status when it has none.
 * @param {string} text
 * @param {number} status
 * @returns {{code: string, message: string}}
 */
export function errorOf(text, status) {
  try {
    const error = parseJSON(text).get("error");
    const code = error.get("code");
    const message = error.get("message");
    if (typeof message === "string") return { code: typeof code === "string" ? code : "", message };
  } catch {
    // not the server's error JSON: fall through
  }
  return { code: "", message: `HTTP ${status}` };
}

/**
 * An error for people: `code: message`, or the message alone when there is no code.
 * @param {{code: string, message: string}} error
 */
export function errorText(error) {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

/**
 * `GET path` of a JSON panel: "ready" with the body read by `read` (200), "none" with the server's message (404:
 * the server has none, or predates the route), else "error" with a message for the panel (`what` names it there).
 * @template T
 * @param {Client} client
 * @param {string} path
 * @param {string} what e.g. "the tunables", as in "Could not read the tunables: …"
 * @param {(value: any) => T} read turns the parsed body into what the model keeps (may throw: an "error")
 * @returns {Promise<{status: "ready", body: T} | {status: "none"|"error", message: string, code?: string}>}
 *   `code` is the server's error code when it answered
 */
export async function getJSON(client, path, what, read) {
  const { token, fetch } = client;
  try {
    const response = await fetch(urlOf(client, path), { headers: authHeaders(token), cache: "no-store" });
    const text = await response.text();
    if (response.status === 200) return { status: "ready", body: read(parseJSON(text)) };
    const error = errorOf(text, response.status);
    if (response.status === 404) return { status: "none", message: error.message, code: error.code };
    return { status: "error", message: `GET ${path} answered ${response.status}: ${errorText(error)}`, code: error.code };
  } catch (error) {
    return { status: "error", message: `Could not read ${what}: ${error.message}` };
  }
}

/**
 * `POST path` with a JSON body. `status` 0 means no answer came (`error.message` says why).
 * @param {Client} client
 * @param {string} path
 * @param {string} body
 * @returns {Promise<{ok: true, status: number, text: string} | {ok: false, status: number, error: {code: string, message: string}}>}
 */
export async function postJSON(client, path, body) {
  const { token, fetch } = client;
  try {
    const response = await fetch(urlOf(client, path), {
      method: "POST", headers: authHeaders(token, { "Content-Type": "application/json" }), body, cache: "no-store",
    });
    const text = await response.text();
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, text };
    return { ok: false, status: response.status, error: errorOf(text, response.status) };
  } catch (error) {
    return { ok: false, status: 0, error: { code: "", message: error.message } };
  }
}

/**
 * Why a POST did not work, for people: the server's error, or that no answer came.
 * @param {{status: number, error: {code: string, message: string}}} answer a failed postJSON's
 */
export function postFailureText(answer) {
  return answer.status === 0 ? `The server could not be reached: ${answer.error.message}` : errorText(answer.error);
}

/**
 * `POST path` with the body `{}` (see postJSON).
 * @param {Client} client
 * @param {string} path
 */
export function postEmpty(client, path) {
  return postJSON(client, path, "{}");
}
