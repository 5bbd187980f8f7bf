"""The other games (nackgammon, hypergammon, Portes, Plakoto, Fevga, misère, Gul bara, acey-deucey, Dutch, Tavli and
the mixed match) end to end through the real Dispatcher: challenged in a group and played to the end by buttons or
with typed moves, against the computer, in a tournament, and in /rules, /settings, /rating, /top and the start
menu's chooser."""

from __future__ import annotations

import pytest
from aiogram.types import User

from bot.handlers import computer as computer_handlers
from bot.handlers.challenge import parse_new_args
from bot.handlers.rules import rules_text
from bot.storage import Store
from bot.texts import tr
from bot.variants import MAIN, OFFERED, computer_plays, game_name, resolve
from nardy import Phase
from nardy.ai import get_player
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, GAME_OVER, RU, entry_pattern, has_entry, opens_with, shown
from tests.bot.e2e.tournament_drive import active_games, open_bot, open_tournament, record_of, tournament_env

NEW = tuple(v for v in OFFERED if v not in MAIN)
RUSSIAN = {
    "nackgammon": "наккгаммон",
    "hypergammon": "гипергаммон",
    "portes": "портес",
    "plakoto": "плакото",
    "fevga": "февга",
    "misere": "поддавки",
    "gulbara": "гюльбара",
    "acey_deucey": "американка",
    "dutch": "голландские",
    "tavli": "тавли",
    "mixed": "смешанный",
}
MAX_ACTIONS = 3000


def test_every_offered_variant_resolves_by_its_names() -> None:
    assert OFFERED == (
        "short", "long", "nackgammon", "hypergammon", "portes", "plakoto", "fevga", "misere", "gulbara",
        "acey_deucey", "dutch", "tavli", "mixed",
    )  # fmt: skip
    for variant in OFFERED:
        assert resolve(variant) == resolve(variant.upper()) == variant
    for variant, russian in RUSSIAN.items():
        assert resolve(russian) == variant
    assert resolve("длинные") == "long" and resolve("backgammon") == "short" and resolve("misère") == "misere"
    assert resolve("acey-deucey") == "acey_deucey" and resolve("гюльбар") == "gulbara"
    assert resolve("chess") is None and resolve("") is None
    assert parse_new_args("поддавки match 3") == ("misere", 3)
    assert parse_new_args("hypergammon") == ("hypergammon", 0)
    assert parse_new_args("тавли") == ("tavli", 7) and parse_new_args("tavli match 3") == ("tavli", 3)
    assert parse_new_args("mixed match 5") == ("mixed", 0)  # three games and deciders: no length
    assert parse_new_args("nonsense", "portes") == ("portes", 0)
    assert parse_new_args("", "chess") == ("short", 0)  # a stored default no longer offered


async def _finish_game(
    env: Env, game_id: str, chat_id: int, users: dict[int, User], *, typed_turns: int = 0
) -> tuple[int | None, int]:
    """Play the game in ``chat_id`` to its end: type the first legal move for ``typed_turns`` moves, then press
    the first offered button of the board. Returns: the winner's index (None for a draw) and the typed moves."""
    typed = 0
    for _ in range(MAX_ACTIONS):
        stored, match = await state(env, game_id)
        if stored.finished or match.game.phase is Phase.OVER:
            result = match.game.result
            assert result is not None
            return result.winner, typed
        user = awaited_user(stored, match, users)
        game = match.game
        if typed < typed_turns and game.phase is Phase.MOVE and not stored.data.get("pending_steps"):
            version = stored.version
            notation = game.legal_moves()[0].notation
            await env.h.send_text(user, env.fake.chat_objects[chat_id], notation)
            after, _ = await state(env, game_id)
            assert after.version == version + 1, (notation, env.fake.last_message(chat_id).content)
            typed += 1
        else:
            await press_first(env, user, chat_id)
    raise AssertionError("the game did not end")


def _assert_over(env: Env, chat_id: int, winner: int | None, names: tuple[str, str], lang: str) -> None:
    """Assert that the chat's board says the game is over: a draw, or won by ``names[winner]``."""
    final = board_message(env.fake, chat_id)
    if winner is None:
        assert has_entry(final.content, lang, "over.draw"), final.content
    else:
        won = [key for key in GAME_OVER if key != "over.draw"]
        assert has_entry(final.content, lang, *won, name=names[winner]), final.content


@pytest.mark.parametrize("variant", NEW)
async def test_group_game_of_each_variant_by_buttons(sqlite_store: Store, variant: str) -> None:
    env = Env(sqlite_store, seeded(f"variant-buttons-{variant}"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(-700)
    await h.send_text(alice, group, f"/new {variant}")
    card = fake.last_message(group.id)
    assert has_entry(card.content, EN, "challenge.card", name="Alice", variant=tr(EN, f"variant.{variant}")), (
        card.content
    )
    await h.press_button(bob, card, shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, group.id)
    _, match = await state(env, game_id)
    assert game_name(match) == variant
    winner, _ = await _finish_game(env, game_id, group.id, {alice.id: alice, bob.id: bob})
    _assert_over(env, group.id, winner, ("Alice", "Bob"), EN)
    stats = [await sqlite_store.get_stats(group.id, u.id) for u in (alice, bob)]
    if winner is not None:
        assert (stats[winner].wins, stats[1 - winner].losses) == (1, 1)
        await h.send_text(alice, group, f"/top {variant}")  # the game was rated in its own variant
        top = fake.last_message(group.id)
        assert shown(EN, "top.title", variant=tr(EN, f"variant.{variant}")) in top.content, top.content
        assert "Alice" in top.content and "Bob" in top.content
    await env.close()


@pytest.mark.parametrize("variant", NEW)
async def test_group_game_of_each_variant_with_typed_moves(sqlite_store: Store, variant: str) -> None:
    env = Env(sqlite_store, seeded(f"variant-typed-{variant}"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Алиса", "ru"), fake.user(2, "Боб", "ru")
    group = fake.group_chat(-701)
    await h.send_text(alice, group, f"/new {RUSSIAN[variant]} матч 1")
    card = fake.last_message(group.id)
    assert has_entry(card.content, RU, "challenge.card", name="Алиса", variant=tr(RU, f"variant.{variant}")), (
        card.content
    )
    await h.press_button(bob, card, shown(RU, "btn.join"))
    game_id = await only_game(sqlite_store, group.id)
    _, match = await state(env, game_id)
    assert game_name(match) == variant
    winner, typed = await _finish_game(env, game_id, group.id, {alice.id: alice, bob.id: bob}, typed_turns=6)
    assert typed == 6
    _assert_over(env, group.id, winner, ("Алиса", "Боб"), RU)
    await env.close()


async def test_a_level_the_computer_lacks_is_played_and_named_as_the_strongest_it_has(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every game has a hard network today: take it away from one, as a game added without one would be
    monkeypatch.setattr(computer_handlers, "computer_levels", lambda name: ("easy", "medium"))
    env = Env(sqlite_store, seeded("acey-hard"))
    fake, h = env.fake, env.h
    alice = fake.user(32, "Alice", "en")
    await h.send_text(alice, fake.private_chat(alice), "/new bot acey_deucey hard")
    game_id = await only_game(sqlite_store, alice.id)
    stored, _ = await state(env, game_id)
    assert stored.data["players"][1]["ai"] == "medium"
    assert stored.data["players"][1]["name"] == shown(EN, "computer.name", level=tr(EN, "level.medium"))
    await env.close()


@pytest.mark.parametrize("variant", NEW)
async def test_new_bot_of_each_variant(sqlite_store: Store, variant: str) -> None:
    env = Env(sqlite_store, seeded(f"variant-bot-{variant}"), computer=lambda lv, v, s: get_player(lv, v, seed=3))
    env.service.config.sleep = env.clock.sleep
    fake, h = env.fake, env.h
    alice = fake.user(31, "Alice", "en")
    chat = fake.private_chat(alice)
    await h.send_text(alice, chat, f"/new bot {variant} easy")
    await env.service.settle()
    if not computer_plays(variant):
        unsupported = fake.last_message(alice.id).content
        assert opens_with(unsupported, EN, "computer.unsupported", variant=tr(EN, f"variant.{variant}")), unsupported
        assert await sqlite_store.user_games(alice.id) == []
        await env.close()
        return
    game_id = await only_game(sqlite_store, alice.id)
    stored, match = await state(env, game_id)
    assert game_name(match) == variant and stored.data["players"][1]["ai"] == "easy"
    for _ in range(MAX_ACTIONS):
        stored, match = await state(env, game_id)
        if stored.finished:
            break
        await press_first(env, alice, alice.id)
        await env.service.settle()
    else:
        raise AssertionError("the game did not end")
    assert has_entry(board_message(fake, alice.id).content, EN, *GAME_OVER)
    await env.close()


async def test_new_bot_answers_clearly_when_the_computer_does_not_play_the_variant(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def only_main(level: str, variant: str, **kwargs: object) -> object:
        if variant not in MAIN:
            raise FileNotFoundError(f"no player for {variant}")
        return get_player(level, variant)

    monkeypatch.setattr("bot.variants.get_player", only_main)
    env = Env(sqlite_store, seeded("variant-bot-none"))
    fake, h = env.fake, env.h
    alice, boris = fake.user(41, "Alice", "en"), fake.user(42, "Борис", "ru")
    await h.send_text(alice, fake.private_chat(alice), "/new bot portes")
    text = fake.last_message(alice.id).content
    plays = ", ".join(tr(EN, f"variant.{v}") for v in MAIN)
    assert text == shown(EN, "computer.unsupported", variant=tr(EN, "variant.portes"), variants=plays)
    await h.send_text(boris, fake.private_chat(boris), "/new бот поддавки")
    refusal = fake.last_message(boris.id).content
    assert opens_with(refusal, RU, "computer.unsupported", variant=tr(RU, "variant.misere")), refusal
    assert await sqlite_store.user_games(alice.id) == [] and await sqlite_store.user_games(boris.id) == []
    # the chooser offers only what the computer plays, and a forged pick of another variant is refused
    await h.send_text(alice, fake.private_chat(alice), "/start")
    await h.press_button(alice, fake.last_message(alice.id), "Play against the computer")
    chooser = fake.last_message(alice.id)
    assert chooser.button_texts()[:3] == ["✓ " + shown(EN, "btn.short"), shown(EN, "btn.long"), shown(EN, "btn.easy")]
    forged = (chooser.button(shown(EN, "btn.start")).callback_data or "").replace(":short:", ":portes:")
    await h.press(alice, alice.id, chooser.message_id, forged)
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "toast.bad")
    await env.close()


async def test_two_player_portes_round_robin(sqlite_store: Store) -> None:
    env = tournament_env(Env(sqlite_store, seeded("portes-rr")))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    users = {alice.id: alice, bob.id: bob}
    group = fake.group_chat(-800, admins=[alice.id])
    await h.send_text(alice, group, "/tournament")
    card = fake.last_message(group.id)
    seen = []
    for _ in OFFERED:  # the Game option cycles through every offered variant and back
        seen.append(next(t for t in card.button_texts() if entry_pattern(EN, "tour.opt.variant").fullmatch(t)))
        await h.press_button(alice, fake.chats[group.id][card.message_id], seen[-1])
        card = fake.chats[group.id][card.message_id]
    assert seen == [shown(EN, "tour.opt.variant", value=tr(EN, f"variant.{v}")) for v in OFFERED]
    await h.press_button(alice, card, shown(EN, "tour.btn.close"))
    game_option = shown(EN, "tour.opt.variant", value="")
    card = await open_tournament(env, alice, group, presses=(game_option,) * OFFERED.index("portes"))
    assert shown(EN, "variant.portes") in card.content, card.content
    tournament_id = (await sqlite_store.chat_tournament(group.id)) or ""
    for user in (alice, bob):
        await open_bot(env, user, tournament_id)
        await h.press_button(user, fake.chats[group.id][card.message_id], shown(EN, "btn.join"))
    await h.press_button(alice, fake.chats[group.id][card.message_id], shown(EN, "btn.start"))
    games = await active_games(env, tournament_id)
    assert len(games) == 1
    (game_id,) = games.values()
    stored, match = await state(env, game_id)
    assert match.variant.name == "portes" and not match.game.cube_enabled
    for _ in range(MAX_ACTIONS):
        stored, match = await state(env, game_id)
        if stored.finished:
            break
        await press_first(env, awaited_user(stored, match, users), awaited_user(stored, match, users).id)
    else:
        raise AssertionError("the game did not end")
    record = await record_of(env, tournament_id)
    assert record.status == "finished" and record.settings.variant == "portes"
    final = fake.last_message(group.id)
    assert final.content.splitlines()[0] == shown(EN, "tour.final.title") and has_entry(
        final.content, EN, "tour.final.winner"
    )
    # the match is rated in Portes: /rating lists it next to long and short, not the variants never played
    await h.send_text(alice, fake.private_chat(alice), "/rating")
    rating = fake.last_message(alice.id).content
    listed = [
        v for v in OFFERED if has_entry(rating, EN, "rating.line", "rating.unrated", variant=tr(EN, f"variant.{v}"))
    ]
    assert set(listed) == {"portes", "short", "long"}, rating
    assert shown(EN, "variant.hypergammon") not in rating and shown(EN, "variant.nackgammon") not in rating
    await h.send_text(bob, group, "/top портес")  # accepted (the matches were private: not on this leaderboard)
    assert fake.last_message(group.id).content == shown(EN, "top.empty", variant=tr(EN, "variant.portes"))
    await h.send_text(bob, group, "/top chess")
    assert opens_with(fake.last_message(group.id).content, EN, "top.usage")
    await env.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_rules_of_each_variant(lang: str) -> None:
    texts = {variant: rules_text(lang, variant) for variant in OFFERED}
    assert len(set(texts.values())) == len(OFFERED)
    for variant, russian in RUSSIAN.items():
        assert rules_text(lang, russian) == texts[variant]
    assert "3" in texts["hypergammon"] and "2" in texts["portes"]
    default = rules_text(lang, None)
    assert texts["short"] in default and texts["long"] in default
    assert all(f"/rules {v}" in default for v in NEW)


async def test_rules_settings_and_the_start_menu_chooser(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("variant-menus"))
    fake, h = env.fake, env.h
    admin, boris = fake.user(1, "Admin", "en"), fake.user(2, "Борис", "ru")
    group = fake.group_chat(-900, admins=[admin.id])
    await h.send_text(admin, group, "/rules nackgammon")
    assert fake.last_message(group.id).content.startswith(shown(EN, "rules.nackgammon"))
    await h.send_text(boris, group, "/rules поддавки")
    assert fake.last_message(group.id).content.startswith(shown(RU, "rules.misere"))
    await h.send_text(boris, group, "/rules гипергаммон")
    assert fake.last_message(group.id).content.startswith(shown(RU, "rules.hypergammon"))
    await h.send_text(admin, group, "/rules portes")
    assert fake.last_message(group.id).content.startswith(shown(EN, "rules.portes"))

    # /settings: the default variant cycles through all of them, and /new uses it
    await h.send_text(admin, group, "/settings")
    panel = fake.last_message(group.id)
    seen = []
    for _ in OFFERED:
        button = next(t for t in panel.button_texts() if entry_pattern(EN, "settings.variant").fullmatch(t))
        seen.append(button)
        await h.press_button(admin, fake.last_message(group.id), button)
        panel = fake.last_message(group.id)
    assert seen == [shown(EN, "settings.variant", variant=tr(EN, f"variant.{v}")) for v in (*OFFERED[1:], OFFERED[0])]
    assert (await sqlite_store.get_chat_settings(group.id))["variant"] == "short"
    for v in OFFERED[1 : OFFERED.index("hypergammon") + 1]:
        await h.press_button(
            admin, fake.last_message(group.id), shown(EN, "settings.variant", variant=tr(EN, f"variant.{v}"))
        )
    assert (await sqlite_store.get_chat_settings(group.id))["variant"] == "hypergammon"
    await h.send_text(admin, group, "/new")
    hyper = tr(EN, "variant.hypergammon")
    assert has_entry(fake.last_message(group.id).content, EN, "challenge.card", name="Admin", variant=hyper)
    await h.send_text(admin, group, "/new long")  # an explicit variant wins over the default
    long = tr(EN, "variant.long")
    assert has_entry(fake.last_message(group.id).content, EN, "challenge.card", name="Admin", variant=long)

    # the start menu: More games → a chooser of the other variants → a new game of that variant
    chat = fake.private_chat(boris)
    await h.send_text(boris, chat, "/start")
    await h.press_button(boris, fake.last_message(boris.id), "Другие игры")
    chooser = fake.last_message(boris.id)
    assert chooser.button_texts() == ["🎲 " + shown(RU, f"btn.{v}") for v in NEW]
    await h.press_button(boris, chooser, shown(RU, "btn.portes"))
    link = fake.last_message(boris.id)
    portes = tr(RU, "variant.portes")
    assert "?start=c_" in link.content and has_entry(link.content, RU, "challenge.link", variant=portes), link.content
    await env.close()


async def test_private_challenge_of_a_variant_by_deep_link(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("variant-link"))
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    await h.send_text(alice, fake.private_chat(alice), "/new misere")
    text = fake.last_message(alice.id).content
    assert has_entry(text, EN, "challenge.link", variant=tr(EN, "variant.misere")), text
    challenge_id = text.split("start=c_", 1)[1][:10]
    await h.send_text(bob, fake.private_chat(bob), f"/start c_{challenge_id}")
    game_id = await only_game(sqlite_store, alice.id)
    _, match = await state(env, game_id)
    assert match.variant.name == "misere"
    await env.close()
