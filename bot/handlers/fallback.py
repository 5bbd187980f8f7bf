"""Last router: presses that no handler took (old keyboards, forged or garbled data) get a short toast."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import CallbackQuery
from aiogram.utils.i18n import gettext as _

log = logging.getLogger(__name__)


async def unknown_press(query: CallbackQuery) -> None:
    """Answer any unhandled callback query with "this button is no longer active". Returns nothing."""
    log.info("unhandled callback data %r from user %s", (query.data or "")[:80], query.from_user.id)
    await query.answer(_("This button is no longer active."))


def create_router() -> Router:
    """Return a new router with the catch-all press handler (include it last)."""
    router = Router(name=__name__)
    router.callback_query.register(unknown_press)
    return router
