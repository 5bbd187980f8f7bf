// What the app learns from Telegram: the signed init data, the game to open, the theme. Telegram passes all of it
// in the page's URL hash (tgWebAppData, tgWebAppStartParam, tgWebAppThemeParams); telegram-web-app.js, when it
// could be loaded, reads the same hash and adds its methods (ready, expand, haptics), used only when present.

interface TelegramWebApp {
  initData?: string;
  initDataUnsafe?: { start_param?: string };
  colorScheme?: "light" | "dark";
  themeParams?: Record<string, string>;
  ready?: () => void;
  expand?: () => void;
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

/** Returns the game to open: `?game=` (a private chat's web_app button), else the start parameter (a group's
 * t.me link with startapp), else null. */
export function gameId(): string | null {
  const query = new URLSearchParams(window.location.search).get("game");
  if (query) return query;
  const start = webApp()?.initDataUnsafe?.start_param ?? hashParams().get("tgWebAppStartParam");
  if (start) return start;
  const fromData = new URLSearchParams(initData()).get("start_param");
  return fromData || null;
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
  };
  if (webApp()) greet();
  else document.getElementById("tg-sdk")?.addEventListener("load", greet, { once: true });
}

/** A light haptic tick where Telegram offers it. */
export function haptic(kind: "tap" | "error"): void {
  const feedback = webApp()?.HapticFeedback;
  if (kind === "tap") feedback?.impactOccurred?.("light");
  else feedback?.notificationOccurred?.("error");
}
