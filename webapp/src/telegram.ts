// What the app learns from Telegram: the signed init data, the game to open, the theme. Telegram passes all of it
// in the page's URL hash (tgWebAppData, tgWebAppStartParam, tgWebAppThemeParams); telegram-web-app.js, when it
// could be loaded, reads the same hash and adds its methods (ready, expand, full screen, swipes, closing
// confirmation, the Back button, haptics), used only when present and supported by the client's version.

interface TelegramWebApp {
  initData?: string;
  initDataUnsafe?: { start_param?: string; user?: { language_code?: string } };
  colorScheme?: "light" | "dark";
  themeParams?: Record<string, string>;
  platform?: string;
  isVersionAtLeast?: (version: string) => boolean;
  ready?: () => void;
  expand?: () => void;
  requestFullscreen?: () => void;
  disableVerticalSwipes?: () => void;
  enableVerticalSwipes?: () => void;
  enableClosingConfirmation?: () => void;
  disableClosingConfirmation?: () => void;
  BackButton?: { show?: () => void; hide?: () => void; onClick?: (handler: () => void) => void };
  HapticFeedback?: { impactOccurred?: (style: string) => void; notificationOccurred?: (kind: string) => void };
}

declare global {
  interface Window {
    Telegram?: { WebApp?: TelegramWebApp };
  }
}

function hashParams(): URLSearchParams {
  return new URLSearchParams(window.location.hash.replace(/^#/, ""));
}

function webApp(): TelegramWebApp | undefined {
  return window.Telegram?.WebApp;
}

/** Returns the signed init data (from telegram-web-app.js, or the URL hash as Telegram passes it), or "". */
export function initData(): string {
  const fromScript = webApp()?.initData;
  if (fromScript) return fromScript;
  return hashParams().get("tgWebAppData") ?? "";
}

/** Returns the start parameter of the t.me link that opened the app (`startapp`), or null. */
export function startParam(): string | null {
  const start = webApp()?.initDataUnsafe?.start_param ?? hashParams().get("tgWebAppStartParam");
  if (start) return start;
  const fromData = new URLSearchParams(initData()).get("start_param");
  return fromData || null;
}

/** Returns the game to open: `?game=` (a private chat's web_app button), else the start parameter (a group's
 * t.me link with startapp), else null. */
export function gameId(): string | null {
  const query = new URLSearchParams(window.location.search).get("game");
  if (query) return query;
  return startParam();
}

/** Returns Telegram's theme colours (bg_color, text_color, ...), possibly empty. */
export function themeParams(): Record<string, string> {
  const fromScript = webApp()?.themeParams;
  if (fromScript && Object.keys(fromScript).length > 0) return fromScript;
  const raw = hashParams().get("tgWebAppThemeParams");
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Returns the board's theme: `?theme=` when given, else "dark" in Telegram's dark scheme, else "classic". */
export function boardTheme(): "classic" | "dark" {
  const asked = new URLSearchParams(window.location.search).get("theme");
  if (asked === "dark" || asked === "classic") return asked;
  if (webApp()?.colorScheme === "dark") return "dark";
  const bg = themeParams().bg_color;
  return bg && luminance(bg) < 0.35 ? "dark" : "classic";
}

function luminance(hex: string): number {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return 1;
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => Number.parseInt(x ?? "ff", 16) / 255);
  return 0.2126 * (r ?? 1) + 0.7152 * (g ?? 1) + 0.0722 * (b ?? 1);
}

/** Applies Telegram's theme colours to the page chrome (CSS variables) and tells Telegram the app is ready. */
export function applyChrome(): void {
  const params = themeParams();
  const root = document.documentElement;
  for (const [key, value] of Object.entries(params)) {
    if (/^#[0-9a-f]{3,8}$/i.test(value)) root.style.setProperty(`--tg-${key.replace(/_/g, "-")}`, value);
  }
  const greet = (): void => {
    const app = webApp();
    app?.ready?.();
    app?.expand?.();
    // the whole screen on a phone (its notch and home bar kept clear by the safe-area insets in style.css)
    if (MOBILE.has(app?.platform ?? "") && supports("8.0")) app?.requestFullscreen?.();
  };
  whenTelegram(greet);
}

/** Runs ``run`` once telegram-web-app.js is there: now, or when it has loaded (it is loaded async). */
function whenTelegram(run: () => void): void {
  if (webApp()) run();
  else document.getElementById("tg-sdk")?.addEventListener("load", run, { once: true });
}

const MOBILE = new Set(["android", "android_x", "ios"]);

/** Whether the Telegram client runs at least Bot API ``version`` of Mini Apps (false outside Telegram). */
function supports(version: string): boolean {
  return webApp()?.isVersionAtLeast?.(version) ?? false;
}

/** Haptics where Telegram offers them: a tick on a move, an error on a refused one, a success when it becomes
 * the player's turn. */
export function haptic(kind: "tap" | "error" | "turn"): void {
  const feedback = webApp()?.HapticFeedback;
  if (kind === "tap") feedback?.impactOccurred?.("light");
  else feedback?.notificationOccurred?.(kind === "turn" ? "success" : "error");
}

/** While a checker is dragged, a vertical swipe must not close or collapse the app: ``held`` true stops Telegram's
 * vertical swipes, false gives them back. */
export function holdSwipes(held: boolean): void {
  if (!supports("7.7")) return;
  const app = webApp();
  if (held) app?.disableVerticalSwipes?.();
  else app?.enableVerticalSwipes?.();
}

let closing = { wanted: false, asked: false };

/** Asks Telegram to confirm before the app is closed while ``running`` (a game of the viewer's is on). */
export function confirmClosing(running: boolean): void {
  closing.wanted = running;
  whenTelegram(() => {
    if (!supports("6.2") || closing.asked === closing.wanted) return;
    closing = { wanted: closing.wanted, asked: closing.wanted };
    const app = webApp();
    if (closing.wanted) app?.enableClosingConfirmation?.();
    else app?.disableClosingConfirmation?.();
  });
}

/** Shows Telegram's Back button, calling ``back`` when pressed, and then ``shown`` (so that the page drops its own
 * way back); where there is none (outside Telegram, an old client) nothing happens. */
export function backButton(back: () => void, shown: () => void): void {
  whenTelegram(() => {
    const button = webApp()?.BackButton;
    if (!supports("6.1") || !button?.show || !button.onClick) return;
    button.onClick(back);
    button.show();
    shown();
  });
}

/** Returns the signed-in user's Telegram id as a string (as the arena's view names its players), or "". */
export function userId(): string {
  try {
    const user: unknown = JSON.parse(new URLSearchParams(initData()).get("user") ?? "{}");
    const id = typeof user === "object" && user !== null ? (user as { id?: unknown }).id : undefined;
    return typeof id === "number" ? String(id) : "";
  } catch {
    return "";
  }
}

/** Returns the user's language as Telegram gives it (for the texts shown before any game is read), or "". */
export function userLanguage(): string {
  const fromScript = webApp()?.initDataUnsafe?.user?.language_code;
  if (fromScript) return fromScript;
  try {
    const user: unknown = JSON.parse(new URLSearchParams(initData()).get("user") ?? "{}");
    const code = typeof user === "object" && user !== null ? (user as { language_code?: unknown }).language_code : "";
    return typeof code === "string" ? code : "";
  } catch {
    return "";
  }
}
