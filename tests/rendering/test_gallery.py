"""The review gallery writes every scene, its 600 px preview and the preview through the colour-vision simulations,
an index page showing them all, and with ``--before`` a comparison with an earlier gallery."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

from rendering.gallery import PREVIEW_WIDTH, SIMULATED, main
from rendering.scenes import SCENES, TOURNAMENT_SCENES
from rendering.theme import theme_names
from tournaments import Elimination
from tournaments.model import game_points


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


def test_every_table_and_bracket_scene_keeps_the_rules() -> None:
    """Each standings or bracket scene draws a tournament whose every decided match was won by the player who scored
    more game points (or by forfeit, 0–0), and whose bracket marks that player as the winner."""
    drawn = {name for name in SCENES if any(word in name for word in ("standings", "bracket", "elimination"))}
    assert drawn == set(TOURNAMENT_SCENES)
    for name, build in TOURNAMENT_SCENES.items():
        tournament = build()
        assert tournament.played(), name
        for match, result in tournament.played():
            assert result.winner in (match.first, match.second), (name, match.id)
            won, lost = game_points(match, result, result.winner)
            if result.forfeit:
                assert (won, lost) == (0, 0), (name, match.id)
            else:
                assert won > lost, (name, match.id, won, lost)
        if isinstance(tournament, Elimination):
            decided = {match.id: result for match, result in tournament.played()}
            for node in tournament.bracket():
                if node.result is not None:
                    assert node.winner == node.result.winner == decided[node.id].winner, (name, node.id)
