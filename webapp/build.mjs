// Builds the Mini App into ../bot/webapp/static/ (or the folder given as the first argument): app.js (the bundled
// TypeScript), app.css and index.html, which the bot's package ships as its data and serves. The output depends only
// on the sources, so a rebuild can be compared with the committed one.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const out = process.argv[2] ?? join("..", "bot", "webapp", "static");
mkdirSync(out, { recursive: true });
await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  outfile: join(out, "app.js"),
  legalComments: "none",
  logLevel: "warning",
});
await build({
  entryPoints: ["style.css"],
  bundle: true,
  minify: true,
  outfile: join(out, "app.css"),
  logLevel: "warning",
});
copyFileSync("index.html", join(out, "index.html"));
