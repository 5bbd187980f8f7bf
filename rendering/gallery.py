"""Write the review gallery: ``python -m rendering.gallery OUTDIR [--png] [--width N] [--before EARLIER]``.

Every scene of :mod:`rendering.scenes` is written once per theme as ``OUTDIR/<theme>/<scene>.jpg`` (or ``.png``),
with a copy scaled to :data:`PREVIEW_WIDTH` pixels (the width of Telegram's chat preview) as
``OUTDIR/<theme>/preview/<scene>.jpg`` and that preview as players with protanopia and deuteranopia see it
(``preview-protanopia/``, ``preview-deuteranopia/``; :mod:`rendering.colour_vision`). ``OUTDIR/index.html`` shows
them all: each picture at its own size next to its previews.

``--before EARLIER`` compares with a gallery written earlier (by an older checkout, say ``git worktree add``): every
picture whose preview changed is shown before and after, in normal vision and through both simulations, at the top
of the page; the unchanged ones are listed by name.
"""

from __future__ import annotations

import argparse
import html
import io
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import numpy as np
from PIL import Image

from rendering.colour_vision import Deficiency, simulate_image
from rendering.encode import ImageFormat, encode
from rendering.scenes import SCENES
from rendering.theme import theme_names

PREVIEW_WIDTH: Final = 600
"""The width Telegram shows a photo at in a chat (the preview), in pixels."""
SIMULATED: Final[tuple[Deficiency, ...]] = ("protanopia", "deuteranopia")
"""The colour-vision deficiencies each preview is also shown through (the red-green ones, about 1 man in 12)."""


def preview(data: bytes, fmt: ImageFormat) -> bytes:
    """Return the encoded image ``data`` scaled down to :data:`PREVIEW_WIDTH` pixels wide (kept if narrower)."""
    image: Image.Image = Image.open(io.BytesIO(data))
    image.load()
    if image.width > PREVIEW_WIDTH:
        height = max(1, round(image.height * PREVIEW_WIDTH / image.width))
        image = image.convert("RGB").resize((PREVIEW_WIDTH, height), Image.Resampling.LANCZOS)
    return encode(image.convert("RGB"), fmt)


def _figure(src: str, caption: str, width: int | None = None) -> str:
    size = f' width="{width}"' if width else ""
    return (
        f'<figure><a href="{html.escape(src)}"><img src="{html.escape(src)}"{size} alt="{html.escape(caption)}"></a>'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def _variants(rel: Path, kind: str) -> list[tuple[str, str]]:
    """Return ``(path, caption)`` of a picture's preview and its simulations in the folders of ``kind``."""
    name, theme = rel.name, rel.parent
    shown = [((theme / kind / name).as_posix(), f"{kind}, {PREVIEW_WIDTH} px")]
    shown += [((theme / f"{kind}-{d}" / name).as_posix(), f"{kind}, {d}") for d in SIMULATED]
    return shown


def write_index(outdir: Path, pictures: Sequence[Path], changed: Sequence[Path] | None = None) -> Path:
    """Write ``outdir/index.html`` showing every picture of ``pictures`` (paths relative to ``outdir``) with its
    previews; with ``changed`` (a comparison was asked for), those pictures come first, each next to its earlier
    preview, in normal vision and through the simulations, and the others are only named. Return the page's path.

    Raises:
        OSError: the file cannot be written.
    """
    rows: list[str] = []
    listed = list(pictures) if changed is None else list(changed)
    for rel in listed:
        title = html.escape(rel.as_posix())
        figures = [_figure(rel.as_posix(), "full size", None)]
        after = _variants(rel, "preview")
        if changed is not None:
            before = _variants(rel, "before")
            for (old, old_caption), (new, new_caption) in zip(before, after, strict=True):
                figures += [
                    _figure(old, old_caption, PREVIEW_WIDTH // 2),
                    _figure(new, new_caption, PREVIEW_WIDTH // 2),
                ]
        else:
            figures += [_figure(src, caption, PREVIEW_WIDTH) for src, caption in after[:1]]
            figures += [_figure(src, caption, PREVIEW_WIDTH // 2) for src, caption in after[1:]]
        rows.append(f'<section><h2>{title}</h2><div class="pair">{"".join(figures)}</div></section>')
    heading = "Nardy rendering gallery"
    if changed is not None:
        same = [rel.as_posix() for rel in pictures if rel not in changed]
        heading += f": {len(changed)} pictures changed, {len(same)} unchanged"
        rows.append("<section><h2>Unchanged</h2><p>" + html.escape(", ".join(same) or "none") + "</p></section>")
    page = (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(heading)}</title>'
        "<style>body{font-family:sans-serif;background:#222;color:#eee;margin:1em}"
        ".pair{display:flex;gap:1em;align-items:flex-start;flex-wrap:wrap}img{max-width:100%}"
        f"figure{{margin:0}}h2{{font-size:1em}}</style></head><body>\n<h1>{html.escape(heading)}</h1>\n"
        + "\n".join(rows)
        + "\n</body></html>\n"
    )
    index = outdir / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def _write_previews(folder: Path, kind: str, name: str, image: Image.Image, fmt: ImageFormat) -> list[Path]:
    """Write ``image`` as ``folder/kind/name`` and through each simulation; return the paths written."""
    written: list[Path] = []
    for sub, shown in [(kind, image)] + [(f"{kind}-{d}", simulate_image(image, d)) for d in SIMULATED]:
        (folder / sub).mkdir(parents=True, exist_ok=True)
        path = folder / sub / name
        path.write_bytes(encode(shown.convert("RGB"), fmt))
        written.append(path)
    return written


def _looks_the_same(first: Image.Image, second: Image.Image) -> bool:
    """Return whether two previews show the same picture (the same size, at most 2 levels apart anywhere: an
    encoder's rounding is not a change)."""
    if first.size != second.size:
        return False
    diff = np.abs(np.asarray(first.convert("RGB"), np.int16) - np.asarray(second.convert("RGB"), np.int16))
    return int(diff.max()) <= 2


def _earlier_preview(before: Path, theme: str, name: str) -> Image.Image | None:
    stem = Path(name).stem
    for suffix in (".png", ".jpg"):
        path = before / theme / "preview" / f"{stem}{suffix}"
        if path.is_file():
            with Image.open(path) as image:
                return image.convert("RGB")
    return None


def write_gallery(
    outdir: Path, *, fmt: ImageFormat = "jpeg", width: int = 1280, before: Path | None = None
) -> list[Path]:
    """Write every scene in every theme under ``outdir``, each with its :data:`PREVIEW_WIDTH` preview and the
    preview's simulations, and ``index.html`` showing them; with ``before`` (an earlier gallery's folder), the earlier
    previews of the pictures that changed too (``<theme>/before*/``; a picture the earlier gallery lacks counts as
    changed, next to an empty frame). Return the paths written (the page last).

    Raises:
        OSError: ``outdir`` cannot be created or written.
        ValueError: ``width`` is outside the renderer's range.
    """
    written: list[Path] = []
    pictures: list[Path] = []
    changed: list[Path] = []
    suffix = ".jpg" if fmt == "jpeg" else ".png"
    for theme in theme_names():
        folder = outdir / theme
        folder.mkdir(parents=True, exist_ok=True)
        for name, scene in SCENES.items():
            path = folder / f"{name}{suffix}"
            data = scene(theme, width, fmt)
            path.write_bytes(data)
            small = Image.open(io.BytesIO(preview(data, fmt))).convert("RGB")
            written += [path, *_write_previews(folder, "preview", path.name, small, fmt)]
            pictures.append(path.relative_to(outdir))
            if before is None:
                continue
            earlier = _earlier_preview(before, theme, path.name)
            if earlier is None or not _looks_the_same(earlier, small):
                blank = Image.new("RGB", small.size, (34, 34, 34))
                written += _write_previews(folder, "before", path.name, earlier or blank, fmt)
                changed.append(path.relative_to(outdir))
    written.append(write_index(outdir, pictures, None if before is None else changed))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 on success)."""
    parser = argparse.ArgumentParser(prog="python -m rendering.gallery", description=__doc__)
    parser.add_argument("outdir", type=Path, help="folder to write the images into")
    parser.add_argument("--png", action="store_true", help="write PNG instead of JPEG")
    parser.add_argument("--width", type=int, default=1280, help="board width in pixels (default 1280)")
    parser.add_argument("--before", type=Path, help="an earlier gallery's folder: show what changed, before and after")
    args = parser.parse_args(argv)
    fmt: ImageFormat = "png" if args.png else "jpeg"
    for path in write_gallery(args.outdir, fmt=fmt, width=args.width, before=args.before):
        print(f"{path}  {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
