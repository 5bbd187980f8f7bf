"""``/history`` end to end: the list of a user's finished games in a chat, its Export button, and the replay on one
message whose buttons step through the game frame by frame."""

from __future__ import annotations

from bot.keyboards.callbacks import ReplayCb
from bot.storage import Store
from bot.texts import tr
from tests.bot.e2e.helpers import Env
from tests.bot.e2e.test_export import play_and_resign
from tests.bot.e2e.texts import EN, RU, has_entry, shown


def _frame(content: str, game_id: str, n: int, total: int) -> bool:
    """Return whether ``content`` is the replay of ``game_id`` at frame ``n`` of ``total``."""
    return has_entry(content, EN, "history.frame", game=game_id, n=n, total=total)


async def test_history_lists_finished_games_and_replays_them(sqlite_store: Store) -> None:
    env = Env(sqlite_store, None)
    fake, h = env.fake, env.h
    first = await play_and_resign(env, -920, "short")
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(-920)
    await h.send_text(alice, group, "/history")
    listing = fake.last_message(-920)
    assert listing.content.splitlines()[0] == shown(EN, "history.title")
    assert has_entry(listing.content, EN, "history.line", variant=tr(EN, "variant.short"), opponent="Bob")
    assert listing.button_texts() == ["▶ 1", "📄 1"]

    await h.press_button(bob, listing, "📄 1")  # the Export button: the record's files
    names = [m.document_name for m in fake.messages(-920) if m.document is not None]
    assert names == [f"nardy-{first}.mat", f"nardy-{first}.json"]

    await h.press_button(alice, listing, "▶ 1")  # the replay starts at the first frame
    replay = fake.last_message(-920)
    assert replay.photo is not None and has_entry(replay.content, EN, "history.frame", game=first, n=1), replay.content
    total = int(replay.content.split(" 1/")[1].split()[0])
    assert total >= 4
    await h.press_button(bob, replay, "▶")
    assert _frame(replay.content, first, 2, total) and replay.edits == 1
    await h.press_button(bob, replay, "⏭")
    assert _frame(replay.content, first, total, total)
    await h.press_button(bob, replay, "◀")
    assert _frame(replay.content, first, total - 1, total)
    await h.press_button(bob, replay, "⏮")
    assert _frame(replay.content, first, 1, total)
    # a forged frame number beyond the end shows the last frame; a forged game id is refused without an edit
    edits = replay.edits
    await h.press(bob, -920, replay.message_id, ReplayCb(game_id=first, frame=99_999).pack())
    assert _frame(replay.content, first, total, total) and replay.edits == edits + 1
    await h.press(bob, -920, replay.message_id, ReplayCb(game_id="ZZZZZZZZZZ", frame=1).pack())
    assert replay.edits == edits + 1

    eve = fake.user(5, "Eve", "ru")
    await h.send_text(eve, group, "/history")  # Eve played nothing here
    assert fake.last_message(-920).content == shown(RU, "history.none")
    await env.close()
