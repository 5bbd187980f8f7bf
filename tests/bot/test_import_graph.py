"""The import graph of the code, read from the sources with ``ast`` (nothing is imported): no module of ``bot/``
takes part in an import cycle (imports under ``TYPE_CHECKING`` count too), and the floors below the bot never import
it; no service imports the composition root (``bot.wiring``), no handler imports the storage (``bot.storage``: the
handlers read and write through services), and the removed ``GameService`` façade (``bot.services.game_service``)
stays gone. ``lint-imports`` checks the same and the layers inside the bot
(``[tool.importlinter]`` in pyproject.toml); this test keeps these rules in the test suite itself."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def modules_of(package: str) -> dict[str, Path]:
    """Return every module of ``package`` (a folder at the project's root) by its dotted name."""
    found: dict[str, Path] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imported_names(path: Path, module: str) -> set[str]:
    """Return the dotted names that the module at ``path`` imports (``from a import b`` gives ``a.b``, which names
    the module ``a.b`` or else something of ``a``, as import-linter counts it; relative imports resolved against
    ``module``)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def import_graph(package: str) -> dict[str, set[str]]:
    """Return the modules of ``package`` with the modules of the same package each imports (a name is resolved to
    the longest module it names)."""
    modules = modules_of(package)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets: set[str] = set()
        for name in imported_names(path, module):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_cycles_finds_a_cycle_and_ignores_a_chain() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_inside_bot() -> None:
    graph = import_graph("bot")
    assert len(graph) > 50  # the walk found the bot's modules
    assert cycles(graph) == []


def test_the_floors_below_the_bot_never_import_it() -> None:
    for package, forbidden in (("nardy", ("bot", "rendering")), ("tournaments", ("bot",)), ("rendering", ("bot",))):
        for module, path in modules_of(package).items():
            wrong = {n for n in imported_names(path, module) if n.split(".")[0] in forbidden}
            assert not wrong, f"{module} imports {sorted(wrong)}"


def test_no_service_imports_the_composition_root_and_the_facade_is_gone() -> None:
    services = {module: path for module, path in modules_of("bot").items() if module.startswith("bot.services")}
    assert "bot.services.actions" in services  # the walk found the services
    assert "bot.services.game_service" not in services
    for module, path in services.items():
        wrong = {n for n in imported_names(path, module) if n == "bot.wiring" or n.startswith("bot.wiring.")}
        assert not wrong, f"{module} imports the composition root: {sorted(wrong)}"
    for module, path in modules_of("bot").items():
        facade = {n for n in imported_names(path, module) if n.startswith("bot.services.game_service")}
        assert not facade, f"{module} imports the removed GameService façade"


def test_no_handler_imports_the_storage() -> None:
    handlers = {module: path for module, path in modules_of("bot").items() if module.startswith("bot.handlers")}
    assert "bot.handlers.settings" in handlers  # the walk found the handlers
    for module, path in handlers.items():
        wrong = {n for n in imported_names(path, module) if n == "bot.storage" or n.startswith("bot.storage.")}
        assert not wrong, f"{module} imports the storage: {sorted(wrong)}"


def test_the_mini_app_server_uses_services_only() -> None:
    """The Mini App's server (``bot/webapp``) reads and writes through services, never the storage, and no service
    imports it (it is injected a publisher, :mod:`bot.services.live`)."""
    modules = modules_of("bot")
    webapp = {module: path for module, path in modules.items() if module.startswith("bot.webapp")}
    assert "bot.webapp.server" in webapp  # the walk found the Mini App's server
    for module, path in webapp.items():
        wrong = {n for n in imported_names(path, module) if n == "bot.storage" or n.startswith("bot.storage.")}
        assert not wrong, f"{module} imports the storage: {sorted(wrong)}"
    for module, path in modules.items():
        if module.startswith("bot.services"):
            wrong = {n for n in imported_names(path, module) if n == "bot.webapp" or n.startswith("bot.webapp.")}
            assert not wrong, f"{module} imports the Mini App's server: {sorted(wrong)}"
