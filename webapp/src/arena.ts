// The arena's live view (bot/webapp/arenas.py): time left ticking on the server's clock, the leaderboard with its
// streak marks (🔥) and score sheets, the viewer's current game (opened in the app) and their buttons (join, pause,
// back, leave). Kept current by a conditional poll (If-None-Match with the arena record's version: an unchanged arena
// answers 304 with no body) every few seconds while the page is shown; a hidden page is not polled.
import { callApi, reasonOf } from "./api";
import { el, formatDuration, openBoard, pollWhileShown, ServerClock } from "./dom";

export interface ArenaSheetEntry {
  points: number;
  fire: boolean;
  berserk: boolean;
  won: boolean;
}

export interface ArenaPlayer {
  /** the player's Telegram user id */
  id: number | string;
  name: string;
  rank: number;
  score: number;
  fire: boolean;
  sheet: ArenaSheetEntry[];
  games: number;
  paused: boolean;
  withdrawn: boolean;
  /** whether the player is in a game now */
  playing: boolean | string | null;
}

export interface ArenaView {
  id: string;
  title: string;
  variant: string;
  clock: string;
  ends_at: number;
  now: number;
  finished: boolean;
  players: ArenaPlayer[];
  me: { joined: boolean; paused: boolean; game: string | null };
  toast?: string;
}

const POLL_MS = 3000;

/** Returns the arena to open: `?arena=<id>`, or a start parameter `arena_<id>`, else null. */
export function arenaId(startParam: string | null): string | null {
  const query = new URLSearchParams(window.location.search).get("arena");
  if (query) return query;
  const m = startParam ? /^arena_([A-Za-z0-9_-]{10})$/.exec(startParam) : null;
  return m ? (m[1] ?? null) : null;
}

/** The sheet: each game's points, a win while on fire marked, a berserk win starred, a loss a 0. */
function sheetNode(sheet: ArenaSheetEntry[]): HTMLElement {
  const box = el("span", "sheet");
  for (const entry of sheet) {
    const cls = ["game", entry.won ? "won" : "lost", entry.fire ? "fire" : "", entry.berserk ? "berserk" : ""];
    const mark = el("span", cls.filter(Boolean).join(" "), String(entry.points));
    if (entry.berserk) mark.title = "berserk";
    box.appendChild(mark);
  }
  return box;
}

function leaderboard(view: ArenaView, t: Record<string, string>, me: string): HTMLElement {
  const table = el("table", "standings arena-board");
  const head = el("tr");
  for (const text of ["#", "", "", t["webapp.arena.score"] ?? "Pts", t["webapp.arena.games"] ?? "Games"]) {
    head.appendChild(el("th", undefined, text));
  }
  table.appendChild(el("thead")).appendChild(head);
  const body = el("tbody");
  for (const p of view.players) {
    const row = el("tr", String(p.id) === me ? "you" : undefined);
    row.dataset.player = String(p.id);
    row.dataset.fire = String(p.fire);
    row.appendChild(el("td", "place", String(p.rank)));
    const name = el("td", "name");
    name.appendChild(el("span", undefined, p.name));
    if (p.fire) name.appendChild(el("span", "fire-mark", "🔥"));
    const marks: string[] = [];
    if (p.withdrawn) marks.push(t["webapp.arena.withdrawn_mark"] ?? "left");
    else if (p.paused) marks.push(t["webapp.arena.paused_mark"] ?? "paused");
    if (p.playing) marks.push(t["webapp.arena.playing_mark"] ?? "playing");
    if (marks.length > 0) name.appendChild(el("span", "player-mark", marks.join(" · ")));
    row.appendChild(name);
    const sheet = el("td", "sheet-cell");
    sheet.appendChild(sheetNode(p.sheet));
    row.appendChild(sheet);
    row.appendChild(el("td", "score", String(p.score)));
    row.appendChild(el("td", "games", String(p.games)));
    body.appendChild(row);
  }
  table.appendChild(body);
  return table;
}

/** Shows the arena `id` in the page's `#app`, ticking and polling while it is shown. */
export async function startArena(id: string, initData: string, t: Record<string, string>, me: string): Promise<void> {
  const app = document.getElementById("app");
  if (!app) return;
  document.body.classList.add("tournament-page", "arena-page");
  const head = el("header");
  head.id = "head";
  const title = el("span");
  title.id = "title";
  head.appendChild(title);
  const info = el("div", "status arena-info");
  const left = el("div", "arena-time");
  left.id = "arena-time";
  const mine = el("div", "arena-me");
  mine.id = "arena-me";
  const buttons = el("div", "actions");
  buttons.id = "arena-actions";
  const toast = el("div", "toast");
  toast.id = "toast";
  toast.hidden = true;
  const error = el("div", "error");
  error.id = "error";
  error.hidden = true;
  const boardHead = el("h2", undefined, t["webapp.arena.leaderboard"] ?? "");
  const board = el("div", "standings-wrap");
  board.id = "arena-board";
  const legend = el("div", "legend", t["webapp.arena.fire"] ?? "");
  app.replaceChildren(head, info, left, mine, buttons, toast, error, boardHead, board, legend);

  const clock = new ServerClock();
  let shown: ArenaView | null = null;
  let etag: string | null = null;
  let busy = false;
  let renders = 0;

  const tick = (): void => {
    if (!shown) return;
    const remaining = shown.ends_at - clock.now();
    const over = shown.finished || remaining <= 0;
    left.dataset.left = String(Math.max(0, Math.ceil(remaining - 1e-6)));
    left.dataset.over = String(over);
    left.replaceChildren();
    if (over) {
      left.appendChild(el("span", "over", t["webapp.arena.over"] ?? ""));
      left.appendChild(el("span", "note", t["webapp.arena.late_games"] ?? ""));
    } else {
      left.appendChild(el("span", "label", `${t["webapp.arena.time_left"] ?? ""} `));
      left.appendChild(el("span", "time", formatDuration(remaining)));
    }
  };

  const button = (action: "join" | "leave" | "pause" | "back", kind: string): HTMLButtonElement => {
    const node = el("button", kind, t[`webapp.arena.${action}`] ?? action);
    node.dataset.arenaAction = action;
    node.disabled = busy;
    node.onclick = () => void press(action);
    return node;
  };

  const render = (view: ArenaView): void => {
    shown = view;
    renders += 1;
    document.body.dataset.version = String(renders);
    document.body.dataset.finished = String(view.finished);
    title.textContent = view.title;
    info.textContent = `⏱ ${view.clock}`;
    info.dataset.variant = view.variant;
    board.replaceChildren(leaderboard(view, t, me));
    mine.replaceChildren();
    buttons.replaceChildren();
    const joined = view.me.joined;
    mine.dataset.state = view.me.game ? "playing" : !joined ? "out" : view.me.paused ? "paused" : "waiting";
    if (view.me.game) {
      const game = view.me.game;
      mine.appendChild(el("span", undefined, t["webapp.arena.my_game"] ?? ""));
      const open = el("button", "primary", t["webapp.arena.open_game"] ?? "▶");
      open.id = "my-game";
      open.dataset.game = game;
      open.onclick = () => openBoard(game, `arena=${encodeURIComponent(view.id)}`);
      mine.appendChild(open);
    } else if (!view.finished) {
      const key = !joined ? "not_joined" : view.me.paused ? "paused" : "waiting";
      mine.appendChild(el("span", undefined, t[`webapp.arena.${key}`] ?? ""));
    }
    if (!view.finished) {
      if (!joined) buttons.appendChild(button("join", "primary"));
      else {
        buttons.appendChild(view.me.paused ? button("back", "primary") : button("pause", "secondary"));
        buttons.appendChild(button("leave", "danger"));
      }
    }
    tick();
  };

  const showError = (reason: string, status: number): void => {
    error.textContent = reason;
    error.dataset.status = String(status);
    error.hidden = false;
  };

  const press = async (action: "join" | "leave" | "pause" | "back"): Promise<void> => {
    if (busy) return;
    busy = true;
    for (const node of Array.from(buttons.querySelectorAll("button"))) node.disabled = true;
    const answer = await callApi(`arenas/${encodeURIComponent(id)}/${action}`, initData, { method: "POST" });
    busy = false;
    if (answer.status === 200 && answer.body) {
      error.hidden = true;
      const view = answer.body as unknown as ArenaView;
      clock.sync(view.now);
      etag = answer.etag;
      toast.textContent = view.toast ?? "";
      toast.hidden = !view.toast;
      render(view);
    } else {
      showError(reasonOf(answer), answer.status);
      if (shown) render(shown);
    }
  };

  const first = await callApi(`arenas/${encodeURIComponent(id)}`, initData);
  if (first.status !== 200 || !first.body) {
    showError(reasonOf(first), first.status);
    app.replaceChildren(head, error);
    document.body.dataset.ready = "error";
    return;
  }
  etag = first.etag;
  const view = first.body as unknown as ArenaView;
  clock.sync(view.now);
  render(view);
  document.body.dataset.ready = "yes";
  window.setInterval(tick, 250);
  pollWhileShown(POLL_MS, async () => {
    if (busy) return true;
    const next = await callApi(`arenas/${encodeURIComponent(id)}`, initData, { etag });
    if (next.status === 200 && next.body && !busy) {
      etag = next.etag;
      const fresh = next.body as unknown as ArenaView;
      clock.sync(fresh.now);
      render(fresh);
    }
    document.body.dataset.polls = String(Number(document.body.dataset.polls ?? "0") + 1);
    return !(shown?.finished ?? false);
  });
}
