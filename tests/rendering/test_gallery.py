"""The review gallery writes every scene, its 600 px preview and an index page showing them all."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

from rendering.gallery import PREVIEW_WIDTH, main
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
            assert {full, small} <= sources, scene
            assert Image.open(tmp_path / full).format == "JPEG"
            with Image.open(tmp_path / small) as preview:
                assert preview.width == min(PREVIEW_WIDTH, Image.open(tmp_path / full).width)
    assert {"hard_names_board", "hard_names_standings", "hard_names_bracket", "hard_names_leaderboard"} <= set(SCENES)
    assert all((tmp_path / source).is_file() for source in sources)
