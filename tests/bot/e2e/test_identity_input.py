"""Who may act, and what a user may type: channels and anonymous admins are refused, forged challenge and offer
buttons claim nothing, odd digits never crash, hostile names reach Telegram escaped."""

from __future__ import annotations

from aiogram.types import Chat, User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.handlers.challenge import display_name, parse_new_args
from bot.handlers.computer import parse_bot_args
from bot.handlers.identity import CHANNEL_BOT_ID, GROUP_ANONYMOUS_BOT_ID
from bot.keyboards.callbacks import ChallengeCb, ComputerCb, MenuCb
from bot.middlewares.errors import ErrorReportingMiddleware
from bot.storage import SqliteGameStore, Store
from bot.texts import tr
from nardy.ai import ComputerPlayer, get_player
from tests.bot.e2e.drive import awaited_user, only_game, press_first, state
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, RU, shown

REFUSAL = "Games are played by people: write as yourself, not on behalf of a channel or as an anonymous admin."
REFUSAL_RU = "В нарды играют люди: пишите от своего имени, а не от имени канала или анонимного администратора."


def _failures(env: Env) -> int:
    return sum(m.failures for m in env.dp.update.outer_middleware if isinstance(m, ErrorReportingMiddleware))


def _computer(level: str, variant: str, _seed: int) -> ComputerPlayer:
    return get_player(level, variant, seed=7)


def _channel_bot(env: Env) -> User:
    return env.fake.user(CHANNEL_BOT_ID, "Channel", "en", username="Channel_Bot")


async def test_channels_cannot_start_join_or_play(sqlite_store: Store) -> None:
    """Every channel posted as the same Channel_Bot: one channel's game could be moved by any other channel."""
    env = Env(sqlite_store, seeded("channels"), computer=_computer, computer_delay=0)
    fake, h = env.fake, env.h
    group = fake.group_chat(-700)
    proxy = _channel_bot(env)
    news, sport = Chat(id=-1001, type="channel", title="News"), Chat(id=-1002, type="channel", title="Sport")
    for text in ("/new bot", "/new short", "/new long match 3", "/resign", "/settings", "/stats", "/lang"):
        await h.send_text(proxy, group, text, sender_chat=news)
        assert fake.last_message(group.id).content == REFUSAL, text
    assert await sqlite_store.user_games(CHANNEL_BOT_ID) == []
    assert await sqlite_store.chat_challenges(group.id) == []
    assert await sqlite_store.get_user_settings(CHANNEL_BOT_ID) == {}

    # a real game in the group: another channel's typed move is refused and changes nothing
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, group.id)
    before = await sqlite_store.get_game(game_id)
    await h.send_text(proxy, group, "13/7 8/7", sender_chat=sport)
    assert fake.last_message(group.id).content == REFUSAL
    # a challenge aimed at a channel's message becomes an open one, not a challenge nobody can accept
    post = await h.send_text(proxy, group, "who plays?", sender_chat=news)
    assert post.message is not None
    await h.send_text(alice, group, "/new", reply_to=post.message.message_id)
    assert fake.last_message(group.id).button_texts() == ["Join", "Cancel"]
    after = await sqlite_store.get_game(game_id)
    assert before is not None and after is not None and after.version == before.version
    assert _failures(env) == 0
    await env.close()


async def test_anonymous_admins_are_refused(sqlite_store: Store) -> None:
    env = Env(sqlite_store, seeded("anonymous"), computer=_computer, computer_delay=0)
    fake, h = env.fake, env.h
    group = fake.group_chat(-701, admins=[GROUP_ANONYMOUS_BOT_ID])
    anonymous = fake.user(GROUP_ANONYMOUS_BOT_ID, "Group", None, username="GroupAnonymousBot")
    for text in ("/new", "/new bot hard", "/settings"):
        await h.send_text(anonymous, group, text, sender_chat=group)
        assert fake.last_message(group.id).content == REFUSAL_RU, text  # no language code: the default, Russian
    # without sender_chat (as some clients send it) the stand-in id alone is refused as well
    await h.send_text(anonymous, group, "/new long")
    assert fake.last_message(group.id).content == REFUSAL_RU
    assert await sqlite_store.user_games(GROUP_ANONYMOUS_BOT_ID) == []
    assert await sqlite_store.chat_challenges(group.id) == []
    await env.close()


async def test_odd_digits_never_crash(sqlite_store: Store) -> None:
    """``²`` and ``①`` pass ``str.isdigit`` and crashed ``int()`` in ``/new match ²``; now they are refused with the
    reason (a match length is written in digits); decimal digits of other scripts (``١٢``) are read as the number
    they write, as in typed moves."""
    assert parse_new_args("match ²") == ("short", 0)
    assert parse_new_args("long match ①") == ("long", 0)
    assert parse_new_args("match ١٢") == ("short", 12)
    assert parse_bot_args("bot hard match ³") == ("short", "hard", 0)
    env = Env(sqlite_store, seeded("digits"), computer=_computer, computer_delay=0)
    fake, h = env.fake, env.h
    alice = fake.user(1, "Alice", "en")
    group = fake.group_chat(-702)
    for text, word in (("/new match ²", "²"), ("/new long match ①", "①"), ("/new bot match ³", "³")):
        await h.send_text(alice, group, text)  # refused with the reason, never started as a single game
        assert fake.last_message(group.id).content == shown(EN, "match.bad_length", value=word, most=25)
    assert await sqlite_store.chat_challenges(group.id) == [] and await sqlite_store.user_games(alice.id) == []
    await h.send_text(alice, group, "/new short до ١٢")  # decimal digits of another script are a length
    assert _failures(env) == 0
    assert len(await sqlite_store.chat_challenges(group.id)) == 1
    await env.close()


async def test_hostile_names_reach_telegram_escaped(sqlite_store: Store) -> None:
    """``Eve <3`` in the turn reminder made Telegram refuse it; every message here goes through the fake's
    Telegram-HTML check (the autouse fixture fails the test on any refusal)."""
    now = [1_000_000.0]
    env = Env(sqlite_store, seeded("names"), clock=lambda: now[0], turn_reminder_after=100, turn_timeout=1000)
    fake, h = env.fake, env.h
    eve, mallory = fake.user(1, "Eve <3", "en"), fake.user(2, "<b>x</b> & Co", "ru")
    group = fake.group_chat(-703)
    await h.send_text(eve, group, "/new short match 3")
    card = fake.last_message(group.id)
    match_to_3 = tr(EN, "challenge.match", length=3)
    assert shown(EN, "challenge.card", name="Eve <3", variant=tr(EN, "variant.short"), match=match_to_3) in card.content
    await h.press_button(mallory, card, shown(EN, "btn.join"))
    game_id = await only_game(sqlite_store, group.id)
    users = {eve.id: eve, mallory.id: mallory}
    for _ in range(6):
        stored, match = await state(env, game_id)
        await press_first(env, awaited_user(stored, match, users), group.id)
    board = board_message(fake, group.id)
    assert "⚪ Eve <3 — ⚫ <b>x</b> & Co" in board.content
    now[0] += 150
    assert await env.service.sweep() == 1
    reminder = fake.last_message(group.id)
    names = ("Eve <3", "<b>x</b> & Co")
    assert reminder.content in {shown(lang, "reminder", name=name) for lang in (EN, RU) for name in names}
    await h.send_text(eve, group, "/stats")
    assert _failures(env) == 0
    await env.close()


async def test_forged_buttons_claim_nothing(sqlite_store: Store) -> None:
    """A forged computer-offer button consumed someone else's challenge; a forged challenge button carrying a
    computer offer's id raised KeyError."""
    env = Env(sqlite_store, seeded("forged"), computer=_computer, computer_delay=0)
    fake, h = env.fake, env.h
    alice, bob = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en")
    group = fake.group_chat(-704)
    await h.send_text(alice, group, "/new short")
    challenge_id = (await sqlite_store.chat_challenges(group.id))[0].challenge_id
    card = fake.last_message(group.id)
    await h.press(bob, bob.id, 1, MenuCb(action="bot").pack())  # Bob's own computer offer, in his private chat
    chooser = fake.last_message(bob.id)
    offer = ComputerCb.unpack(chooser.buttons()[-1][0].callback_data or "")

    forged_go = ComputerCb(offer_id=challenge_id, action="go", variant="short", level="easy").pack()
    await h.press(bob, group.id, card.message_id, forged_go)
    assert fake.toasts_for(bob.id)[-1] == shown(EN, "toast.bad")
    forged_join = ChallengeCb(challenge_id=offer.offer_id, action="join").pack()
    await h.press(alice, bob.id, chooser.message_id, forged_join)
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "toast.bad")
    # Alice presses Start on Bob's chooser from her own chat: not hers to claim
    await h.press(alice, alice.id, 1, offer.pack())
    assert fake.toasts_for(alice.id)[-1] == shown(EN, "toast.bad")
    assert await sqlite_store.get_challenge(challenge_id) is not None
    assert await sqlite_store.get_challenge(offer.offer_id) is not None
    assert await sqlite_store.user_games(alice.id) == [] and await sqlite_store.user_games(bob.id) == []
    # the genuine buttons still work
    await h.press_button(bob, card, shown(EN, "btn.join"))
    assert len(await sqlite_store.chat_games(group.id)) == 1
    await h.press_button(bob, chooser, shown(EN, "btn.start"))
    assert len(await sqlite_store.user_games(bob.id)) == 2
    assert _failures(env) == 0
    await env.close()


ACTIONS = ["join", "accept", "decline", "cancel"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    presses=st.lists(
        st.tuples(
            st.sampled_from(["group", "private", "computer", "missing"]),  # whose id the forged button carries
            st.sampled_from(["challenge", "computer"]),  # the button's class
            st.sampled_from([*ACTIONS, "pick", "go"]),
            st.sampled_from([1, 2, 3]),  # the presser
            st.sampled_from(["group", "other group", "private"]),  # where it is pressed
        ),
        min_size=1,
        max_size=6,
    )
)
async def test_any_forged_challenge_or_offer_press_is_safe(
    sqlite_path: str, presses: list[tuple[str, str, str, int, str]]
) -> None:
    store = SqliteGameStore(sqlite_path + f".{abs(hash(tuple(presses)))}")
    env = Env(store, seeded("forged-any"), computer=_computer, computer_delay=0)
    fake, h = env.fake, env.h
    users = {i: fake.user(i, name, "en") for i, name in ((1, "Alice"), (2, "Bob"), (3, "Carol"))}
    group, other = fake.group_chat(-705), fake.group_chat(-706)
    ids = {
        "group": await store.create_challenge(
            {
                "kind": "group",
                "chat_id": group.id,
                "challenger": {"id": 1, "name": "Alice", "lang": "en"},
                "variant": "short",
                "length": 0,
                "opponent": {"id": 2, "name": "Bob", "lang": "en"},
            },
            ttl=3600,
            chat_id=group.id,
        ),
        "private": await store.create_challenge(
            {"kind": "private", "challenger": {"id": 1, "name": "Alice", "lang": "en"}, "variant": "long", "length": 0},
            ttl=3600,
        ),
        "computer": await store.create_challenge({"kind": "computer", "chat_id": 2}, ttl=3600),
        "missing": "AAAAAAAAAA",
    }
    chats = {"group": group.id, "other group": other.id}
    legit_group = legit_computer = False
    for owner, cls, action, presser, where in presses:
        chat_id = chats.get(where, presser)
        if cls == "challenge":
            action = action if action in ACTIONS else "join"
            data = ChallengeCb(challenge_id=ids[owner], action=action).pack()  # type: ignore[arg-type]
            legit_group |= (owner, chat_id) == ("group", group.id) and (
                (action in ("accept", "decline") and presser == 2) or (action == "cancel" and presser == 1)
            )
        else:
            action = action if action in ("pick", "go") else "go"
            data = ComputerCb(offer_id=ids[owner], action=action, variant="short", level="easy").pack()  # type: ignore[arg-type]
            legit_computer |= (owner, action, chat_id) == ("computer", "go", 2)
        await h.press(users[presser], chat_id, 1, data)
    # a challenge or an offer is claimed only by a legitimate press: its own kind of button, in its own chat, by
    # someone it is for; a private challenge only through its link
    assert await store.get_challenge(ids["private"]) is not None
    assert legit_group or await store.get_challenge(ids["group"]) is not None
    assert legit_computer or await store.get_challenge(ids["computer"]) is not None
    assert _failures(env) == 0
    for game_id in {g for u in (1, 2, 3) for g in await store.user_games(u)}:
        stored = await store.get_game(game_id)
        assert stored is not None
        players = [p["id"] for p in stored.data["players"]]
        assert players in ([1, 2], [2, 0])  # Bob accepted Alice's challenge, or Bob plays the computer
    await env.close()
    await store.close()


def test_display_names_are_one_clean_line() -> None:
    """Names are shown on one line without control or invisible format characters (a right-to-left override
    would flip the rest of a caption), cut to the length the board can show."""

    def user(first_name: str) -> User:
        return User(id=5, is_bot=False, first_name=first_name)

    assert display_name(user("Eve\nAdams\u202e")) == "Eve Adams"
    assert display_name(user("\x1c\x1d")) == "—"
    assert display_name(user("<b>x</b>")) == "<b>x</b>"  # plain text: escaped where it is shown
    assert len(display_name(user("x" * 300))) == 32
