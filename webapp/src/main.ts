// The Mini App: loads the game, draws it, sends the player's actions, follows the live socket.
import { connectLive, fetchState, pageText, pageTexts, postAction } from "./api";
import { arenaId, startArena } from "./arena";
import { drawBoard } from "./board";
import { showClocks } from "./clock";
import { startPlay, wantsPlay } from "./play";
import {
  applyChrome,
  backButton,
  boardTheme,
  confirmClosing,
  gameId,
  haptic,
  holdSwipes,
  initData,
  startParam,
  userId,
  userLanguage,
} from "./telegram";
import { startTournament, tournamentId } from "./tournament";
import type { ActionView, GameView, Place } from "./types";

interface AppState {
  view: GameView | null;
  picked: Place | null;
  busy: boolean;
  resignOpen: boolean;
}

const state: AppState = { view: null, picked: null, busy: false, resignOpen: false };
const theme = boardTheme();
const data = initData();
// `?tournament=` or a start parameter `t_<id>` opens the tournament view, `?arena=` or `arena_<id>` the arena's,
// `?play` or `play` the "Play" screen; `?game=` (also with `&tournament=`, `&arena=` or `&play=`: a game opened from
// one of those screens, which the page leads back to) or another start parameter opens that game's board
const requested = gameId();
const fromQuery = new URLSearchParams(window.location.search).get("game");
const tournament = fromQuery ? null : tournamentId(requested);
const arena = fromQuery || tournament ? null : arenaId(startParam());
const play = !fromQuery && !tournament && !arena && wantsPlay(startParam());
const game = tournament || arena || play ? null : requested;

function byId<T extends Element>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing`);
  return node as unknown as T;
}

const svg = byId<SVGSVGElement>("board");

function same(a: Place, b: Place): boolean {
  return a === b;
}

function steps(view: GameView): ActionView[] {
  return view.actions.filter((a) => a.step !== null);
}

/** Shows an error (the server's reason) and marks the page with its status for the tests. */
function showError(reason: string, status: number): void {
  const box = byId<HTMLElement>("error");
  box.textContent = reason;
  box.dataset.status = String(status);
  box.hidden = false;
}

function clearError(): void {
  const box = byId<HTMLElement>("error");
  box.hidden = true;
  box.textContent = "";
  delete box.dataset.status;
}

function render(): void {
  const view = state.view;
  if (!view) return;
  document.body.dataset.version = String(view.version);
  document.body.dataset.awaited = view.awaited;
  document.body.dataset.finished = String(view.finished);
  byId<HTMLElement>("title").textContent = view.title;
  const origins = steps(view).map((a) => a.step?.origin);
  const targets =
    state.picked === null
      ? []
      : steps(view)
          .filter((a) => a.step && same(a.step.origin, state.picked as Place))
          .map((a) => (a.step as NonNullable<ActionView["step"]>).target);
  drawBoard(svg, view, theme, { picked: state.picked, targets });
  for (const node of Array.from(svg.querySelectorAll("[data-place]"))) {
    const key = node.getAttribute("data-place") ?? "";
    const place = toPlace(key);
    if (place !== null && origins.some((o) => o !== undefined && same(o, place))) node.classList.add("origin");
  }
  const status = byId<HTMLElement>("status");
  status.textContent =
    view.you === null
      ? (view.texts["webapp.spectator"] ?? "")
      : view.finished
        ? ""
        : view.turn === view.you
          ? (view.texts["webapp.your_turn"] ?? "")
          : (view.texts["webapp.waiting"] ?? "");
  byId<HTMLElement>("caption").replaceChildren(...captionNodes(view.caption));
  showClocks(view);
  renderActions(view);
}

const SIDE_MARKS: Record<string, number> = { "\u26AA": 0, "\u26AB": 1 };

/** The caption as text, its side marks (⚪ ⚫, which fonts without emoji draw as small outlines) drawn as the
 * board's own checkers, the same on every system. */
function captionNodes(caption: string): Node[] {
  const nodes: Node[] = [];
  for (const part of caption.split(/(\u26AA|\u26AB)/u)) {
    const side = SIDE_MARKS[part];
    if (side === undefined) {
      if (part) nodes.push(document.createTextNode(part));
      continue;
    }
    const mark = document.createElement("span");
    mark.className = `mark side${side}`;
    mark.setAttribute("role", "img");
    mark.setAttribute("aria-label", part);
    nodes.push(mark);
  }
  return nodes;
}

function renderActions(view: GameView): void {
  const box = byId<HTMLElement>("actions");
  box.replaceChildren();
  const buttons = view.actions.filter((a) => a.step === null);
  const resigns = buttons.filter((a) => a.action.startsWith("rs"));
  for (const action of buttons.filter((a) => !a.action.startsWith("rs"))) {
    box.appendChild(button(action.label, action.action, "primary"));
  }
  if (resigns.length > 0) {
    const toggle = document.createElement("button");
    toggle.className = "secondary";
    toggle.textContent = view.texts["btn.resign_menu"] ?? "⚑";
    toggle.dataset.action = "resign-menu";
    toggle.onclick = () => {
      state.resignOpen = !state.resignOpen;
      render();
    };
    box.appendChild(toggle);
    if (state.resignOpen) for (const action of resigns) box.appendChild(button(action.label, action.action, "danger"));
  }
}

function button(label: string, action: string, kind: string): HTMLButtonElement {
  const node = document.createElement("button");
  node.className = kind;
  node.textContent = label;
  node.dataset.action = action;
  node.disabled = state.busy;
  node.onclick = () => void send(action);
  return node;
}

function toPlace(key: string): Place | null {
  if (key === "bar" || key === "off" || key === "reserve") return key;
  const m = /^p(\d+)$/.exec(key);
  return m ? Number(m[1]) : null;
}

/** Takes a new state when it is newer than the shown one, or the same version whose clock has started since (its
 * board reached the player), or when forced (an answer to our own action). */
function accept(view: GameView, force = false): void {
  const shown = state.view;
  const started = shown !== null && view.version === shown.version && view.clock?.started !== shown.clock?.started;
  if (!force && shown && view.version <= shown.version && !started) return;
  if (state.view && view.version !== state.view.version) {
    state.picked = null;
    state.resignOpen = false;
  }
  const before = state.view;
  state.view = view;
  render();
  confirmClosing(view.you !== null && !view.finished);
  if (before && yourTurn(view) && !yourTurn(before)) haptic("turn");
}

/** Whether the view awaits its viewer. */
function yourTurn(view: GameView): boolean {
  return view.you !== null && !view.finished && view.turn === view.you;
}

async function send(action: string): Promise<void> {
  const view = state.view;
  if (!view || state.busy || !game) return;
  state.busy = true;
  clearError();
  const answer = await postAction(game, data, view.version, action);
  state.busy = false;
  state.picked = null;
  if (answer.ok) {
    haptic("tap");
    accept(answer.state, true);
    return;
  }
  haptic("error");
  showError(answer.refusal.reason, answer.status);
  if (answer.refusal.state) accept(answer.refusal.state, true);
  else render(); // snap back
}

/** The action for moving the picked checker to `target`: a legal step when there is one, else the step as the
 * player meant it (sent all the same, so the engine says why it is refused). */
function stepTo(view: GameView, origin: Place, target: Place): string | null {
  const legal = steps(view).find((a) => a.step && same(a.step.origin, origin) && same(a.step.target, target));
  if (legal) return legal.action;
  if (view.you === null || view.turn !== view.you || view.awaited !== "move" || view.dice === null) return null;
  const src = origin === "bar" ? 25 : origin === "reserve" ? 26 : origin;
  const dst = target === "off" ? 0 : target;
  if (typeof src !== "number" || typeof dst !== "number") return null;
  const left = [...view.dice, ...(view.dice[0] === view.dice[1] ? view.dice : [])];
  for (const used of view.used_dice) {
    const at = left.indexOf(used);
    if (at >= 0) left.splice(at, 1);
  }
  const distance = src - dst;
  const die = left.includes(distance) ? distance : dst === 0 ? Math.max(...left, 1) : distance;
  if (die < 1 || die > 6) return null;
  return `s${src}-${dst}-${die}`;
}

function placeAt(x: number, y: number): Place | null {
  for (const node of document.elementsFromPoint(x, y)) {
    const key = node.getAttribute("data-place");
    if (key) return toPlace(key);
  }
  return null;
}

function isOrigin(view: GameView, place: Place): boolean {
  return steps(view).some((a) => a.step && same(a.step.origin, place));
}

/** A tap on a place: pick a checker that can move, move the picked one there, or drop the pick. */
function tap(place: Place): void {
  const view = state.view;
  if (!view || state.busy) return;
  if (state.picked !== null) {
    if (same(state.picked, place)) {
      state.picked = null;
      render();
      return;
    }
    const action = stepTo(view, state.picked, place);
    if (action) {
      void send(action);
      return;
    }
  }
  state.picked = isOrigin(view, place) ? place : null;
  render();
}

// drag: a ghost checker follows the pointer from a place that can move; a drop elsewhere is a tap there
let drag: { from: Place; ghost: HTMLElement; moved: boolean; x: number; y: number } | null = null;

svg.addEventListener("pointerdown", (event: PointerEvent) => {
  const view = state.view;
  const place = placeAt(event.clientX, event.clientY);
  if (!view || place === null || state.busy) return;
  if (!isOrigin(view, place)) return;
  const ghost = document.createElement("div");
  ghost.className = `ghost side${view.you ?? 0}`;
  ghost.hidden = true;
  document.body.appendChild(ghost);
  drag = { from: place, ghost, moved: false, x: event.clientX, y: event.clientY };
  holdSwipes(true);
});

window.addEventListener("pointermove", (event: PointerEvent) => {
  if (!drag) return;
  if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 8) drag.moved = true;
  if (!drag.moved) return;
  if (state.picked === null || !same(state.picked, drag.from)) {
    state.picked = drag.from;
    render();
  }
  drag.ghost.hidden = false;
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
});

window.addEventListener("pointerup", (event: PointerEvent) => {
  const current = drag;
  drag = null;
  current?.ghost.remove();
  if (current) holdSwipes(false);
  const place = placeAt(event.clientX, event.clientY);
  if (current?.moved) {
    if (place === null || same(place, current.from)) {
      state.picked = null; // dropped off the board: it snaps back
      render();
    } else tap(place);
    return;
  }
  if (place !== null) tap(place);
});

/** The query leading back to the screen a game was opened from (`tournament=`, `arena=`, `play=`), or null. */
function backQuery(): string | null {
  const query = new URLSearchParams(window.location.search);
  for (const key of ["tournament", "arena", "play"]) {
    const value = query.get(key);
    if (value) return `${key}=${encodeURIComponent(value)}`;
  }
  return null;
}

async function start(): Promise<void> {
  applyChrome();
  document.documentElement.dataset.theme = theme;
  if (tournament) {
    await startTournament(tournament, data);
    return;
  }
  if (arena || play) {
    const texts = await pageTexts(userLanguage());
    if (arena) await startArena(arena, data, texts, userId());
    else await startPlay(data, texts, userLanguage());
    return;
  }
  const back = backQuery();
  if (game && back) {
    // a match opened from the tournament view, the arena's or the "Play" screen: a way back to it
    const href = `${window.location.pathname}?${back}${window.location.hash}`;
    // the page's own way back, until Telegram's Back button takes its place (outside Telegram it stays)
    const link = document.createElement("a");
    link.id = "back";
    link.className = "back";
    link.textContent = "←";
    link.href = href;
    byId<HTMLElement>("head").prepend(link);
    backButton(
      () => window.location.assign(href),
      () => link.remove(),
    );
  }
  if (!game) {
    showError(await pageText("webapp.no_game", userLanguage()), 404);
    // the app opened without a game (its menu button, its main link): the way to the "Play" screen
    const entry = document.createElement("a");
    entry.id = "play-entry";
    entry.className = "button primary";
    entry.textContent = (await pageTexts(userLanguage()))["webapp.play.entry"] ?? "Play";
    entry.href = `${window.location.pathname}?play=1${window.location.hash}`;
    byId<HTMLElement>("actions").appendChild(entry);
    document.body.dataset.ready = "error";
    return;
  }
  const first = await fetchState(game, data);
  if (!first.ok) {
    showError(first.refusal.reason, first.status);
    document.body.dataset.ready = "error";
    return;
  }
  accept(first.state);
  document.body.dataset.ready = "yes";
  const conn = byId<HTMLElement>("conn");
  let liveRefusal = false;
  connectLive(game, data, {
    version: () => state.view?.version ?? null,
    onState: (view) => accept(view),
    onStatus: (status) => {
      conn.dataset.status = status;
      document.body.dataset.live = status;
      // the socket's own refusal (over a cap, the server unavailable) is over once it is live again
      if (status === "live" && liveRefusal) {
        liveRefusal = false;
        clearError();
      }
    },
    onRefused: (status, reason, retrying) => {
      liveRefusal = retrying;
      showError(reason, status);
    },
  });
}

void start();
