"""The review gallery writes every scene, its 600 px preview and an index page showing them all."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

from rendering.gallery import PREVIEW_WIDTH, main
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
            assert {full, small} <= sources, scene
            assert Image.open(tmp_path / full).format == "JPEG"
            with Image.open(tmp_path / small) as preview:
                assert preview.width == min(PREVIEW_WIDTH, Image.open(tmp_path / full).width)
    assert {"hard_names_board", "hard_names_standings", "hard_names_bracket", "hard_names_leaderboard"} <= set(SCENES)
    assert all((tmp_path / source).is_file() for source in sources)


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
