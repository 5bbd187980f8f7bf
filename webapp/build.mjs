// Builds the Mini App into dist/ (or the folder given as the first argument): app.js (the bundled TypeScript),
// app.css and index.html. The output depends only on the sources, so a rebuild can be compared with dist/.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const out = process.argv[2] ?? "dist";
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
