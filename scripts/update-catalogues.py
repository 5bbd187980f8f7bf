"""Re-extract the bot's texts into the gettext catalogues and fill what can be filled automatically.

Runs ``pybabel extract`` and ``pybabel update``; then every message that comes from ``bot/texts.py`` gets its
Russian from ``bot.texts.catalogue("ru")`` (the reviewed Russian kept next to the English), every English entry
gets its msgid, and the catalogues are compiled. Messages of handlers (``_()``) that have no Russian yet are
listed: translate them in ``bot/locales/ru/LC_MESSAGES/messages.po`` and run this again.

Usage (from the repository root): ``python scripts/update-catalogues.py``
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "bot" / "locales"
sys.path.insert(0, str(ROOT))


def main() -> int:
    """Update the catalogues; return the number of messages still untranslated in Russian."""
    from bot.texts import catalogue

    pot = LOCALES / "messages.pot"
    subprocess.run(
        ["pybabel", "-q", "extract", "-k", "_", "-k", "__", "-k", "gettext_noop", "-o", str(pot), "bot"],
        cwd=ROOT,
        check=True,
    )
    subprocess.run(
        ["pybabel", "-q", "update", "--no-fuzzy-matching", "-i", str(pot), "-d", str(LOCALES), "-D", "messages"],
        cwd=ROOT,
        check=True,
    )
    russian = catalogue("ru")
    missing = 0
    for lang in ("ru", "en"):
        path = LOCALES / lang / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as file:
            po = read_po(file, locale=lang)
        for message in po:
            if not message.id or not isinstance(message.id, str):
                continue
            if lang == "en":
                message.string = message.id
            elif message.id in russian:
                message.string = russian[message.id]  # the same as the English for e.g. "🤖 {level}"
            elif not message.string:
                missing += 1
                print(f"untranslated (ru): {message.id!r}")
            message.flags.discard("fuzzy")
        with path.open("wb") as file:
            write_po(file, po, width=120, omit_header=False)
    subprocess.run(["pybabel", "-q", "compile", "-d", str(LOCALES), "-D", "messages"], cwd=ROOT, check=True)
    return missing


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
