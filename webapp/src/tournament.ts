// The tournament view: standings, the current round's pairings and an elimination's bracket as an SVG that scrolls
// and zooms (wheel, pinch, buttons). Polls the server every few seconds with the shown version; a match being played
// opens its board in the app.

export interface StandingRow {
  place: number;
  name: string;
  cells: string[];
  you: boolean;
}

export interface PairingView {
  id: string;
  label: string;
  first: string;
  second: string;
  state: "to_play" | "playing" | "result" | "forfeit";
  game_id: string | null;
  score: string;
}

export interface BracketMatch {
  id: string;
  players: [string | null, string | null];
  winner: number | null;
  score: string;
  game_id: string | null;
  playing: boolean;
}

export interface BracketRound {
  key: string;
  label: string;
  section: string;
  matches: BracketMatch[];
}

export interface TournamentView {
  id: string;
  version: number;
  format: string;
  status: string;
  status_text: string;
  title: string;
  round: number | null;
  columns: string[];
  standings: StandingRow[];
  pairings: PairingView[];
  bracket: BracketRound[] | null;
  texts: Record<string, string>;
}

const POLL_MS = 3000;
const SVG_NS = "http://www.w3.org/2000/svg";
const BOX_W = 150;
const BOX_H = 44;
const COL_GAP = 34;
const ROW_GAP = 14;
const LABEL_H = 22;
const SECTION_GAP = 30;
const MIN_ZOOM = 0.3;
const MAX_ZOOM = 3;

/** Returns the tournament to open: `?tournament=<id>`, or a start parameter `t_<id>` (a game id is 10 characters,
 * so `t_` and 10 more is never a game), else null. */
export function tournamentId(startParam: string | null): string | null {
  const query = new URLSearchParams(window.location.search).get("tournament");
  if (query) return query;
  const m = startParam ? /^t_([A-Za-z0-9_-]{10})$/.exec(startParam) : null;
  return m ? (m[1] ?? null) : null;
}

type Fetched = { ok: true; view: TournamentView | null } | { ok: false; status: number; reason: string };

async function fetchTournament(id: string, initData: string, version: number | null): Promise<Fetched> {
  const query = version === null ? "" : `?version=${version}`;
  const url = `api/tournaments/${encodeURIComponent(id)}${query}`;
  try {
    const response = await fetch(url, { headers: { Authorization: `tma ${initData}` }, cache: "no-store" });
    const body = (await response.json()) as Record<string, unknown>;
    if (response.ok) return { ok: true, view: body.current === true ? null : (body as unknown as TournamentView) };
    return { ok: false, status: response.status, reason: String(body.reason ?? response.statusText) };
  } catch (error) {
    return { ok: false, status: 0, reason: String(error) };
  }
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgEl(tag: string, attrs: Record<string, string | number>): SVGElement {
  const node = document.createElementNS(SVG_NS, tag) as SVGElement;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** Opens a game's board in this app (the init data stays in the hash; Back returns here). */
function openBoard(gameId: string, tournament: string): void {
  const query = `?game=${encodeURIComponent(gameId)}&tournament=${encodeURIComponent(tournament)}`;
  window.location.assign(`${window.location.pathname}${query}${window.location.hash}`);
}

function renderStandings(view: TournamentView): HTMLElement {
  const table = el("table", "standings");
  const head = el("tr");
  for (const text of ["#", "", ...view.columns]) head.appendChild(el("th", undefined, text));
  table.appendChild(el("thead")).appendChild(head);
  const body = el("tbody");
  for (const row of view.standings) {
    const line = el("tr", row.you ? "you" : undefined);
    line.appendChild(el("td", "place", String(row.place)));
    line.appendChild(el("td", "name", row.name));
    for (const cell of row.cells) line.appendChild(el("td", undefined, cell));
    body.appendChild(line);
  }
  table.appendChild(body);
  return table;
}

function renderPairings(view: TournamentView): HTMLElement {
  const list = el("ul", "pairings");
  if (view.pairings.length === 0) list.appendChild(el("li", "none", view.texts.none ?? ""));
  for (const p of view.pairings) {
    const item = el("li", `pairing ${p.state}`);
    item.dataset.match = p.id;
    item.appendChild(el("span", "label", p.label));
    item.appendChild(el("span", "players", `${p.first} – ${p.second}`));
    const state = p.state === "result" ? p.score : (view.texts[p.state] ?? p.state);
    item.appendChild(el("span", "state", p.state === "forfeit" ? `${p.score} · ${state}` : state));
    if (p.game_id) {
      const open = el("button", "primary", view.texts.open ?? "▶");
      const game = p.game_id;
      open.dataset.game = game;
      open.onclick = () => openBoard(game, view.id);
      item.appendChild(open);
    }
    list.appendChild(item);
  }
  return list;
}

interface Placed {
  round: BracketRound;
  x: number;
  ys: number[];
}

/** Lays the bracket out: sections (winners, losers, final) one under the other, each round a column, a round's
 * matches spread evenly over its section's height. Returns the columns and the picture's size. */
function layout(rounds: BracketRound[]): { placed: Placed[]; width: number; height: number } {
  const sections: string[] = [];
  for (const r of rounds) if (!sections.includes(r.section)) sections.push(r.section);
  const placed: Placed[] = [];
  let top = 0;
  let width = 0;
  for (const section of sections) {
    const own = rounds.filter((r) => r.section === section);
    const most = Math.max(...own.map((r) => r.matches.length), 1);
    const height = most * (BOX_H + ROW_GAP);
    own.forEach((round, column) => {
      const x = column * (BOX_W + COL_GAP);
      const step = height / Math.max(round.matches.length, 1);
      const ys = round.matches.map((_, i) => top + LABEL_H + i * step + (step - BOX_H) / 2);
      placed.push({ round, x, ys });
      width = Math.max(width, x + BOX_W);
    });
    top += LABEL_H + height + SECTION_GAP;
  }
  return { placed, width: width + 8, height: top };
}

function drawBracket(svg: SVGSVGElement, view: TournamentView, tournament: string): { width: number; height: number } {
  const rounds = view.bracket ?? [];
  const { placed, width, height } = layout(rounds);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `-4 -4 ${width + 8} ${height + 8}`);
  placed.forEach((column, index) => {
    const label = svgEl("text", { x: column.x + 4, y: (column.ys[0] ?? 0) - 8, class: "round-label" });
    label.textContent = column.round.label;
    svg.appendChild(label);
    const next = placed[index + 1];
    const halves = next && next.round.section === column.round.section;
    column.round.matches.forEach((match, i) => {
      const y = column.ys[i] ?? 0;
      if (halves && next.round.matches.length * 2 === column.round.matches.length) {
        const target = next.ys[Math.floor(i / 2)] ?? 0;
        const midX = column.x + BOX_W + COL_GAP / 2;
        svg.appendChild(
          svgEl("path", {
            d: `M${column.x + BOX_W} ${y + BOX_H / 2}H${midX}V${target + BOX_H / 2}H${next.x}`,
            class: "link",
          }),
        );
      }
      svg.appendChild(drawMatch(match, column.x, y, view, tournament));
    });
  });
  return { width: width + 8, height: height + 8 };
}

function drawMatch(match: BracketMatch, x: number, y: number, view: TournamentView, tournament: string): SVGElement {
  const group = svgEl("g", { class: `match${match.playing ? " playing" : ""}${match.game_id ? " open" : ""}` });
  group.dataset.match = match.id;
  if (match.game_id) group.dataset.game = match.game_id;
  group.appendChild(svgEl("rect", { x, y, width: BOX_W, height: BOX_H, rx: 6, class: "box" }));
  group.appendChild(svgEl("line", { x1: x, y1: y + BOX_H / 2, x2: x + BOX_W, y2: y + BOX_H / 2, class: "mid" }));
  const scores = match.score ? match.score.split("–") : [];
  match.players.forEach((name, slot) => {
    const shown = name === null ? (view.texts.waiting ?? "…") : name === "" ? (view.texts.bye ?? "") : name;
    const cls = `slot${match.winner === slot ? " winner" : ""}${name === null || name === "" ? " empty" : ""}`;
    const text = svgEl("text", { x: x + 8, y: y + 16 + slot * (BOX_H / 2), class: cls });
    text.textContent = shown.length > 16 ? `${shown.slice(0, 15)}…` : shown;
    group.appendChild(text);
    const score = scores[slot];
    if (score !== undefined) {
      const s = svgEl("text", { x: x + BOX_W - 8, y: y + 16 + slot * (BOX_H / 2), class: `score${cls}` });
      s.setAttribute("text-anchor", "end");
      s.textContent = score;
      group.appendChild(s);
    }
  });
  const game = match.game_id;
  if (game) group.addEventListener("click", () => openBoard(game, tournament));
  return group;
}

/** The bracket's zoom: the SVG's size is its natural size times the zoom; the box around it scrolls. */
class Zoom {
  zoom = 1;
  size = { width: 0, height: 0 };
  private pointers = new Map<number, { x: number; y: number }>();
  private pinch: { distance: number; zoom: number } | null = null;

  constructor(
    private readonly box: HTMLElement,
    private readonly svg: SVGSVGElement,
  ) {
    box.addEventListener(
      "wheel",
      (event: WheelEvent) => {
        event.preventDefault();
        this.set(this.zoom * Math.exp(-event.deltaY / 400), event.clientX, event.clientY);
      },
      { passive: false },
    );
    box.addEventListener("pointerdown", (e) => this.down(e));
    box.addEventListener("pointermove", (e) => this.move(e));
    for (const kind of ["pointerup", "pointercancel", "pointerleave"]) {
      box.addEventListener(kind, (e) => this.up(e as PointerEvent));
    }
  }

  private down(event: PointerEvent): void {
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pointers.size === 2) this.pinch = { distance: this.spread(), zoom: this.zoom };
  }

  private move(event: PointerEvent): void {
    if (!this.pointers.has(event.pointerId)) return;
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pinch && this.pointers.size === 2) {
      const [a, b] = Array.from(this.pointers.values());
      if (a && b) this.set((this.pinch.zoom * this.spread()) / this.pinch.distance, (a.x + b.x) / 2, (a.y + b.y) / 2);
    }
  }

  private up(event: PointerEvent): void {
    this.pointers.delete(event.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
  }

  private spread(): number {
    const [a, b] = Array.from(this.pointers.values());
    return a && b ? Math.max(Math.hypot(a.x - b.x, a.y - b.y), 1) : 1;
  }

  /** Sets the zoom, keeping the picture's point under (clientX, clientY) where it is. */
  set(zoom: number, clientX?: number, clientY?: number): void {
    const next = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
    const rect = this.box.getBoundingClientRect();
    const px = (clientX ?? rect.left + rect.width / 2) - rect.left;
    const py = (clientY ?? rect.top + rect.height / 2) - rect.top;
    const ratio = next / this.zoom;
    const left = (this.box.scrollLeft + px) * ratio - px;
    const top = (this.box.scrollTop + py) * ratio - py;
    this.zoom = next;
    this.apply();
    this.box.scrollLeft = left;
    this.box.scrollTop = top;
    this.box.dataset.zoom = next.toFixed(2);
  }

  apply(): void {
    this.svg.setAttribute("width", String(Math.round(this.size.width * this.zoom)));
    this.svg.setAttribute("height", String(Math.round(this.size.height * this.zoom)));
  }
}

/** Shows the tournament `id` in the page's `#app` and keeps it current by polling. */
export async function startTournament(id: string, initData: string): Promise<void> {
  const app = document.getElementById("app");
  if (!app) return;
  document.body.classList.add("tournament-page");
  const head = el("header", undefined);
  head.id = "head";
  const title = el("span");
  title.id = "title";
  head.appendChild(title);
  const status = el("div", "status");
  const error = el("div", "error");
  error.id = "error";
  error.hidden = true;
  const standingsHead = el("h2");
  const standings = el("div", "standings-wrap");
  const pairingsHead = el("h2");
  const pairings = el("div");
  const bracketHead = el("h2");
  const bracketBar = el("div", "zoom-bar");
  const box = el("div", "bracket-box");
  box.id = "bracket";
  const svg = document.createElementNS(SVG_NS, "svg") as SVGSVGElement;
  svg.setAttribute("xmlns", SVG_NS);
  svg.id = "bracket-svg";
  box.appendChild(svg);
  const zoom = new Zoom(box, svg);
  for (const [text, factor] of [
    ["−", 1 / 1.25],
    ["+", 1.25],
  ] as const) {
    const b = el("button", "secondary", text);
    b.dataset.zoom = text === "+" ? "in" : "out";
    b.onclick = () => zoom.set(zoom.zoom * factor);
    bracketBar.appendChild(b);
  }
  app.replaceChildren(head, status, error, standingsHead, standings, pairingsHead, pairings);
  let shown: TournamentView | null = null;

  const show = (view: TournamentView): void => {
    const first = shown === null;
    shown = view;
    document.body.dataset.version = String(view.version);
    title.textContent = view.title;
    const current = view.pairings.find((p) => p.state === "playing" || p.state === "to_play");
    status.textContent = current ? `${view.status_text} · ${current.label}` : view.status_text;
    standingsHead.textContent = view.texts.standings ?? "";
    standings.replaceChildren(renderStandings(view));
    pairingsHead.textContent = view.texts.pairings ?? "";
    pairings.replaceChildren(renderPairings(view));
    if (view.bracket) {
      if (!box.isConnected) app.append(bracketHead, bracketBar, box);
      bracketHead.textContent = view.texts.bracket ?? "";
      zoom.size = drawBracket(svg, view, id);
      if (first) {
        // a phone starts with the first rounds readable: fit the width, but not smaller than 60 %
        const fit = (box.clientWidth || window.innerWidth) / Math.max(zoom.size.width, 1);
        zoom.zoom = Math.min(1, Math.max(0.6, fit));
        box.dataset.zoom = zoom.zoom.toFixed(2);
      }
      zoom.apply();
    }
  };

  const first = await fetchTournament(id, initData, null);
  if (!first.ok) {
    error.textContent = first.reason;
    error.dataset.status = String(first.status);
    error.hidden = false;
    app.replaceChildren(head, error);
    document.body.dataset.ready = "error";
    return;
  }
  if (first.view) show(first.view);
  document.body.dataset.ready = "yes";
  const poll = async (): Promise<void> => {
    const next = await fetchTournament(id, initData, shown?.version ?? null);
    if (next.ok && next.view) show(next.view);
    window.setTimeout(() => void poll(), POLL_MS);
  };
  window.setTimeout(() => void poll(), POLL_MS);
}
