"""Write the review gallery: ``python -m rendering.gallery OUTDIR [--png] [--width N]``.

Every scene of :mod:`rendering.scenes` is written once per theme as ``OUTDIR/<theme>/<scene>.jpg`` (or ``.png``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from rendering.encode import ImageFormat
from rendering.scenes import SCENES
from rendering.theme import theme_names


def write_gallery(outdir: Path, *, fmt: ImageFormat = "jpeg", width: int = 1280) -> list[Path]:
    """Write every scene in every theme under ``outdir``; return the paths written.

    Raises:
        OSError: ``outdir`` cannot be created or written.
        ValueError: ``width`` is outside the renderer's range.
    """
    written: list[Path] = []
    suffix = ".jpg" if fmt == "jpeg" else ".png"
    for theme in theme_names():
        folder = outdir / theme
        folder.mkdir(parents=True, exist_ok=True)
        for name, scene in SCENES.items():
            path = folder / f"{name}{suffix}"
            path.write_bytes(scene(theme, width, fmt))
            written.append(path)
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
