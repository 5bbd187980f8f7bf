// The "Play" screen (bot/webapp/lobby.py): choose the game and the clock, seek an opponent across the bot's chats,
// see the seek (the rating window, the time waited, ticking on the server's clock), cancel it; once paired the game
// opens in the app. A cool-down (after abandoning lobby games) is shown with its end and the time left, and the seek
// button waits for it. While seeking the status is asked every 2 s, only while the page is shown.
import { callApi, reasonOf } from "./api";
import { el, fill, formatDuration, openBoard, pollWhileShown, ServerClock } from "./dom";

export interface LobbyChoices {
  variants: { id: string; name: string }[];
  clocks: string[];
}

export interface LobbyStatus {
  state: "idle" | "seeking" | "playing";
  since: number | null;
  variant: string | null;
  clock: string | null;
  game: string | null;
  cooldown_until: number | null;
  now: number;
  /** the rating window now (± points; null: any rating), when the server says it */
  window?: number | null;
  rating?: number | null;
  choices: LobbyChoices;
  toast?: string;
}

const POLL_MS = 2000;

/** Whether the page opens the "Play" screen: `?play=...` or the start parameter `play`. */
export function wantsPlay(startParam: string | null): boolean {
  return new URLSearchParams(window.location.search).has("play") || startParam === "play";
}

/** The end of a cool-down on the user's clock, in their language (`lang`, Telegram's code): the time, with the date
 * when it is not today. */
function endTime(unix: number, lang: string): string {
  const end = new Date(unix * 1000);
  const locales = lang ? [lang] : [];
  const sameDay = end.toDateString() === new Date().toDateString();
  let time: string;
  let day: string;
  try {
    time = end.toLocaleTimeString(locales, { hour: "2-digit", minute: "2-digit" });
    day = end.toLocaleDateString(locales, { day: "numeric", month: "short" });
  } catch {
    time = end.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    day = end.toLocaleDateString([], { day: "numeric", month: "short" });
  }
  return sameDay ? time : `${day} ${time}`;
}

/** Shows the "Play" screen in the page's `#app`. */
export async function startPlay(initData: string, t: Record<string, string>, lang: string): Promise<void> {
  const app = document.getElementById("app");
  if (!app) return;
  document.body.classList.add("tournament-page", "play-page");
  const head = el("header");
  head.id = "head";
  head.appendChild(el("span", undefined, t["webapp.play.title"] ?? "Play")).id = "title";
  const form = el("div", "play-form");
  const variantLabel = el("label", "field", t["webapp.play.variant"] ?? "");
  const variant = el("select");
  variant.id = "variant";
  variantLabel.appendChild(variant);
  const clockLabel = el("label", "field", t["webapp.play.clock"] ?? "");
  const clockSelect = el("select");
  clockSelect.id = "clock";
  clockLabel.appendChild(clockSelect);
  form.append(variantLabel, clockLabel);
  const state = el("div", "play-state");
  state.id = "play-state";
  const cooldown = el("div", "cooldown");
  cooldown.id = "cooldown";
  cooldown.hidden = true;
  const buttons = el("div", "actions");
  buttons.id = "play-actions";
  const toast = el("div", "toast");
  toast.id = "toast";
  toast.hidden = true;
  const error = el("div", "error");
  error.id = "error";
  error.hidden = true;
  app.replaceChildren(head, form, state, cooldown, buttons, toast, error);

  const clock = new ServerClock();
  let shown: LobbyStatus | null = null;
  let busy = false;
  let stopPolling: (() => void) | null = null;

  const fillChoices = (choices: LobbyChoices): void => {
    if (variant.options.length > 0) return;
    for (const v of choices.variants) variant.appendChild(new Option(v.name, v.id));
    for (const c of choices.clocks) clockSelect.appendChild(new Option(`⏱ ${c}`, c));
  };

  const coolingFor = (): number => (shown?.cooldown_until ? shown.cooldown_until - clock.now() : 0);

  const tick = (): void => {
    const view = shown;
    if (!view) return;
    if (view.state === "seeking" && view.since !== null) {
      const waited = state.querySelector<HTMLElement>(".waited");
      if (waited)
        waited.textContent = fill(t["webapp.play.waited"] ?? "{time}", {
          time: formatDuration(clock.now() - view.since),
        });
    }
    const cooling = coolingFor();
    cooldown.hidden = !(cooling > 0 && view.cooldown_until);
    if (cooling > 0 && view.cooldown_until) {
      cooldown.dataset.until = String(view.cooldown_until);
      const at = fill(t["webapp.play.cooldown"] ?? "{time}", { time: endTime(view.cooldown_until, lang) });
      const remaining = fill(t["webapp.play.cooldown_left"] ?? "{time}", { time: formatDuration(cooling) });
      cooldown.textContent = `${at} ${remaining}`;
    }
    const seek = buttons.querySelector<HTMLButtonElement>("button[data-lobby=seek]");
    if (seek) seek.disabled = busy || cooling > 0;
  };

  const render = (view: LobbyStatus): void => {
    const before = shown;
    shown = view;
    clock.sync(view.now);
    fillChoices(view.choices);
    document.body.dataset.state = view.state;
    state.dataset.state = view.state;
    state.replaceChildren();
    buttons.replaceChildren();
    form.hidden = view.state !== "idle";
    if (view.state === "seeking") {
      if (view.variant) variant.value = view.variant;
      if (view.clock) clockSelect.value = view.clock;
      const chosen = view.choices.variants.find((v) => v.id === view.variant)?.name ?? view.variant ?? "";
      state.appendChild(el("div", "seeking", t["webapp.play.seeking"] ?? ""));
      state.appendChild(el("div", "what", `${chosen} · ⏱ ${view.clock ?? ""}`));
      if (view.window !== undefined) {
        const text =
          view.window === null
            ? (t["webapp.play.window_any"] ?? "")
            : fill(t["webapp.play.window"] ?? "{window}", { window: String(view.window) });
        const windowNode = el("div", "window", text);
        windowNode.dataset.window = String(view.window);
        state.appendChild(windowNode);
      }
      state.appendChild(el("div", "waited"));
      const cancel = el("button", "secondary", t["webapp.play.cancel"] ?? "");
      cancel.dataset.lobby = "cancel";
      cancel.onclick = () => void send("cancel");
      buttons.appendChild(cancel);
    } else if (view.state === "playing" && view.game) {
      const game = view.game;
      state.appendChild(el("div", undefined, t["webapp.play.playing"] ?? ""));
      const open = el("button", "primary", t["webapp.play.open_game"] ?? "▶");
      open.id = "my-game";
      open.dataset.game = game;
      open.onclick = () => openBoard(game, "play=1");
      buttons.appendChild(open);
      // paired while the page waited, or at once by the seek itself: the game opens
      if (before && before.state !== "playing") openBoard(game, "play=1");
    } else {
      const seek = el("button", "primary", t["webapp.play.seek"] ?? "");
      seek.dataset.lobby = "seek";
      seek.onclick = () => void send("seek");
      buttons.appendChild(seek);
    }
    tick();
    if (view.state === "seeking" && stopPolling === null) {
      stopPolling = pollWhileShown(POLL_MS, async () => {
        const next = await callApi("lobby", initData);
        if (next.status === 200 && next.body && !busy) render(next.body as unknown as LobbyStatus);
        return shown?.state === "seeking";
      });
    } else if (view.state !== "seeking" && stopPolling !== null) {
      stopPolling();
      stopPolling = null;
    }
  };

  const send = async (what: "seek" | "cancel"): Promise<void> => {
    if (busy) return;
    busy = true;
    for (const node of Array.from(buttons.querySelectorAll("button"))) node.disabled = true;
    const body = what === "seek" ? { variant: variant.value, clock: clockSelect.value } : undefined;
    const answer = await callApi(`lobby/${what}`, initData, { method: "POST", body });
    busy = false;
    if (answer.status === 200 && answer.body) {
      error.hidden = true;
      const view = answer.body as unknown as LobbyStatus;
      toast.textContent = view.toast ?? "";
      toast.hidden = !view.toast;
      render(view);
    } else {
      error.textContent = reasonOf(answer);
      error.dataset.status = String(answer.status);
      error.hidden = false;
      if (shown) render(shown);
    }
  };

  const first = await callApi("lobby", initData);
  if (first.status !== 200 || !first.body) {
    error.textContent = reasonOf(first);
    error.dataset.status = String(first.status);
    error.hidden = false;
    app.replaceChildren(head, error);
    document.body.dataset.ready = "error";
    return;
  }
  render(first.body as unknown as LobbyStatus);
  document.body.dataset.ready = "yes";
  window.setInterval(tick, 250);
}
