// The game state the server sends (bot/services/game_view.py's GameView, as JSON): the app's whole contract.

/** A place on the viewer's board: a point 1..24, or the bar, the borne-off tray, the reserve. */
export type Place = number | "bar" | "off" | "reserve";

export interface PlayerView {
  side: number;
  name: string;
  computer: boolean;
}

export interface PointView {
  point: number;
  owner: number;
  count: number;
  pinned: number | null;
}

export interface StepView {
  src: number;
  dst: number;
  die: number;
  hit: boolean;
  origin: Place;
  target: Place;
}

export interface ActionView {
  action: string;
  label: string;
  step: StepView | null;
}

export interface CubeView {
  value: number;
  owner: number | null;
  offered: boolean;
  enabled: boolean;
}

/** The game's clock at the server's time `now` (unix seconds): bot/services/game_view.py's ClockView. */
export interface ClockView {
  control: string;
  delay: number;
  /** each side's reserve at `now` (the running action's delay not counted) */
  left: [number, number];
  running: number | null;
  started: number | null;
  deadline: number | null;
  now: number;
  flag: number | null;
  /** the running action is its player's first: `deadline` ends the first-move window, the reserve is untouched */
  first: boolean;
}

export type Awaited = "roll" | "double" | "move" | "choose" | "take" | "resignation" | "none";

export interface GameView {
  game_id: string;
  version: number;
  variant: string;
  title: string;
  board: "short" | "long";
  layout: "plain" | "reserve" | "pinned";
  players: [PlayerView, PlayerView];
  you: number | null;
  bottom: number;
  phase: string;
  turn: number | null;
  awaited: Awaited;
  points: PointView[];
  bar: [number, number];
  off: [number, number];
  /** each side's pip count (the engine's), as the Pillow board's strips show it */
  pips: [number, number];
  reserve: [number, number] | null;
  dice: [number, number] | null;
  used_dice: number[];
  cube: CubeView;
  score: [number, number];
  match_length: number;
  crawford: boolean;
  pending: StepView[];
  last_move: StepView[];
  last_mover: number | null;
  actions: ActionView[];
  finished: boolean;
  result: Record<string, unknown> | null;
  caption: string;
  texts: Record<string, string>;
  /** the clock, when the game is played on one */
  clock: ClockView | null;
}

/** A refusal of the API or of the live socket: `{"error": code, "reason": text}` (409 adds the current state). */
export interface Refusal {
  error: string;
  reason: string;
  state?: GameView;
}

/** A message of the live socket. */
export type LiveMessage =
  | { type: "state"; state: GameView }
  | { type: "current"; version: number }
  | { type: "pong" }
  | { type: "error"; status: number; error: string; reason: string; scope?: "user" | "game" | "process" };
