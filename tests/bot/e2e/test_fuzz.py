"""Whatever a user sends (any text, any callback data) never crashes a handler nor changes a game unless it is a
legal action of the player whose action is awaited."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.middlewares.errors import ErrorReportingMiddleware
from bot.storage import SqliteGameStore
from tests.bot.e2e.drive import only_game
from tests.bot.e2e.helpers import Env, board_message, seeded
from tests.bot.e2e.texts import EN, shown

TEXTS = st.one_of(
    st.text(max_size=300),
    st.from_regex(r"(bar|бар|\d{1,3})[/\-](off|\d{1,3})( (bar|\d{1,3})[/\-]\d{1,3}){0,5}", fullmatch=True),
    st.sampled_from(["/board", "/resign", "/new", "/new long match 99999999999", "/stats", "/settings", "/rules x"]),
)
DATA = st.one_of(
    st.text(max_size=100),
    st.from_regex(r"g:[A-Za-z0-9_-]{0,12}:\d{0,12}:[A-Za-z0-9_./+>-]{0,25}", fullmatch=True),
    st.from_regex(r"(c|s|m|lang):[a-z_:]{0,40}", fullmatch=True),
)


def _failures(env: Env) -> int:
    return sum(m.failures for m in env.dp.update.outer_middleware if isinstance(m, ErrorReportingMiddleware))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(TEXTS, max_size=4), datas=st.lists(DATA, max_size=4))
async def test_random_input_never_crashes(sqlite_path: str, texts: list[str], datas: list[str]) -> None:
    store = SqliteGameStore(sqlite_path + f".{abs(hash((tuple(texts), tuple(datas))))}")
    env = Env(store, seeded("fuzz"))
    fake, h = env.fake, env.h
    alice, bob, carol = fake.user(1, "Alice", "en"), fake.user(2, "Bob", "en"), fake.user(3, "Carol", "ru")
    group = fake.group_chat(-900)
    await h.send_text(alice, group, "/new short")
    await h.press_button(bob, fake.last_message(group.id), shown(EN, "btn.join"))
    game_id = await only_game(store, group.id)
    before = await store.get_game(game_id)
    board = board_message(fake, group.id)
    for text in texts:
        await h.send_text(carol, group, text)
    for data in datas:
        for user in (alice, bob, carol):
            await h.press(user, group.id, board.message_id, data)
    after = await store.get_game(game_id)
    assert before is not None and after is not None
    assert (after.version, after.data) == (before.version, before.data)
    assert _failures(env) == 0
    await env.close()
    await store.close()
