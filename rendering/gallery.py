"""Write the review gallery: ``python -m rendering.gallery OUTDIR [--png] [--width N]``.

Every scene of :mod:`rendering.scenes` is written once per theme as ``OUTDIR/<theme>/<scene>.jpg`` (or ``.png``),
with a copy scaled to :data:`PREVIEW_WIDTH` pixels (the width of Telegram's chat preview) as
``OUTDIR/<theme>/preview/<scene>.jpg``, and ``OUTDIR/index.html`` shows them all: each picture at its own size next
to its preview.
"""

from __future__ import annotations

import argparse
import html
import io
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from PIL import Image

from rendering.encode import ImageFormat, encode
from rendering.scenes import SCENES
from rendering.theme import theme_names

PREVIEW_WIDTH: Final = 600
"""The width Telegram shows a photo at in a chat (the preview), in pixels."""


def preview(data: bytes, fmt: ImageFormat) -> bytes:
    """Return the encoded image ``data`` scaled down to :data:`PREVIEW_WIDTH` pixels wide (kept if narrower)."""
    image: Image.Image = Image.open(io.BytesIO(data))
    image.load()
    if image.width > PREVIEW_WIDTH:
        height = max(1, round(image.height * PREVIEW_WIDTH / image.width))
        image = image.convert("RGB").resize((PREVIEW_WIDTH, height), Image.Resampling.LANCZOS)
    return encode(image.convert("RGB"), fmt)


def write_index(outdir: Path, written: Sequence[Path]) -> Path:
    """Write ``outdir/index.html`` showing every image of ``written`` (paths under ``outdir``; previews under a
    ``preview`` folder are shown next to their picture); return its path.

    Raises:
        OSError: the file cannot be written.
    """
    rows: list[str] = []
    for path in written:
        if path.parent.name == "preview":
            continue
        rel = path.relative_to(outdir).as_posix()
        small = path.parent / "preview" / path.name
        small_rel = small.relative_to(outdir).as_posix()
        title = html.escape(rel)
        rows.append(
            f'<section><h2>{title}</h2><div class="pair">'
            f'<figure><a href="{html.escape(rel)}"><img src="{html.escape(rel)}" alt="{title}"></a>'
            f"<figcaption>full size</figcaption></figure>"
            f'<figure><img src="{html.escape(small_rel)}" width="{PREVIEW_WIDTH}" alt="{title}, preview">'
            f"<figcaption>{PREVIEW_WIDTH} px (Telegram preview)</figcaption></figure></div></section>"
        )
    page = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Nardy rendering gallery</title>'
        "<style>body{font-family:sans-serif;background:#222;color:#eee;margin:1em}"
        ".pair{display:flex;gap:1em;align-items:flex-start;flex-wrap:wrap}img{max-width:100%}"
        "figure{margin:0}h2{font-size:1em}</style></head><body>\n<h1>Nardy rendering gallery</h1>\n"
        + "\n".join(rows)
        + "\n</body></html>\n"
    )
    index = outdir / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def write_gallery(outdir: Path, *, fmt: ImageFormat = "jpeg", width: int = 1280) -> list[Path]:
    """Write every scene in every theme under ``outdir``, each with its :data:`PREVIEW_WIDTH` preview, and
    ``index.html`` showing them; return the paths written (the page last).

    Raises:
        OSError: ``outdir`` cannot be created or written.
        ValueError: ``width`` is outside the renderer's range.
    """
    written: list[Path] = []
    suffix = ".jpg" if fmt == "jpeg" else ".png"
    for theme in theme_names():
        folder = outdir / theme
        (folder / "preview").mkdir(parents=True, exist_ok=True)
        for name, scene in SCENES.items():
            path = folder / f"{name}{suffix}"
            data = scene(theme, width, fmt)
            path.write_bytes(data)
            small = folder / "preview" / path.name
            small.write_bytes(preview(data, fmt))
            written += [path, small]
    written.append(write_index(outdir, written))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 on success)."""
    parser = argparse.ArgumentParser(prog="python -m rendering.gallery", description=__doc__)
    parser.add_argument("outdir", type=Path, help="folder to write the images into")
    parser.add_argument("--png", action="store_true", help="write PNG instead of JPEG")
    parser.add_argument("--width", type=int, default=1280, help="board width in pixels (default 1280)")
    args = parser.parse_args(argv)
    fmt: ImageFormat = "png" if args.png else "jpeg"
    for path in write_gallery(args.outdir, fmt=fmt, width=args.width):
        print(f"{path}  {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
