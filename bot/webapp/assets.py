"""The front end's files, served from memory: each read once when the server is made, gzipped once, with an ETag.

The build (``bot/webapp/static``) is a handful of small files that never change while the bot runs. Serving them
from memory gives every client the gzipped bytes when it accepts them (a phone on a slow network loads a third of
the weight) without a proxy in front, and a revalidation by ETag (``304``) when Telegram's web view opens the app
again. The names are not content-hashed, so every file is ``Cache-Control: no-cache``: always revalidated, never
stale after an upgrade.
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from aiohttp import web

CONTENT_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
}
"""The types of the files served; a file of another kind in the build is not served."""


@dataclass(frozen=True, slots=True)
class Asset:
    """One file of the build: its ``body``, the same ``gzipped``, its ``content_type`` and its ``etag``."""

    body: bytes
    gzipped: bytes
    content_type: str
    etag: str


def load_assets(folder: Path) -> dict[str, Asset]:
    """Return the files directly in ``folder`` by name (an empty mapping when there is no such folder)."""
    if not folder.is_dir():
        return {}
    assets: dict[str, Asset] = {}
    for path in sorted(folder.iterdir()):
        content_type = CONTENT_TYPES.get(path.suffix)
        if content_type is None or not path.is_file():
            continue
        body = path.read_bytes()
        digest = hashlib.sha256(body).hexdigest()[:20]
        assets[path.name] = Asset(body, gzip.compress(body, 9, mtime=0), content_type, f'"{digest}"')
    return assets


def accepts_gzip(header: str) -> bool:
    """Return whether an ``Accept-Encoding`` header accepts gzip (``gzip`` or ``*`` with a quality above 0)."""
    for item in header.split(","):
        coding, _, params = item.strip().partition(";")
        if coding.strip().lower() not in ("gzip", "*"):
            continue
        quality = params.strip().lower().removeprefix("q=")
        try:
            return params.strip() == "" or float(quality) > 0
        except ValueError:
            return False
    return False


def asset_response(request: web.Request, asset: Asset) -> web.Response:
    """Return ``asset`` for ``request``: 304 when its ``If-None-Match`` names the current ETag, else the file,
    gzipped when the client accepts it."""
    headers = {"ETag": asset.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    headers["Content-Type"] = asset.content_type
    known = {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}
    if asset.etag in known or "*" in known:
        return web.Response(status=304, headers=headers)
    if accepts_gzip(request.headers.get("Accept-Encoding", "")) and len(asset.gzipped) < len(asset.body):
        headers["Content-Encoding"] = "gzip"
        return web.Response(body=asset.gzipped, headers=headers)
    return web.Response(body=asset.body, headers=headers)
