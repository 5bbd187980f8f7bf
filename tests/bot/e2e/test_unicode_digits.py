"""Digits of every Unicode kind, typed in a group over the fake Bot API: ``13/² 8/7`` answered "Sorry,
something went wrong" and counted a handler failure (``'²'.isdigit()`` is True, ``int('²')`` raises). Now a
superscript, subscript or circled number is refused with a clear reason, decimal digits of any script (``١٣``,
``１３``) are read as the digits they are, in moves and in command arguments alike, and no handler fails."""

from __future__ import annotations

from aiogram.types import User

from bot.middlewares.errors import APOLOGY, ErrorReportingMiddleware
from bot.storage import Store
from bot.texts import tr
from nardy import Phase
from tests.bot.e2e.drive import awaited_user, only_game, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, RU, has_entry, opens_with, shown, shown_message

ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def _failures(env: Env) -> int:
    return sum(m.failures for m in env.dp.update.outer_middleware if isinstance(m, ErrorReportingMiddleware))


async def _group_game(env: Env, chat_id: int, lang: str) -> tuple[str, dict[int, User]]:
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", lang), fake.user(2, "Bob", lang)
    group = fake.group_chat(chat_id)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(group.id), shown(lang, "btn.join"))
    return await only_game(env.store, group.id), {alice.id: alice, bob.id: bob}


async def test_superscript_point_is_refused_clearly(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("digits-1"))
    fake = env.fake
    game_id, users = await _group_game(env, -1301, "en")
    stored, match = await state(env, game_id)
    user = awaited_user(stored, match, users)
    group = fake.group_chat(-1301)
    for text in ("13/² 8/7", "13/7 8/①", "₁₃/7 8/7", "13/7(²)"):
        await env.h.send_text(user, group, text)
        reply = fake.last_message(group.id).content
        assert reply.startswith(shown(EN, "move.error", reason=tr(EN, "illegal.not_a_digit"))), reply
        assert has_entry(reply, EN, "move.options")
        assert shown_message(EN, APOLOGY) not in reply
    after = await sqlite_store.get_game(game_id)
    assert after is not None and (after.version, after.data) == (stored.version, stored.data)
    assert _failures(env) == 0
    await env.close()


async def test_superscript_refusal_in_russian(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("digits-2"))
    game_id, users = await _group_game(env, -1302, "ru")
    stored, match = await state(env, game_id)
    group = env.fake.group_chat(-1302)
    await env.h.send_text(awaited_user(stored, match, users), group, "13/² 8/7")
    reply = env.fake.last_message(group.id).content
    assert reply.startswith(shown(RU, "move.error", reason=tr(RU, "illegal.not_a_digit"))), reply
    assert _failures(env) == 0
    await env.close()


async def test_decimal_digits_of_other_scripts_are_played(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("digits-3"))
    group = env.fake.group_chat(-1303)
    game_id, users = await _group_game(env, -1303, "en")
    for table in (ARABIC_INDIC, FULLWIDTH):
        stored, match = await state(env, game_id)
        if match.game.phase is Phase.ROLL:
            await env.h.press_button(
                awaited_user(stored, match, users), board_message(env.fake, group.id), shown(EN, "btn.roll")
            )
            stored, match = await state(env, game_id)
        assert match.game.phase is Phase.MOVE
        move = match.game.legal_moves()[0]
        await env.h.send_text(awaited_user(stored, match, users), group, move.notation.translate(table))
        after, played = await state(env, game_id)
        assert after.version == stored.version + 1, env.fake.last_message(group.id).content
        assert played.game.last_move is not None and played.game.last_move.notation == move.notation
    assert _failures(env) == 0
    await env.close()


async def test_command_arguments_with_odd_digits(sqlite_store: Store) -> None:
    """``/new short match ٥`` is a match to 5; ``²`` words are no numbers; ids and names with odd digits are
    refused with the command's usage; nothing fails."""
    env = Env(sqlite_store, seeded("digits-4"))
    fake, h = env.fake, env.h
    alice = fake.user(1, "Alice", "en")
    group = fake.group_chat(-1304)
    await h.send_text(alice, group, "/new short match ٥")
    assert shown(EN, "challenge.match", length=5) in fake.last_message(group.id).content
    await h.send_text(alice, group, "/new long match ²")
    assert not has_entry(fake.last_message(group.id).content, EN, "challenge.match")
    answers = {}
    for text in ("/export ²", "/verify ①", "/analyze ٣", "/top ²", "/tournament ²", "/rules ²", "/new short match ⑬"):
        await h.send_text(alice, group, text)
        answers[text] = fake.last_message(group.id).content
    assert shown_message(EN, APOLOGY) not in " ".join(answers.values())
    assert answers["/export ²"] == shown(EN, "export.usage"), answers
    assert opens_with(answers["/top ²"], EN, "top.usage"), answers
    query_id = await h.inline_query(alice, "long ٣")
    assert fake.inline_answers[query_id][0]["title"] == shown(EN, "variant.long") + shown(
        EN, "challenge.match", length=3
    )
    query_id = await h.inline_query(alice, "short ²")
    assert fake.inline_answers[query_id][0]["title"] == shown(EN, "variant.short")
    assert _failures(env) == 0
    await env.close()
