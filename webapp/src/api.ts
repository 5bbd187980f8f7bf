// The server's JSON API and live socket (bot/webapp/server.py, bot/webapp/live.py).
import type { GameView, LiveMessage, Refusal } from "./types";

/** The answer of a request: the new state, or a refusal with its HTTP status. */
export type Answer = { ok: true; state: GameView } | { ok: false; status: number; refusal: Refusal };

function base(): URL {
  return new URL(".", window.location.href);
}

async function answer(response: Response): Promise<Answer> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (response.ok && body && typeof body === "object") return { ok: true, state: body as GameView };
  const refusal =
    body && typeof body === "object" && "reason" in body
      ? (body as Refusal)
      : { error: "http", reason: `HTTP ${response.status}` };
  return { ok: false, status: response.status, refusal };
}

function failed(error: unknown): Answer {
  return { ok: false, status: 0, refusal: { error: "network", reason: String(error) } };
}

/** GETs the game as the signed-in user sees it. */
export async function fetchState(gameId: string, initData: string): Promise<Answer> {
  try {
    const url = new URL(`api/games/${encodeURIComponent(gameId)}`, base());
    return await answer(await fetch(url, { headers: { Authorization: `tma ${initData}` }, cache: "no-store" }));
  } catch (error) {
    return failed(error);
  }
}

/** POSTs one action (a board button's action string) made on the state of `version`. */
export async function postAction(gameId: string, initData: string, version: number, action: string): Promise<Answer> {
  try {
    const url = new URL(`api/games/${encodeURIComponent(gameId)}/actions`, base());
    const response = await fetch(url, {
      method: "POST",
      headers: { Authorization: `tma ${initData}`, "Content-Type": "application/json" },
      body: JSON.stringify({ version, action }),
    });
    return await answer(response);
  } catch (error) {
    return failed(error);
  }
}

export interface LiveHandlers {
  /** The newest known version (sent on every (re)connect, so the server sends only what was missed). */
  version: () => number | null;
  onState: (state: GameView) => void;
  onStatus: (status: LiveStatus) => void;
  /** The server refused the socket (`status` 401, 404, 429 or 503) with `reason`; `retrying`: it is tried again. */
  onRefused: (status: number, reason: string, retrying: boolean) => void;
}

/** `refused`: over one of the server's caps on live sockets (close code 4429), tried again after a long wait. */
export type LiveStatus = "live" | "connecting" | "refused" | "closed";

/** Close codes of the live socket (bot/webapp/live.py). */
const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_NOT_FOUND = 4404;
const CLOSE_TOO_MANY = 4429;
/** Reconnecting waits from the first to the last delay, doubling; after a refusal over a cap, from the long ones. */
const FIRST_DELAY = 300;
const LAST_DELAY = 5000;
const FIRST_REFUSED_DELAY = 30000;
const LAST_REFUSED_DELAY = 300000;

/**
 * Keeps a live socket open to the game, reconnecting with a growing delay (reset once the server sends a state or
 * says the page is current, never by a bare open, so a server that closes at once is not hammered); returns a
 * function that stops it. Refused as untrusted (4401) or for a missing game (4404) it stops; refused over a cap
 * (4429) it says so and tries again only after 30 s, then 1, 2, 4 and at most every 5 minutes.
 */
export function connectLive(gameId: string, initData: string, handlers: LiveHandlers): () => void {
  let stopped = false;
  let socket: WebSocket | null = null;
  let delay = FIRST_DELAY;
  let refusedDelay = FIRST_REFUSED_DELAY;
  let refused = false;
  let ping: number | undefined;
  let retry: number | undefined;
  const url = new URL(`api/games/${encodeURIComponent(gameId)}/live`, base());
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";

  const open = (): void => {
    if (stopped) return;
    handlers.onStatus("connecting");
    const ws = new WebSocket(url);
    socket = ws;
    refused = false;
    ws.onopen = () => {
      ws.send(JSON.stringify({ init_data: initData, version: handlers.version() }));
      ping = window.setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), 25000);
    };
    ws.onmessage = (event: MessageEvent) => {
      let message: LiveMessage;
      try {
        message = JSON.parse(String(event.data)) as LiveMessage;
      } catch {
        return;
      }
      if (message.type === "state" || message.type === "current") {
        delay = FIRST_DELAY;
        refusedDelay = FIRST_REFUSED_DELAY;
        handlers.onStatus("live");
        if (message.type === "state") handlers.onState(message.state);
      } else if (message.type === "error") {
        refused = message.status === 429;
        const retrying = refused || message.status === 503;
        if (!retrying) stopped = true;
        handlers.onRefused(message.status, message.reason, retrying);
      }
    };
    ws.onclose = (event: CloseEvent) => {
      window.clearInterval(ping);
      if (socket === ws) socket = null;
      if (stopped || event.code === CLOSE_UNAUTHORIZED || event.code === CLOSE_NOT_FOUND) {
        handlers.onStatus("closed");
        return;
      }
      if (refused || event.code === CLOSE_TOO_MANY) {
        handlers.onStatus("refused");
        retry = window.setTimeout(open, refusedDelay);
        refusedDelay = Math.min(refusedDelay * 2, LAST_REFUSED_DELAY);
        return;
      }
      handlers.onStatus("connecting");
      retry = window.setTimeout(open, delay);
      delay = Math.min(delay * 2, LAST_DELAY);
    };
  };
  open();
  return () => {
    stopped = true;
    window.clearTimeout(retry);
    socket?.close();
  };
}

/** Returns the catalogue's text ``key`` in ``lang`` (the texts the page shows before any game is read), or the key
 * itself when the server cannot be reached. */
export async function pageText(key: string, lang: string): Promise<string> {
  return (await pageTexts(lang))[key] ?? key;
}

let textsOnce: Promise<Record<string, string>> | null = null;

/** Returns the catalogue's page texts in `lang` (the arena's and the "Play" screen's among them: GET /api/texts,
 * asked once), or {} when the server cannot be reached (the page then shows the keys). */
export function pageTexts(lang: string): Promise<Record<string, string>> {
  textsOnce ??= (async () => {
    try {
      const url = new URL(`api/texts?lang=${encodeURIComponent(lang)}`, base());
      const texts: unknown = await (await fetch(url)).json();
      if (typeof texts !== "object" || texts === null) return {};
      const out: Record<string, string> = {};
      for (const [key, value] of Object.entries(texts)) if (typeof value === "string") out[key] = value;
      return out;
    } catch {
      return {};
    }
  })();
  return textsOnce;
}

/** The answer of a JSON call: its status (0: the network failed; 304: unchanged, no body), its JSON object (or
 * null), its `ETag`. */
export interface JsonAnswer {
  status: number;
  body: Record<string, unknown> | null;
  etag: string | null;
}

/** Sends a signed call to the API (`path` under `api/`): GET, or POST with `body` as JSON; `etag` asks for a 304
 * when the resource has not changed (If-None-Match). */
export async function callApi(
  path: string,
  initData: string,
  options: { method?: "GET" | "POST"; body?: unknown; etag?: string | null } = {},
): Promise<JsonAnswer> {
  const headers: Record<string, string> = { Authorization: `tma ${initData}` };
  if (options.etag) headers["If-None-Match"] = options.etag;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const init: RequestInit = { method: options.method ?? "GET", headers, cache: "no-store" };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  try {
    const response = await fetch(new URL(`api/${path}`, base()), init);
    let body: Record<string, unknown> | null = null;
    if (response.status !== 304) {
      try {
        const parsed: unknown = await response.json();
        body = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
    }
    return { status: response.status, body, etag: response.headers.get("ETag") };
  } catch (error) {
    return { status: 0, body: { error: "network", reason: String(error) }, etag: null };
  }
}

/** The refusal's reason of an answer that is not 200 (the server's text, or the HTTP status). */
export function reasonOf(answer: JsonAnswer): string {
  const reason = answer.body?.reason;
  return typeof reason === "string" ? reason : `HTTP ${answer.status}`;
}
