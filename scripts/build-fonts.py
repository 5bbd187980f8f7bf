"""Rebuild the fallback fonts of ``rendering/fonts/`` from Debian's Noto packages, and their coverage table.

Usage (from the repository root, with fontTools installed: ``pip install fonttools``)::

    mkdir -p /tmp/noto && cd /tmp/noto && apt-get download fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
    for deb in *.deb; do dpkg-deb -x "$deb" root; done
    cd - && python scripts/build-fonts.py /tmp/noto/root [--out FOLDER]

The output is the same bytes on every run (the fonts keep the Debian files' timestamps).

Debian 12 (bookworm) packages: fonts-noto-core 20201225-1, fonts-noto-cjk 1:20220127+repack1-1,
fonts-noto-color-emoji 2.042-0+deb12u1. What is written (all fonts under the SIL Open Font License 1.1; each package's
``copyright`` file, which holds the licence text, is copied as ``LICENSE-<package>.txt``):

* the bold face of Noto Sans for each script of :data:`SCRIPT_FONTS`, unchanged (names are drawn bold);
* Noto Sans Math and Noto Sans Symbols/Symbols2, subset to the characters DejaVu Sans lacks;
* Noto Sans CJK SC Bold subset to :func:`cjk_characters` (GB 2312, JIS X 0208 level 1, Big5 level 1 and KS X 1001:
  every Hanzi/Kanji of those everyday sets, 9,246 in all, kana, the 2,350 common Hangul syllables, CJK punctuation,
  fullwidth forms), without hints (1 MB less; no visible change at 14-22 px);
* Noto Color Emoji with its bitmaps scaled from the 109 ppem strike to :data:`EMOJI_PPEM` and reduced to
  :data:`EMOJI_COLOURS` colours each (names are drawn at 12-40 px, so nothing visible is lost);
* ``coverage.json``: for every font the renderer uses (DejaVu Sans included) the code point ranges its cmap maps,
  so that the renderer picks a font per character without parsing fonts at run time.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from PIL import Image

FONTS = Path(__file__).resolve().parents[1] / "rendering" / "fonts"
NOTO = Path("usr/share/fonts/truetype/noto")
CJK = Path("usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")
CJK_FACE = "Noto Sans CJK SC Bold"
EMOJI_PPEM = 64
EMOJI_COLOURS = 64
EMOJI_FILE = "NotoColorEmoji-64.ttf"

# file in the package -> the blocks whose characters the renderer sets in it before trying DejaVu Sans
SCRIPT_FONTS: dict[str, list[tuple[int, int]]] = {
    "NotoSansArabic-Bold.ttf": [
        (0x0600, 0x06FF),
        (0x0750, 0x077F),
        (0x08A0, 0x08FF),
        (0xFB50, 0xFDFF),
        (0xFE70, 0xFEFF),
    ],
    "NotoSansHebrew-Bold.ttf": [(0x0590, 0x05FF), (0xFB1D, 0xFB4F)],
    "NotoSansGeorgian-Bold.ttf": [(0x10A0, 0x10FF), (0x1C90, 0x1CBF), (0x2D00, 0x2D2F)],
    "NotoSansArmenian-Bold.ttf": [(0x0530, 0x058F), (0xFB13, 0xFB17)],
    "NotoSansDevanagari-Bold.ttf": [(0x0900, 0x097F), (0xA8E0, 0xA8FF)],
    "NotoSansBengali-Bold.ttf": [(0x0980, 0x09FF)],
    "NotoSansGurmukhi-Bold.ttf": [(0x0A00, 0x0A7F)],
    "NotoSansGujarati-Bold.ttf": [(0x0A80, 0x0AFF)],
    "NotoSansTamil-Bold.ttf": [(0x0B80, 0x0BFF)],
    "NotoSansTelugu-Bold.ttf": [(0x0C00, 0x0C7F)],
    "NotoSansKannada-Bold.ttf": [(0x0C80, 0x0CFF)],
    "NotoSansMalayalam-Bold.ttf": [(0x0D00, 0x0D7F)],
    "NotoSansSinhala-Bold.ttf": [(0x0D80, 0x0DFF)],
    "NotoSansThai-Bold.ttf": [(0x0E00, 0x0E7F)],
    "NotoSansLao-Bold.ttf": [(0x0E80, 0x0EFF)],
    "NotoSansMyanmar-Bold.ttf": [(0x1000, 0x109F)],
    "NotoSansEthiopic-Bold.ttf": [(0x1200, 0x139F), (0x2D80, 0x2DDF)],
    "NotoSansKhmer-Bold.ttf": [(0x1780, 0x17FF), (0x19E0, 0x19FF)],
}
# subset to what DejaVu Sans Bold lacks
GAP_FONTS = ["NotoSansMath-Regular.ttf", "NotoSansSymbols-Bold.ttf", "NotoSansSymbols2-Regular.ttf"]
LICENCES = {
    "fonts-noto-core": "LICENSE-noto-core.txt",
    "fonts-noto-cjk": "LICENSE-noto-cjk.txt",
    "fonts-noto-color-emoji": "LICENSE-noto-color-emoji.txt",
}


def _decode_rows(codec: str, rows: range, cols: range) -> set[int]:
    found: set[int] = set()
    for row in rows:
        for col in cols:
            try:
                text = bytes((row, col)).decode(codec)
            except UnicodeDecodeError:
                continue
            found.update(ord(char) for char in text)
    return found


def cjk_characters() -> set[int]:
    """Return the code points kept in the CJK subset."""
    chars: set[int] = set()
    chars |= _decode_rows("gb2312", range(0xA1, 0xF8), range(0xA1, 0xFF))  # all of GB 2312: 6,763 Hanzi + symbols
    chars |= _decode_rows("euc_jp", range(0xA1, 0xD0), range(0xA1, 0xFF))  # JIS X 0208 non-kanji + level 1 kanji
    chars |= _decode_rows("big5", range(0xA1, 0xC7), range(0x40, 0xFF))  # Big5 symbols + level 1 (5,401 Hanzi)
    chars |= _decode_rows("euc_kr", range(0xA1, 0xC9), range(0xA1, 0xFF))  # KS X 1001 symbols + 2,350 Hangul
    for start, end in [(0x3000, 0x303F), (0x3040, 0x30FF), (0x31F0, 0x31FF), (0x3100, 0x312F), (0xFF00, 0xFFEF)]:
        chars.update(range(start, end + 1))
    chars.update(range(0x3131, 0x318F))  # Hangul compatibility jamo
    return {c for c in chars if c >= 0x2E80}  # Latin, Greek, Cyrillic and symbols stay DejaVu's


def ranges(code_points: Iterable[int]) -> list[list[int]]:
    """Return sorted code points as ``[start, end]`` pairs of consecutive runs."""
    out: list[list[int]] = []
    for cp in sorted(code_points):
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def _subset(font: TTFont, unicodes: Iterable[int], target: Path, *, hinting: bool = True) -> None:
    options = subset.Options()
    options.hinting = hinting
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes))
    subsetter.subset(font)
    font.save(str(target))


def scale_emoji(source: Path, target: Path) -> None:
    """Write Noto Color Emoji with its one CBDT strike scaled to :data:`EMOJI_PPEM` pixels per em."""
    font = TTFont(str(source), recalcTimestamp=False)
    strike = font["CBLC"].strikes[0]
    table = strike.bitmapSizeTable
    k = EMOJI_PPEM / table.ppemX
    for glyph in font["CBDT"].strikeData[0].values():
        metrics = glyph.metrics
        image = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
        size = (max(1, round(metrics.width * k)), max(1, round(metrics.height * k)))
        image = image.resize(size, Image.Resampling.LANCZOS)
        image = image.quantize(EMOJI_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        buffer = io.BytesIO()
        image.save(buffer, "PNG", optimize=True)
        glyph.imageData = buffer.getvalue()
        metrics.width, metrics.height = size
        metrics.BearingX = round(metrics.BearingX * k)
        metrics.BearingY = round(metrics.BearingY * k)
        metrics.Advance = round(metrics.Advance * k)
    table.ppemX = table.ppemY = EMOJI_PPEM
    for line in (table.hori, table.vert):
        for name in ("ascender", "descender", "widthMax", "minOriginSB", "minAdvanceSB", "maxBeforeBL", "minAfterBL"):
            setattr(line, name, round(getattr(line, name) * k))
    font.save(str(target))


def cmap_of(path: Path) -> set[int]:
    """Return the code points ``path``'s cmap maps."""
    return set(TTFont(str(path), fontNumber=0, lazy=True).getBestCmap())


def main() -> int:
    """Rebuild the fonts and ``coverage.json``; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", type=Path, help="folder the Debian packages were extracted into (dpkg-deb -x)")
    parser.add_argument("--out", type=Path, default=FONTS, help="folder to write into (default rendering/fonts)")
    args = parser.parse_args()
    root, out = args.root, args.out
    out.mkdir(parents=True, exist_ok=True)
    if out.resolve() != FONTS:
        for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
            shutil.copyfile(FONTS / name, out / name)
    dejavu = cmap_of(FONTS / "DejaVuSans-Bold.ttf")

    for name in SCRIPT_FONTS:
        shutil.copyfile(root / NOTO / name, out / name)
    emoji_source = root / NOTO / "NotoColorEmoji.ttf"
    emoji = cmap_of(emoji_source)
    for name in GAP_FONTS:
        source = root / NOTO / name
        _subset(TTFont(str(source), recalcTimestamp=False), cmap_of(source) - dejavu - emoji, out / name)
    collection = TTCollection(str(root / CJK), recalcTimestamp=False)
    cjk = next(f for f in collection.fonts if f["name"].getDebugName(4) == CJK_FACE)
    _subset(cjk, cjk_characters() & set(cjk.getBestCmap()), out / "NotoSansCJKsc-Bold-subset.otf", hinting=False)
    scale_emoji(emoji_source, out / EMOJI_FILE)
    for package, licence in LICENCES.items():
        shutil.copyfile(root / "usr/share/doc" / package / "copyright", out / licence)

    files = [
        "DejaVuSans.ttf",
        "DejaVuSans-Bold.ttf",
        *SCRIPT_FONTS,
        *GAP_FONTS,
        "NotoSansCJKsc-Bold-subset.otf",
        EMOJI_FILE,
    ]
    coverage = {
        "emoji": {"file": EMOJI_FILE, "strike": EMOJI_PPEM},
        "prefer": {name: [list(block) for block in blocks] for name, blocks in SCRIPT_FONTS.items()},
        "fonts": {name: ranges(cmap_of(out / name)) for name in files},
    }
    (out / "coverage.json").write_text(json.dumps(coverage, separators=(",", ":")) + "\n", encoding="utf-8")
    for name in [*files, "coverage.json"]:
        print(f"{(out / name).stat().st_size:>10,}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
