// The board in SVG, drawn from a GameView in the look of the Pillow board (rendering/layout.py's geometry and
// rendering/theme.py's colours): points numbered in the viewer's frame, 1 at the bottom right, 1..12 right to left
// along the bottom, 13..24 left to right along the top; the bear-off trays at the right (the top player's above),
// the reserve trays at the left where the variant has them; the strips name the players.
import type { GameView, Place } from "./types";

type RGB = [number, number, number];

interface Theme {
  frame: RGB;
  frameDark: RGB;
  felt: RGB;
  feltEdge: RGB;
  pointA: RGB;
  pointB: RGB;
  bar: RGB;
  tray: RGB;
  trayText: RGB;
  strip: RGB;
  stripActive: RGB;
  stripText: RGB;
  stripMuted: RGB;
  accent: RGB;
  checkers: [{ body: RGB; rim: RGB; text: RGB }, { body: RGB; rim: RGB; text: RGB }];
  dieBody: RGB;
  diePip: RGB;
  cubeBody: RGB;
  cubeText: RGB;
  lastMove: RGB;
  pending: RGB;
  hit: RGB;
}

/** The Pillow board's two themes (rendering/theme.py), colour for colour. */
export const THEMES: Record<"classic" | "dark", Theme> = {
  classic: {
    frame: [122, 74, 40],
    frameDark: [84, 48, 24],
    felt: [214, 190, 146],
    feltEdge: [188, 160, 114],
    pointA: [150, 40, 32],
    pointB: [100, 132, 96],
    bar: [110, 66, 35],
    tray: [176, 146, 100],
    trayText: [62, 36, 18],
    strip: [52, 34, 22],
    stripActive: [92, 58, 30],
    stripText: [250, 238, 214],
    stripMuted: [205, 180, 140],
    accent: [255, 196, 60],
    checkers: [
      { body: [240, 230, 208], rim: [196, 180, 150], text: [70, 45, 25] },
      { body: [48, 40, 38], rim: [20, 16, 15], text: [245, 230, 200] },
    ],
    dieBody: [250, 248, 240],
    diePip: [30, 26, 24],
    cubeBody: [250, 248, 240],
    cubeText: [30, 26, 24],
    lastMove: [255, 196, 40],
    pending: [40, 170, 255],
    hit: [170, 20, 20],
  },
  dark: {
    frame: [28, 32, 40],
    frameDark: [16, 18, 24],
    felt: [54, 62, 76],
    feltEdge: [44, 50, 62],
    pointA: [0, 120, 140],
    pointB: [170, 176, 190],
    bar: [34, 38, 48],
    tray: [70, 80, 98],
    trayText: [245, 247, 252],
    strip: [14, 16, 22],
    stripActive: [40, 48, 66],
    stripText: [245, 247, 252],
    stripMuted: [160, 168, 184],
    accent: [255, 210, 0],
    checkers: [
      { body: [250, 250, 250], rim: [190, 196, 206], text: [20, 24, 32] },
      { body: [226, 70, 50], rim: [150, 36, 24], text: [255, 255, 255] },
    ],
    dieBody: [255, 255, 255],
    diePip: [10, 12, 16],
    cubeBody: [245, 247, 252],
    cubeText: [10, 12, 16],
    lastMove: [255, 210, 0],
    pending: [40, 110, 255],
    hit: [255, 70, 170],
  },
};

const VISIBLE_STACK = 5;
const VISIBLE_BAR = 4;
const WIDTH = 780;

/** rendering/layout.py's layout() for one width: every measure of the board. */
export interface Geometry {
  width: number;
  height: number;
  pw: number;
  checker: number;
  strip: number;
  frameV: number;
  innerTop: number;
  innerBottom: number;
  leftX: number;
  rightX: number;
  barX: number;
  trayX: number;
  trayW: number;
  slab: number;
  die: number;
  cube: number;
  reserveX: number | null;
}

export function geometry(reserve: boolean, width = WIDTH): Geometry {
  const pw = Math.floor(width / (reserve ? 17.1 : 15.6));
  const checker = pw - Math.max(2, Math.round(pw * 0.04));
  const barW = Math.floor(pw * 1.1);
  const between = Math.floor(pw * 0.35);
  const trayW = Math.floor(pw * 1.15);
  const used = 12 * pw + barW + (reserve ? 2 : 1) * (between + trayW);
  let frameLeft = Math.floor((width - used) / 2);
  const reserveX = reserve ? frameLeft : null;
  if (reserve) frameLeft += trayW + between;
  const strip = Math.floor(pw * 0.95);
  const frameV = Math.floor(pw * 0.56);
  const inner = Math.floor(checker * 11.3);
  const height = 2 * strip + 2 * frameV + inner;
  const barX = frameLeft + 6 * pw;
  const rightX = barX + barW;
  return {
    width,
    height,
    pw,
    checker,
    strip,
    frameV,
    innerTop: strip + frameV,
    innerBottom: strip + frameV + inner,
    leftX: frameLeft,
    rightX,
    barX,
    trayX: rightX + 6 * pw + between,
    trayW,
    slab: Math.max(3, Math.floor(checker * 0.21)),
    die: Math.floor(checker * 0.74),
    cube: Math.floor(checker * 0.78),
    reserveX,
  };
}

function rgb(c: RGB, alpha = 1): string {
  return alpha >= 1 ? `rgb(${c[0]},${c[1]},${c[2]})` : `rgba(${c[0]},${c[1]},${c[2]},${alpha})`;
}

const SVG = "http://www.w3.org/2000/svg";

function el(tag: string, attrs: Record<string, string | number>, parent?: Element): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  parent?.appendChild(node);
  return node;
}

/** Returns the left x and the row (top or not) of the viewer's point 1..24. */
function column(g: Geometry, point: number): [number, boolean] {
  const index = point <= 12 ? 12 - point : point - 13;
  const half = index >= 6 ? g.rightX : g.leftX;
  return [half + (index % 6) * g.pw, point > 12];
}

/** Returns the centre of the index-th checker (0 against the frame) on a point. */
export function checkerCenter(g: Geometry, point: number, index: number): [number, number] {
  const [x, top] = column(g, point);
  const r = g.checker / 2;
  const shown = Math.min(index, VISIBLE_STACK - 1);
  const y = top ? g.innerTop + r + shown * g.checker : g.innerBottom - r - shown * g.checker;
  return [x + g.pw / 2, y];
}

/** What the board highlights: the picked place, its legal targets, a place to pulse. */
export interface Marks {
  picked: Place | null;
  targets: Place[];
}

function placeKey(place: Place): string {
  return typeof place === "number" ? `p${place}` : place;
}

/** Draws the whole board for `view` into `svg` (replacing what it held). */

/** Graphemes of `text` (user-perceived characters: a flag, a family emoji or a letter with its marks is one). */
function graphemes(text: string): string[] {
  const Segmenter = (Intl as unknown as { Segmenter?: new (locale?: string, options?: object) => unknown }).Segmenter;
  if (!Segmenter) return Array.from(text);
  const segmenter = new Segmenter(undefined, { granularity: "grapheme" }) as {
    segment(input: string): Iterable<{ segment: string }>;
  };
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/** Shows `name` (isolated) and `tag` in `node`, the name cut with "…" to fit `width` when it is too long. */
function fitName(node: SVGTextElement, name: string, tag: string, width: number): void {
  if (!node.getComputedTextLength || node.getComputedTextLength() <= width || width <= 0) return;
  const parts = graphemes(name);
  let low = 0;
  let high = parts.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    node.textContent = `\u2068${parts.slice(0, mid).join("").trimEnd()}…\u2069${tag}`;
    if (node.getComputedTextLength() <= width) low = mid;
    else high = mid - 1;
  }
  node.textContent = `\u2068${parts.slice(0, low).join("").trimEnd()}…\u2069${tag}`;
}

export function drawBoard(svg: SVGSVGElement, view: GameView, themeName: "classic" | "dark", marks: Marks): void {
  const t = THEMES[themeName];
  const g = geometry(view.layout === "reserve");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
  svg.dataset.theme = themeName;
  const top = 1 - view.bottom;
  const bottom = view.bottom;
  const r = g.checker / 2;

  // strips: the top player's name above, the bottom player's below; the side to move lit
  const strips: [number, number][] = [
    [top, 0],
    [bottom, g.height - g.strip],
  ];
  for (const [side, y] of strips) {
    const active = view.turn === side;
    el("rect", { x: 0, y, width: g.width, height: g.strip, fill: rgb(active ? t.stripActive : t.strip) }, svg);
    if (active) {
      const lineY = y === 0 ? g.strip - 3 : y;
      el("rect", { x: 0, y: lineY, width: g.width, height: 3, fill: rgb(t.accent) }, svg);
    }
    const player = view.players[side];
    const tag = view.you === side ? ` (${view.texts["webapp.you"] ?? "you"})` : "";
    const name = el(
      "text",
      {
        x: g.checker * 0.3 + g.checker * 0.9,
        y: y + g.strip * 0.66,
        fill: rgb(active ? t.stripText : t.stripMuted),
        "font-size": g.strip * 0.5,
        "font-weight": active ? 700 : 400,
        class: "name",
        "data-side": side,
      },
      svg,
    );
    // the name isolated (FSI … PDI), so that a right-to-left name keeps the tag after it
    const fullName = `\u2068${player?.name ?? ""}\u2069${tag}`;
    name.textContent = fullName;
    const c = t.checkers[side === 0 ? 0 : 1];
    el(
      "circle",
      { cx: g.checker * 0.65, cy: y + g.strip / 2, r: g.strip * 0.3, fill: rgb(c.body), stroke: rgb(c.rim) },
      svg,
    );
    const score = el(
      "text",
      {
        x: g.width - g.checker * 0.4,
        y: y + g.strip * 0.66,
        fill: rgb(t.stripText),
        "font-size": g.strip * 0.5,
        "text-anchor": "end",
        class: "score",
      },
      svg,
    );
    const points = view.score[side] ?? 0;
    score.textContent = view.match_length > 1 ? `${points} / ${view.match_length}` : "";
    // left of the score, as the Pillow board has it: the muted caption, then the count in bold
    const scoreWidth = score.textContent
      ? (score as SVGTextElement).getComputedTextLength?.() || score.textContent.length * g.strip * 0.3
      : 0;
    const pips = el(
      "text",
      {
        x: g.width - g.checker * 0.4 - (scoreWidth ? scoreWidth + g.strip * 0.45 : 0),
        y: y + g.strip * 0.66,
        "text-anchor": "end",
        class: "pips",
        "data-side": side,
      },
      svg,
    );
    const caption = el("tspan", { fill: rgb(t.stripMuted), "font-size": g.strip * 0.28 }, pips);
    caption.textContent = `${view.texts["board.pips"] ?? "pips"} `;
    const count = el("tspan", { fill: rgb(t.stripText), "font-size": g.strip * 0.42, "font-weight": 700 }, pips);
    count.textContent = String(view.pips[side] ?? 0);
    // a long name is cut (whole characters: a flag or a family emoji is never split) to end before the pips
    const pipsLeft = Number(pips.getAttribute("x")) - ((pips as SVGTextElement).getComputedTextLength?.() || 0);
    fitName(name as SVGTextElement, player?.name ?? "", tag, pipsLeft - Number(name.getAttribute("x")) - g.strip * 0.4);
  }

  // frame and felt
  el("rect", { x: 0, y: g.strip, width: g.width, height: g.height - 2 * g.strip, fill: rgb(t.frame) }, svg);
  for (const x of [g.leftX, g.rightX]) {
    el(
      "rect",
      {
        x,
        y: g.innerTop,
        width: 6 * g.pw,
        height: g.innerBottom - g.innerTop,
        fill: rgb(t.felt),
        stroke: rgb(t.feltEdge),
        "stroke-width": 2,
      },
      svg,
    );
  }
  el(
    "rect",
    {
      x: g.barX,
      y: g.innerTop,
      width: g.rightX - g.barX,
      height: g.innerBottom - g.innerTop,
      fill: rgb(t.bar),
    },
    svg,
  );
  const hits: Partial<Record<"bar" | "off" | "reserve", [number, number, number, number]>> = {
    bar: [g.barX, g.innerTop, g.rightX - g.barX, g.innerBottom - g.innerTop],
  };

  // points (triangles), numbers, and a hit area per point
  const length = Math.floor(g.checker * VISIBLE_STACK * 0.9);
  for (let p = 1; p <= 24; p++) {
    const [x, isTop] = column(g, p);
    const base = isTop ? g.innerTop : g.innerBottom;
    const tip = isTop ? base + length : base - length;
    const colour = p % 2 === 1 ? t.pointA : t.pointB;
    el(
      "polygon",
      { points: `${x + 1},${base} ${x + g.pw - 1},${base} ${x + g.pw / 2},${tip}`, fill: rgb(colour) },
      svg,
    );
    const label = el(
      "text",
      {
        x: x + g.pw / 2,
        y: isTop ? g.innerTop - g.frameV * 0.3 : g.innerBottom + g.frameV * 0.72,
        fill: rgb(t.stripText, 0.85),
        "font-size": g.frameV * 0.6,
        "text-anchor": "middle",
      },
      svg,
    );
    label.textContent = String(p);
  }

  // last move and the turn being built: the points it touched
  const touched = (steps: typeof view.last_move, colour: RGB, cls: string): void => {
    for (const step of steps) {
      for (const place of [step.origin, step.target]) {
        if (typeof place !== "number") continue;
        const [x, isTop] = column(g, place);
        el(
          "rect",
          {
            x: x + 2,
            y: isTop ? g.innerTop : g.innerBottom - length,
            width: g.pw - 4,
            height: length,
            fill: rgb(colour, 0.22),
            class: cls,
          },
          svg,
        );
      }
    }
  };
  touched(view.last_move, t.lastMove, "last-move");
  touched(view.pending, t.pending, "pending");

  // checkers on the points
  const checker = (cx: number, cy: number, side: number, count: number | null, cls = ""): void => {
    const c = t.checkers[side === 0 ? 0 : 1];
    el(
      "circle",
      { cx, cy, r: r - 1, fill: rgb(c.body), stroke: rgb(c.rim), "stroke-width": r * 0.16, class: `checker ${cls}` },
      svg,
    );
    if (count !== null) {
      const text = el(
        "text",
        {
          x: cx,
          y: cy + r * 0.32,
          fill: rgb(c.text),
          "font-size": r * 0.9,
          "font-weight": 700,
          "text-anchor": "middle",
        },
        svg,
      );
      text.textContent = String(count);
    }
  };
  const arrived = new Set(view.last_move.map((s) => s.target));
  for (const pv of view.points) {
    const shown = Math.min(pv.count, VISIBLE_STACK);
    let index = 0;
    if (pv.pinned !== null) {
      const [cx, cy] = checkerCenter(g, pv.point, 0);
      checker(cx, cy, pv.pinned, null, "pinned");
      index = 0.45;
    }
    for (let i = 0; i < shown; i++) {
      const [cx, cy0] = checkerCenter(g, pv.point, i);
      const shift = index * g.checker * (column(g, pv.point)[1] ? 1 : -1);
      const last = i === shown - 1;
      checker(
        cx,
        cy0 + shift,
        pv.owner,
        last && pv.count > VISIBLE_STACK ? pv.count : null,
        last && arrived.has(pv.point) ? "arrived" : "",
      );
    }
  }

  // the bar: the bottom player's checkers below the middle, the top player's above
  const barCx = (g.barX + g.rightX) / 2;
  const mid = (g.innerTop + g.innerBottom) / 2;
  for (const side of [bottom, top]) {
    const count = view.bar[side] ?? 0;
    const down = side === bottom;
    for (let i = 0; i < Math.min(count, VISIBLE_BAR); i++) {
      const cy = down ? mid + r * 1.6 + i * g.checker : mid - r * 1.6 - i * g.checker;
      checker(barCx, cy, side, i === Math.min(count, VISIBLE_BAR) - 1 && count > VISIBLE_BAR ? count : null);
    }
  }

  // bear-off trays at the right: the top player's above, the bottom player's below; reserves at the left
  const trayH = Math.floor((g.innerBottom - g.innerTop) * 0.42);
  const tray = (x: number, side: number, upper: boolean, count: number, place: "off" | "reserve"): void => {
    const y = upper ? g.innerTop : g.innerBottom - trayH;
    el(
      "rect",
      {
        x,
        y,
        width: g.trayW,
        height: trayH,
        rx: 4,
        fill: rgb(t.tray),
        "data-tray": `${place}-${side}`,
      },
      svg,
    );
    if (side === bottom) hits[place] = [x, y, g.trayW, trayH];
    const c = t.checkers[side === 0 ? 0 : 1];
    for (let i = 0; i < count; i++) {
      const sy = upper ? y + 4 + i * g.slab : y + trayH - 4 - (i + 1) * g.slab;
      if (sy < y || sy + g.slab > y + trayH) break;
      el(
        "rect",
        { x: x + 4, y: sy, width: g.trayW - 8, height: g.slab - 1, fill: rgb(c.body), stroke: rgb(c.rim) },
        svg,
      );
    }
    if (count > 0) {
      const text = el(
        "text",
        {
          x: x + g.trayW / 2,
          y: upper ? y + trayH + g.checker * 0.45 : y - g.checker * 0.2,
          fill: rgb(t.stripText),
          "font-size": g.checker * 0.4,
          "text-anchor": "middle",
        },
        svg,
      );
      text.textContent = String(count);
    }
  };
  tray(g.trayX, top, true, view.off[top] ?? 0, "off");
  tray(g.trayX, bottom, false, view.off[bottom] ?? 0, "off");
  if (view.reserve !== null && g.reserveX !== null) {
    tray(g.reserveX, top, true, view.reserve[top] ?? 0, "reserve");
    tray(g.reserveX, bottom, false, view.reserve[bottom] ?? 0, "reserve");
  }

  // the cube: centred between the trays, or in its owner's strip
  if (view.cube.enabled) {
    const s = g.cube;
    const cx = g.trayX + g.trayW / 2;
    const cy = view.cube.owner === null ? mid : view.cube.owner === bottom ? g.height - g.strip / 2 : g.strip / 2;
    const size = view.cube.owner === null ? s : g.strip * 0.8;
    el(
      "rect",
      {
        x: cx - size / 2,
        y: cy - size / 2,
        width: size,
        height: size,
        rx: size * 0.15,
        fill: rgb(t.cubeBody),
        stroke: rgb(view.cube.offered ? t.accent : t.cubeText),
        "stroke-width": view.cube.offered ? 4 : 1,
        class: "cube",
      },
      svg,
    );
    const text = el(
      "text",
      {
        x: cx,
        y: cy + size * 0.2,
        fill: rgb(t.cubeText),
        "font-size": size * 0.55,
        "font-weight": 700,
        "text-anchor": "middle",
      },
      svg,
    );
    text.textContent = String(view.cube.value === 1 ? 64 : view.cube.value);
  }

  // the dice, in the half of the board away from the bar on the right, the used ones dimmed
  if (view.dice !== null) {
    const used = [...view.used_dice];
    const [d1, d2] = view.dice;
    const faces = d1 === d2 ? [d1, d1, d1, d1] : [d1, d2];
    const s = g.die;
    const gap = s * 0.25;
    const total = faces.length * s + (faces.length - 1) * gap;
    let x = g.rightX + 3 * g.pw - total / 2;
    const group = el("g", { class: "dice" }, svg);
    for (const face of faces) {
      const at = used.indexOf(face);
      const spent = at >= 0;
      if (spent) used.splice(at, 1);
      drawDie(group, x, mid - s / 2, s, face, t, spent);
      x += s + gap;
    }
  }

  // hit areas over every point (last, so they take the taps), marked when picked or a target
  const targets = new Set(marks.targets.map(placeKey));
  for (let p = 1; p <= 24; p++) {
    const [x, isTop] = column(g, p);
    const key = `p${p}`;
    const cls = ["place", targets.has(key) ? "target" : "", placeKey(marks.picked ?? 0) === key ? "picked" : ""];
    el(
      "rect",
      {
        x,
        y: isTop ? g.innerTop : mid,
        width: g.pw,
        height: mid - g.innerTop,
        fill: targets.has(key) ? rgb(t.pending, 0.3) : "transparent",
        stroke: targets.has(key) || placeKey(marks.picked ?? 0) === key ? rgb(t.accent) : "none",
        "stroke-width": 3,
        class: cls.filter(Boolean).join(" "),
        "data-place": key,
      },
      svg,
    );
  }
  for (const special of ["bar", "off", "reserve"] as const) {
    const box = hits[special];
    if (!box) continue;
    const marked = targets.has(special) || marks.picked === special;
    const cls = ["place", targets.has(special) ? "target" : "", marks.picked === special ? "picked" : ""];
    el(
      "rect",
      {
        x: box[0],
        y: box[1],
        width: box[2],
        height: box[3],
        fill: targets.has(special) ? rgb(t.pending, 0.3) : "transparent",
        stroke: marked ? rgb(t.accent) : "none",
        "stroke-width": 4,
        class: cls.filter(Boolean).join(" "),
        "data-place": special,
      },
      svg,
    );
  }
}

function drawDie(parent: Element, x: number, y: number, s: number, face: number, t: Theme, spent: boolean): void {
  const group = el("g", { class: spent ? "die spent" : "die", "data-face": face, opacity: spent ? 0.4 : 1 }, parent);
  el("rect", { x, y, width: s, height: s, rx: s * 0.18, fill: rgb(t.dieBody), stroke: rgb(t.diePip, 0.5) }, group);
  const pip = s * 0.1;
  const at = (i: number, j: number): void => {
    el("circle", { cx: x + s * (0.25 + 0.25 * i), cy: y + s * (0.25 + 0.25 * j), r: pip, fill: rgb(t.diePip) }, group);
  };
  const pips: Record<number, [number, number][]> = {
    1: [[1, 1]],
    2: [
      [0, 0],
      [2, 2],
    ],
    3: [
      [0, 0],
      [1, 1],
      [2, 2],
    ],
    4: [
      [0, 0],
      [2, 0],
      [0, 2],
      [2, 2],
    ],
    5: [
      [0, 0],
      [2, 0],
      [1, 1],
      [0, 2],
      [2, 2],
    ],
    6: [
      [0, 0],
      [2, 0],
      [0, 1],
      [2, 1],
      [0, 2],
      [2, 2],
    ],
  };
  for (const [i, j] of pips[face] ?? []) at(i, j);
}
