"""Placeholder router: filled in below."""

from __future__ import annotations

from aiogram import Router

router = Router(name=__name__)
