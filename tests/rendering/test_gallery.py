"""The review gallery writes every scene, its 600 px preview and the preview through the colour-vision simulations,
an index page showing them all, and with ``--before`` a comparison with an earlier gallery."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

from rendering.gallery import PREVIEW_WIDTH, SIMULATED, main
from rendering.scenes import SCENES
from rendering.theme import theme_names


def test_gallery_writes_images_previews_and_index(tmp_path: Path) -> None:
    assert main([str(tmp_path), "--width", "640"]) == 0
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    sources = set(re.findall(r'<img src="([^"]+)"', page))
    for theme in theme_names():
        for scene in SCENES:
            full = f"{theme}/{scene}.jpg"
            small = f"{theme}/preview/{scene}.jpg"
            simulated = {f"{theme}/preview-{deficiency}/{scene}.jpg" for deficiency in SIMULATED}
            assert {full, small} | simulated <= sources, scene
            assert Image.open(tmp_path / full).format == "JPEG"
            with Image.open(tmp_path / small) as preview:
                assert preview.width == min(PREVIEW_WIDTH, Image.open(tmp_path / full).width)
    assert {"hard_names_board", "hard_names_standings", "hard_names_bracket", "hard_names_leaderboard"} <= set(SCENES)
    assert all((tmp_path / source).is_file() for source in sources)


def test_gallery_compares_with_an_earlier_one_showing_only_what_changed(tmp_path: Path) -> None:
    earlier, later = tmp_path / "earlier", tmp_path / "later"
    assert main([str(earlier), "--png", "--width", "480"]) == 0
    altered = earlier / "classic" / "preview" / "short_opening.png"
    with Image.open(altered) as image:
        image.convert("RGB").transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(altered)
    (earlier / "dark" / "preview" / "long_name.png").unlink()  # a scene the earlier gallery lacks
    assert main([str(later), "--png", "--width", "480", "--before", str(earlier)]) == 0
    page = (later / "index.html").read_text(encoding="utf-8")
    total = len(SCENES) * len(theme_names())
    assert f"2 pictures changed, {total - 2} unchanged" in page
    shown = set(re.findall(r'<img src="([^"]+)"', page))
    for picture in ("classic/short_opening.png", "dark/long_name.png"):
        theme, name = picture.split("/")
        kinds = ["before", "preview"] + [f"{kind}-{d}" for kind in ("before", "preview") for d in SIMULATED]
        assert {f"{theme}/{kind}/{name}" for kind in kinds} <= shown
        assert all((later / src).is_file() for src in shown)
    assert "classic/short_bar.png" not in shown  # unchanged pictures are only named
    assert "classic/short_bar.png" in page
