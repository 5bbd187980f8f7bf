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
  onStatus: (status: "live" | "connecting" | "closed") => void;
  onRefused: (status: number, reason: string) => void;
}

/** Keeps a live socket open to the game, reconnecting with a growing delay; returns a function that stops it. */
export function connectLive(gameId: string, initData: string, handlers: LiveHandlers): () => void {
  let stopped = false;
  let socket: WebSocket | null = null;
  let delay = 300;
  let ping: number | undefined;
  const url = new URL(`api/games/${encodeURIComponent(gameId)}/live`, base());
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";

  const open = (): void => {
    if (stopped) return;
    handlers.onStatus("connecting");
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      delay = 300;
      ws.send(JSON.stringify({ init_data: initData, version: handlers.version() }));
      handlers.onStatus("live");
      ping = window.setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), 25000);
    };
    ws.onmessage = (event: MessageEvent) => {
      let message: LiveMessage;
      try {
        message = JSON.parse(String(event.data)) as LiveMessage;
      } catch {
        return;
      }
      if (message.type === "state") handlers.onState(message.state);
      else if (message.type === "error") {
        stopped = true;
        handlers.onRefused(message.status, message.reason);
      }
    };
    ws.onclose = (event: CloseEvent) => {
      window.clearInterval(ping);
      if (socket === ws) socket = null;
      if (stopped || event.code === 4401 || event.code === 4404) {
        handlers.onStatus("closed");
        return;
      }
      handlers.onStatus("connecting");
      window.setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    };
  };
  open();
  return () => {
    stopped = true;
    socket?.close();
  };
}
