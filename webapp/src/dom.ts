// Small helpers the screens share: making elements, the server's clock, times as the page writes them.

/** Returns a new element with its class and text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The server's clock: the page's own corrected by the offset measured when an answer carried the server's `now`. */
export class ServerClock {
  private offset = 0;

  /** Takes the server's time `now` (unix seconds) of an answer just received. */
  sync(now: number): void {
    if (Number.isFinite(now)) this.offset = now - Date.now() / 1000;
  }

  /** Returns the server's time now, in unix seconds. */
  now(): number {
    return Date.now() / 1000 + this.offset;
  }
}

/** `m:ss`, or `h:mm:ss` from an hour on; whole seconds rounded up (0:00 only once the time is out). */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds - 1e-6));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** `text` with each `{name}` replaced by `values[name]` (the catalogue's placeholders, filled by the page). */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** Opens a game's board in this app; `back` is the query that leads back to the screen it came from (the init data
 * stays in the hash). */
export function openBoard(gameId: string, back: string): void {
  const query = `?game=${encodeURIComponent(gameId)}&${back}`;
  window.location.assign(`${window.location.pathname}${query}${window.location.hash}`);
}

/** Runs `poll` now and then every `ms` while the page is shown; a hidden page is not polled, and polls at once when
 * shown again. `poll` returns false to stop for good. Returns a function that stops it. */
function hidden(): boolean {
  return document.visibilityState === "hidden";
}

export function pollWhileShown(ms: number, poll: () => Promise<boolean>): () => void {
  let timer: number | undefined;
  let stopped = false;
  let running = false;
  const run = async (): Promise<void> => {
    window.clearTimeout(timer);
    timer = undefined;
    if (stopped || running || hidden()) return;
    running = true;
    const more = await poll();
    running = false;
    if (!more) stopped = true;
    if (!stopped && !hidden()) timer = window.setTimeout(() => void run(), ms);
  };
  const onVisibility = (): void => {
    if (!hidden()) void run();
    else window.clearTimeout(timer);
  };
  document.addEventListener("visibilitychange", onVisibility);
  timer = window.setTimeout(() => void run(), ms);
  return () => {
    stopped = true;
    window.clearTimeout(timer);
    document.removeEventListener("visibilitychange", onVisibility);
  };
}
