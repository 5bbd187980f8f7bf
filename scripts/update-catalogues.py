"""Extract the bot's texts into the gettext catalogues, update and compile them, and check they are complete.

The ``.po`` files under ``bot/locales`` are the only place a translation lives; the code holds English msgids
alone. This runs ``pybabel extract`` (with :data:`bot.i18n.EXTRACTION_KEYWORDS`), ``pybabel update`` (new messages
come in empty, messages gone from the code are dropped), fills an English entry that is still empty with its
msgid, compiles the ``.mo`` files, and lists every message still missing a translation, fuzzy, or with
placeholders that differ from the English (:func:`bot.i18n.catalogue_problems`): translate those in
``bot/locales/<lang>/LC_MESSAGES/messages.po`` and run this again.

Usage (from the repository root): ``python scripts/update-catalogues.py`` — exits 1 while something is missing.
``--check`` only checks (no extraction, no writing).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "bot" / "locales"
sys.path.insert(0, str(ROOT))


def update() -> None:
    """Extract, update and fill the English catalogue's empty entries with their msgids; compile."""
    from bot.i18n import EXTRACTION_KEYWORDS

    pot = LOCALES / "messages.pot"
    keywords = [arg for keyword in EXTRACTION_KEYWORDS for arg in ("-k", keyword)]
    os.chdir(ROOT)  # the catalogues name the source files relative to the repository
    pybabel("extract", *keywords, "-o", str(pot), "bot")
    pybabel(
        "update",
        "--no-fuzzy-matching",
        "--ignore-obsolete",
        "--width=120",
        "-i",
        str(pot),
        "-d",
        str(LOCALES),
        "-D",
        "messages",
    )
    path = LOCALES / "en" / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as file:
        po = read_po(file, locale="en")
    for message in po:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            forms = list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]
            if not any(forms):
                message.string = tuple(message.id)
        elif not message.string:
            message.string = message.id
    with path.open("wb") as file:
        write_po(file, po, width=120, omit_header=False)
    pybabel("compile", "-d", str(LOCALES), "-D", "messages")


def pybabel(command: str, *args: str) -> None:
    """Run ``pybabel -q COMMAND ARGS`` in this process (Babel's command line, without needing it on PATH)."""
    CommandLineInterface().run(["pybabel", "-q", command, *args])  # type: ignore[no-untyped-call]


def check() -> int:
    """Print every problem of every catalogue; return their number."""
    from bot.i18n import SUPPORTED_LANGUAGES, catalogue_problems

    problems = [problem for lang in SUPPORTED_LANGUAGES for problem in catalogue_problems(lang)]
    for problem in problems:
        print(problem)
    return len(problems)


def main(argv: list[str]) -> int:
    """Update (unless ``--check``) and check the catalogues; return the exit status (1 while any is incomplete)."""
    if "--check" not in argv:
        update()
    return 1 if check() else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
