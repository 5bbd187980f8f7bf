"""The documentation holds together: every section of the rule book that the code cites exists, the README stays
short and keeps its two commands, and the links between the pages lead somewhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SOURCE_DIRS = ("nardy", "tournaments", "rendering", "bot", "tests", "benchmarks", "scripts", "docs")

CITATION = re.compile(r"docs/rules\.md((?:\s*(?:,|and|or|–|-)?\s*§\s*\d+(?:\.\d+)?)+)")
SECTION = re.compile(r"§\s*(\d+(?:\.\d+)?)")
HEADING = re.compile(r"^#{1,6}\s+§(\d+(?:\.\d+)?)(?!\d)", re.MULTILINE)
OLD_PLACES = re.compile(r"\bRULES\.md|\bARCHITECTURE\.md|\.\./shared/|\bRULES §")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def text_files() -> list[Path]:
    """Return the project's Python and Markdown files that may cite the docs (the README included)."""
    files = [ROOT / "README.md"]
    for name in SOURCE_DIRS:
        files += [p for p in (ROOT / name).rglob("*") if p.suffix in (".py", ".md") and p.is_file()]
    return files


def cited_sections() -> dict[str, list[str]]:
    """Return each rule-book section cited as "docs/rules.md §N" (or §N.M), with the files that cite it."""
    cited: dict[str, list[str]] = {}
    for path in text_files():
        for match in CITATION.finditer(path.read_text(encoding="utf-8")):
            for section in SECTION.findall(match.group(1)):
                cited.setdefault(section, []).append(str(path.relative_to(ROOT)))
    return cited


def rule_book_sections() -> set[str]:
    """Return the section numbers that head a section of docs/rules.md."""
    return set(HEADING.findall((DOCS / "rules.md").read_text(encoding="utf-8")))


def test_the_rule_book_has_every_numbered_section_of_its_outline() -> None:
    expected = {str(n) for n in range(1, 9)} | {f"6.{n}" for n in range(1, 8)}
    assert rule_book_sections() == expected


def test_every_section_the_code_cites_is_a_heading_of_the_rule_book() -> None:
    cited = cited_sections()
    assert len(cited) >= 10, f"only {sorted(cited)} cited: the citations were not found"
    missing = {section: files for section, files in cited.items() if section not in rule_book_sections()}
    assert not missing, f"cited but not in docs/rules.md: {missing}"


def test_no_file_cites_the_rule_book_or_architecture_by_their_old_places() -> None:
    stale = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in text_files()
        if path.name != "test_docs.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OLD_PLACES.search(line)
    ]
    assert not stale, f"cite docs/rules.md or docs/architecture.md instead: {stale}"


def test_the_readme_is_short_and_keeps_its_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 160
    blocks = re.findall(r"```sh\n(.*?)```", readme, re.DOTALL)
    commands = [line.strip() for block in blocks for line in block.splitlines()]
    assert "BOT_TOKEN=123456:your-token bash scripts/run-bot.sh" in commands
    assert "bash scripts/test.sh" in commands
    assert (ROOT / "scripts" / "run-bot.sh").is_file() and (ROOT / "scripts" / "test.sh").is_file()


def test_the_readme_tells_a_player_how_to_play_first() -> None:
    """A player opening the README finds how to play before the operator's setup: the first section says what to
    send and tap, in English and Russian, and leads to both guides."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sections = re.split(r"^## ", readme, flags=re.MULTILINE)
    assert sections[1].startswith("How to play\n")
    first = sections[1]
    assert "/start" in first and "/new" in first and "13/7 8/7" in first
    assert "(docs/user-guide.en.md)" in first and "(docs/user-guide.ru.md)" in first


def slug(heading: str) -> str:
    """Return the anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_of_the_readme_and_the_docs_lead_to_files_and_headings() -> None:
    broken = []
    for page in [ROOT / "README.md", *DOCS.glob("*.md")]:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            file_part, _, anchor = target.partition("#")
            path = (page.parent / file_part).resolve() if file_part else page
            if not path.exists():
                broken.append(f"{page.name}: {target}")
            elif anchor and path.suffix == ".md":
                headings = re.findall(r"^#{1,6}\s+(.*)$", path.read_text(encoding="utf-8"), re.MULTILINE)
                if anchor not in {slug(h) for h in headings}:
                    broken.append(f"{page.name}: {target}")
    assert not broken, f"links to nowhere: {broken}"
