// The game's clocks under the board's strips: each side's reserve, the running one ticking every second on the
// page's own clock corrected by the server's time (the delay counts down first, then the reserve), stopped when the
// view says so; the side that lost on time marked.
import type { ClockView, GameView } from "./types";

/** The server's clock as of the shown view: the page's time plus the offset measured when the view came. */
let offset = 0;
let shown: GameView | null = null;
let timer: number | undefined;

/** `m:ss`, whole seconds rounded up while the time runs (so 0:00 shows only when it has run out). */
export function formatSeconds(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds - 1e-6));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** What `side`'s clock shows at the server's time `now`: the delay (or the first-move window) left, running side
 * only, and the reserve. */
export function clockAt(clock: ClockView, side: number, now: number): { delay: number; reserve: number } {
  if (clock.running !== side || clock.started === null || clock.deadline === null) {
    return { delay: 0, reserve: clock.left[side] ?? 0 };
  }
  if (clock.first) return { delay: Math.max(0, clock.deadline - now), reserve: clock.left[side] ?? 0 };
  const full = clock.deadline - clock.started - clock.delay; // the reserve when the action began
  return {
    delay: Math.min(clock.delay, Math.max(0, clock.started + clock.delay - now)),
    reserve: Math.min(full, Math.max(0, clock.deadline - now)),
  };
}

function box(id: string): HTMLElement | null {
  return document.getElementById(id);
}

function paint(): void {
  const view = shown;
  const clock = view?.clock ?? null;
  for (const [id, side] of [
    ["clock-top", view ? 1 - view.bottom : 0],
    ["clock-bottom", view ? view.bottom : 1],
  ] as const) {
    const node = box(id);
    if (!node) continue;
    if (!view || !clock) {
      node.hidden = true;
      continue;
    }
    const now = Date.now() / 1000 + offset;
    const { delay, reserve } = clockAt(clock, side, now);
    const running = clock.running === side;
    node.hidden = false;
    node.dataset.side = String(side);
    node.dataset.running = String(running);
    node.dataset.flag = String(clock.flag === side);
    node.dataset.reserve = String(Math.ceil(reserve - 1e-6));
    node.replaceChildren();
    const name = document.createElement("span");
    name.className = "clock-name";
    name.textContent = view.players[side]?.name ?? "";
    const time = document.createElement("span");
    time.className = "clock-time";
    time.textContent = `⏱ ${formatSeconds(reserve)}`;
    node.append(name);
    if (running && delay > 0) {
      const wait = document.createElement("span");
      wait.className = "clock-delay";
      const label = clock.first
        ? (view.texts["webapp.clock.first"] ?? "first move")
        : (view.texts["webapp.clock.delay"] ?? "delay");
      wait.textContent = `${label} ${Math.ceil(delay - 1e-6)}`;
      node.append(wait);
    }
    if (clock.flag === side) {
      const flag = document.createElement("span");
      flag.className = "clock-flag";
      flag.textContent = view.texts["webapp.clock.flag"] ?? "";
      node.append(flag);
    }
    node.append(time);
  }
}

/** Shows the clocks of `view` (none when it has no clock) and keeps the running one ticking. */
export function showClocks(view: GameView): void {
  shown = view;
  if (view.clock) offset = view.clock.now - Date.now() / 1000;
  paint();
  const ticking = view.clock !== null && view.clock.running !== null && !view.finished;
  if (ticking && timer === undefined) timer = window.setInterval(paint, 250);
  if (!ticking && timer !== undefined) {
    window.clearInterval(timer);
    timer = undefined;
  }
}
