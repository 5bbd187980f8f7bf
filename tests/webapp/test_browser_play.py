"""The Mini App in a real headless Chromium: two players play through the page by tapping checkers, the other
player's page and the chat's board follow; an illegal drop snaps back with the engine's reason; untrusted init data
gets the server's 401; a spectator gets no move controls; a dropped connection catches up."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from aiogram.types import User

from bot.storage import Store
from bot.webapp.parts import SOCKETS
from nardy.variants import variant_names
from tests.bot.e2e.group_play import users
from tests.bot.e2e.helpers import board_message
from tests.bot.e2e.texts import EN, RU, shown
from tests.bot.webapp.appkit import AppEnv
from tests.bot.webapp.initdata import forged, signed_init_data
from tests.webapp.browserkit import DIST_DIR, open_app, shown_version, wait_version

MAX_ACTIONS = 1500
"""A bound on the actions of one game (a whole game of either board takes far fewer)."""
PREFERRED = ("btn.confirm", "btn.roll", "btn.take")
"""Of a state's plain buttons, the ones a test player presses first (never doubling or resigning unless alone)."""


def chat_board_version(app: AppEnv, chat_id: int) -> int:
    """Return the version the chat's board carries in its buttons' callback data (``g:<id>:<version>:...``)."""
    board = board_message(app.env.fake, chat_id)
    data = [
        b.callback_data for row in board.buttons() for b in row if b.callback_data and b.callback_data.startswith("g:")
    ]
    assert data, "the chat board has no game buttons"
    versions = {int(d.split(":")[2]) for d in data}
    assert len(versions) == 1, data
    return versions.pop()


async def play_action(app: AppEnv, game_id: str, pages: dict[int, Any], players: list[User]) -> dict[str, Any] | None:
    """Make one action of the player to move, through that player's page: tap a legal step's checker and then its
    target, or press a button. Returns the state before the action, or None when the game is over."""
    _, view = await app.get(game_id, players[0])
    if view["finished"] or view["turn"] is None:
        return None
    mover = players[view["turn"]]
    _, mine = await app.get(game_id, mover)
    page = pages[mover.id]
    await wait_version(page, mine["version"])
    steps = [a for a in mine["actions"] if a["step"] is not None]
    if steps:
        step = steps[0]["step"]
        origin, target = step["origin"], step["target"]
        await page.click(f'[data-place="{origin if isinstance(origin, str) else f"p{origin}"}"]')
        await page.wait_for_selector("#board .target")
        await page.click(f'[data-place="{target if isinstance(target, str) else f"p{target}"}"]')
    else:
        buttons = [a for a in mine["actions"] if not a["action"].startswith("rs")]
        assert buttons, mine
        labels = [mine["texts"].get(k) for k in PREFERRED]
        chosen = next((b for b in buttons if b["label"] in labels), buttons[0])
        await page.click(f'#actions button[data-action="{chosen["action"]}"]')
    for shown_page in pages.values():
        await wait_version(shown_page, mine["version"] + 1)
    return mine


@pytest.mark.parametrize("variant", ["short", "long"])
async def test_two_players_play_through_the_page(store: Store, browser: Any, variant: str) -> None:
    async with AppEnv(store, seed="browser", static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=501)
        chat = app.env.fake.group_chat(-500)
        game_id = await app.group_game(chat, alice, bob, variant)
        pages = {u.id: await open_app(browser, app, game_id, u) for u in (alice, bob)}
        turns = 0
        last_turn = None
        for _ in range(MAX_ACTIONS):
            before = await play_action(app, game_id, pages, [alice, bob])
            if before is None:
                break
            if before["turn"] != last_turn:
                turns += 1
                last_turn = before["turn"]
                # both pages and the chat's board show the same version
                await app.env.service.settle()
                stored = await store.get_game(game_id)
                assert stored is not None
                for page in pages.values():
                    await wait_version(page, stored.version)
                    assert await shown_version(page) == stored.version
                if not stored.finished:
                    assert chat_board_version(app, chat.id) == stored.version
        _, final = await app.get(game_id, alice)
        assert final["finished"], f"the game did not end in {MAX_ACTIONS} actions ({turns} turns)"
        assert turns >= 10
        for page in pages.values():
            await wait_version(page, final["version"])
            assert await page.get_attribute("body", "data-finished") == "true"
            assert await page.locator("#actions button").count() == 0 or final["actions"]


OTHER_GAMES = [name for name in variant_names() if name not in ("short", "long")]
"""The rule book's other games (docs/rules.md §6): each is played for some turns through the page."""


@pytest.mark.parametrize("variant", OTHER_GAMES)
async def test_every_other_game_is_played_through_the_page(store: Store, browser: Any, variant: str) -> None:
    async with AppEnv(store, seed=f"browser-{variant}", static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=521)
        chat = app.env.fake.group_chat(-520)
        game_id = await app.group_game(chat, alice, bob, variant)
        pages = {u.id: await open_app(browser, app, game_id, u) for u in (alice, bob)}
        movers: list[int] = []
        for _ in range(200):
            before = await play_action(app, game_id, pages, [alice, bob])
            if before is None:
                break
            if not movers or movers[-1] != before["turn"]:
                movers.append(before["turn"])
            if len(movers) > 6:  # both players have moved three times through their pages
                break
        assert len(movers) > 6 or (await app.get(game_id, alice))[1]["finished"], movers
        assert set(movers) == {0, 1}
        await app.env.service.settle()
        stored = await store.get_game(game_id)
        assert stored is not None
        for page in pages.values():  # both pages and the chat's board agree
            await wait_version(page, stored.version)
            assert await shown_version(page) == stored.version
        assert chat_board_version(app, chat.id) == stored.version


async def test_an_illegal_drop_snaps_back_with_the_reason(store: Store, browser: Any) -> None:
    async with AppEnv(store, seed="webapp", static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=511)
        chat = app.env.fake.group_chat(-510)
        game_id = await app.group_game(chat, alice, bob, "short")
        _, view = await app.get(game_id, alice)
        mover = alice if view["turn"] == 0 else bob
        _, mine = await app.get(game_id, mover)
        before = await store.get_game(game_id)
        assert before is not None
        page = await open_app(browser, app, game_id, mover)
        step = next(a["step"] for a in mine["actions"] if a["step"] is not None)
        origin = step["origin"]
        await page.click(f'[data-place="p{origin}"]')
        await page.wait_for_selector(f'[data-place="p{origin}"].picked')
        await page.click('[data-place="off"]')  # bearing off from the start: the engine refuses it
        error = page.locator("#error")
        await error.wait_for(state="visible")
        assert await error.get_attribute("data-status") == "422"
        assert await error.inner_text() == shown(EN, "illegal.bear_off_early")
        assert await page.locator("#board .picked").count() == 0  # snapped back
        assert await shown_version(page) == mine["version"]
        after = await store.get_game(game_id)
        assert after is not None and (after.version, after.data) == (before.version, before.data)


async def test_untrusted_init_data_gets_401(store: Store, browser: Any) -> None:
    async with AppEnv(store, static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=521)
        game_id = await app.group_game(app.env.fake.group_chat(-520), alice, bob, "short")
        for data, error in (
            (forged(signed_init_data(alice.id, "Alice")), "webapp.auth.forged"),
            (signed_init_data(alice.id, "Alice", auth_date=1_000_000), "webapp.auth.stale"),
            (signed_init_data(alice.id, "Alice", token="43:OTHER"), "webapp.auth.forged"),
        ):
            page = await open_app(browser, app, game_id, None, init_data=data)
            assert await page.get_attribute("body", "data-ready") == "error"
            box = page.locator("#error")
            assert await box.get_attribute("data-status") == "401"
            assert await box.inner_text() == shown(EN, error)
            assert await page.locator("#board *").count() == 0
            await page.context.close()


async def test_a_spectator_gets_no_move_controls(store: Store, browser: Any) -> None:
    async with AppEnv(store, static_dir=DIST_DIR) as app:
        alice, bob, carol = users(app.env.fake, "Alice", "Bob", "Carol", base=531)
        game_id = await app.group_game(app.env.fake.group_chat(-530), alice, bob, "short")
        page = await open_app(browser, app, game_id, carol)
        assert await page.locator("#board circle.checker").count() > 0
        assert await page.locator("#actions button").count() == 0
        assert await page.locator("#board .origin").count() == 0
        assert await page.inner_text("#status") == shown(EN, "webapp.spectator")
        _, view = await app.get(game_id, carol)
        # tapping where a player's checker could move picks nothing and sends nothing
        await page.click('[data-place="p13"]')
        assert await page.locator("#board .picked").count() == 0
        assert await shown_version(page) == view["version"]
        # a Russian-speaking spectator reads the page in Russian, from the same catalogue
        russian = await open_app(browser, app, game_id, carol, language=RU)
        assert await russian.inner_text("#status") == shown(RU, "webapp.spectator")
        assert await russian.inner_text("#title") == shown(RU, "variant.short")


async def test_a_reconnect_catches_up(store: Store, browser: Any) -> None:
    async with AppEnv(store, static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=541)
        game_id = await app.group_game(app.env.fake.group_chat(-540), alice, bob, "short")
        _, view = await app.get(game_id, alice)
        mover = alice if view["turn"] == 0 else bob
        watcher = bob if mover is alice else alice
        page = await open_app(browser, app, game_id, watcher)
        await page.wait_for_selector('body[data-live="live"]')
        version = await shown_version(page)
        # the network drops: the page's socket is closed and it cannot reconnect while offline
        await page.context.set_offline(True)
        sub_apps: list[Any] = list(app.client.app._subapps)  # the mounted Mini App
        for ws in list(sub_apps[0][SOCKETS]):
            await ws.close()
        await page.wait_for_selector('body[data-live="connecting"]')
        _, mine = await app.get(game_id, mover)
        step = next(a for a in mine["actions"] if a["step"] is not None)
        status, body = await app.act(game_id, mover, {"version": mine["version"], "action": step["action"]})
        assert status == 200, body
        assert await shown_version(page) == version  # missed while offline
        await page.context.set_offline(False)
        await wait_version(page, body["version"])
        await page.wait_for_selector('body[data-live="live"]')


async def center(page: Any, selector: str) -> tuple[float, float]:
    """Return the centre of the element on the page."""
    box = await page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def test_a_drag_moves_a_checker_and_a_drop_off_the_board_snaps_back(store: Store, browser: Any) -> None:
    async with AppEnv(store, seed="webapp", static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=551)
        game_id = await app.group_game(app.env.fake.group_chat(-550), alice, bob, "short")
        _, view = await app.get(game_id, alice)
        mover = alice if view["turn"] == 0 else bob
        _, mine = await app.get(game_id, mover)
        page = await open_app(browser, app, game_id, mover)
        step = next(a["step"] for a in mine["actions"] if a["step"] is not None)
        origin = await center(page, f'[data-place="p{step["origin"]}"]')
        # dropped outside the board: nothing is sent, nothing stays picked
        await page.mouse.move(*origin)
        await page.mouse.down()
        await page.mouse.move(origin[0], 5, steps=5)
        await page.mouse.up()
        assert await page.locator("#board .picked").count() == 0
        assert await shown_version(page) == mine["version"]
        # dragged onto a legal target: the step is made
        target = await center(page, f'[data-place="p{step["target"]}"]')
        await page.mouse.move(*origin)
        await page.mouse.down()
        await page.mouse.move(*target, steps=8)
        await page.mouse.up()
        await wait_version(page, mine["version"] + 1)
        stored = await store.get_game(game_id)
        assert stored is not None and stored.version == mine["version"] + 1


async def test_a_move_by_a_chat_button_reaches_the_open_pages(store: Store, browser: Any) -> None:
    async with AppEnv(store, seed="webapp", static_dir=DIST_DIR) as app:
        alice, bob, carol = users(app.env.fake, "Alice", "Bob", "Carol", base=561)
        chat = app.env.fake.group_chat(-560)
        game_id = await app.group_game(chat, alice, bob, "short")
        _, view = await app.get(game_id, alice)
        mover = alice if view["turn"] == 0 else bob
        pages = [await open_app(browser, app, game_id, u) for u in (alice, bob, carol)]
        for page in pages:
            await page.wait_for_selector('body[data-live="live"]')
        board = board_message(app.env.fake, chat.id)
        data = next(
            b.callback_data
            for row in board.buttons()
            for b in row
            if b.callback_data and b.callback_data.startswith("g:") and b.callback_data.split(":")[-1][:1] in "smt"
        )
        await app.env.h.press(mover, chat.id, board.message_id, data)
        await app.env.service.settle()
        stored = await store.get_game(game_id)
        assert stored is not None and stored.version > view["version"], data
        for page in pages:
            await wait_version(page, stored.version)


async def test_the_page_takes_telegrams_theme_colours(store: Store, browser: Any) -> None:
    async with AppEnv(store, static_dir=DIST_DIR) as app:
        alice, bob = users(app.env.fake, "Alice", "Bob", base=571)
        game_id = await app.group_game(app.env.fake.group_chat(-570), alice, bob, "short")
        theme = quote(json.dumps({"bg_color": "#17212b", "text_color": "#f5f5f5", "button_color": "#5288c1"}))
        page = await open_app(browser, app, game_id, alice, hash_extra=f"&tgWebAppThemeParams={theme}")
        background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(23, 33, 43)"
        assert await page.get_attribute("svg#board", "data-theme") == "dark"  # a dark scheme: the dark board
        light = await open_app(browser, app, game_id, alice)
        assert await light.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
        assert await light.get_attribute("svg#board", "data-theme") == "classic"
