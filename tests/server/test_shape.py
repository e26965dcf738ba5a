"""The code's shape: no import cycle in ``src/``, no module past ~450 lines, the server's layers.

Every import counts, wherever it stands (inside a function, or only for type
checking): a cycle hidden in a lazy import is still two modules that cannot
be understood, changed or tested one without the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
MAX_LINES = 460
"""About 450 lines: a module a reader can hold in mind."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, name: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that the module at ``path`` imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # `from pkg import mod` imports the module pkg.mod when there is one.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in SRC.rglob("*.py")}
    known = set(paths)
    return {name: imports_of(path, name, known) for name, path in paths.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg import y\n"
        "def f():\n    from .z import g\n"
    )
    found = imports_of(tmp_path / "x.py", "pkg.x", {"pkg.x", "pkg.y", "pkg.z"})
    assert found == {"pkg.y", "pkg.z"}


def test_no_import_cycle_in_src() -> None:
    graph = import_graph()
    assert "sansu.server.play.service" in graph and "sansu.ai.mcts" in graph
    assert cycles(graph) == []


def test_no_module_is_long() -> None:
    lengths = {
        p.relative_to(SRC).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in SRC.rglob("*.py")
    }
    long = {name: n for name, n in lengths.items() if n > MAX_LINES}
    assert lengths and not long, long


SERVER = "sansu.server"
MAY_IMPORT: dict[str, set[str]] = {
    "base": set(),
    "accounts": {"base"},
    "ratings": {"base", "accounts"},
    "play": {"base", "accounts", "ratings"},
    "lobby": {"base", "accounts", "ratings", "play"},
    "tournaments": {"base", "accounts", "ratings", "play"},
    "analysis": {"base", "accounts", "play"},
    "learn": {"base", "accounts", "ratings", "play", "analysis"},
    "bots": {"base", "accounts", "ratings", "play", "lobby", "tournaments"},
    "cluster": {"base", "accounts", "ratings", "play", "lobby", "tournaments", "bots"},
    "chat": {"base", "accounts", "play"},
    "relation": {"base", "accounts", "play"},
    "moderation": {"base", "accounts", "ratings", "play", "lobby", "chat"},
    "app": {
        "base", "accounts", "ratings", "play", "lobby", "tournaments", "analysis", "bots",
        "cluster", "learn", "chat", "relation", "moderation",
    },
    "migrations": {
        "base", "accounts", "ratings", "analysis", "bots", "tournaments", "learn", "chat",
        "relation", "moderation",
    },
}  # fmt: skip
"""Each server package and the packages it may import: layer on layer, so that a package
can be read, changed and tested with only those below it. Of the cluster, only ``app``
knows anything."""


def server_package(module: str) -> str | None:
    """``play`` for ``sansu.server.play.rounds``; None outside the server's packages."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["sansu", "server"] and len(parts) > 2 else None


def forbidden_arrows(graph: dict[str, set[str]]) -> list[str]:
    """Imports that break the table, that reach past a package's face, or that point to
    a package the table does not know."""
    wrong = []
    for module, targets in sorted(graph.items()):
        own = server_package(module)
        if own is None:
            continue
        for target in sorted(targets):
            other = server_package(target)
            if other is None or other == own:
                continue
            if own not in MAY_IMPORT or other not in MAY_IMPORT[own]:
                wrong.append(f"{module} -> {target}: {own} may not import {other}")
            elif target != f"{SERVER}.{other}":
                wrong.append(f"{module} -> {target}: past the face of {other}")
    return wrong


def test_the_table_finds_a_forbidden_arrow_and_a_reach_past_a_face() -> None:
    graph = {
        "sansu.server.base.store": {"sansu.server.play"},
        "sansu.server.lobby.seeks": {"sansu.server.play.rounds", "sansu.server.lobby.desk"},
        "sansu.server.bots.routes": {"sansu.server.lobby"},
    }
    assert forbidden_arrows(graph) == [
        "sansu.server.base.store -> sansu.server.play: base may not import play",
        "sansu.server.lobby.seeks -> sansu.server.play.rounds: past the face of play",
    ]


def test_server_packages_import_only_what_the_table_allows_and_only_faces() -> None:
    graph = import_graph()
    packages = {server_package(m) for m in graph} - {None}
    assert packages == set(MAY_IMPORT), packages ^ set(MAY_IMPORT)
    assert forbidden_arrows(graph) == []


def private_imports(path: Path) -> list[str]:
    """``from x import _name`` of a name that is not a module: another module's private."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            folder = SRC.joinpath(*node.module.split("."))
            for alias in node.names:
                name = alias.name
                is_module = any(folder.glob(f"{name}.*")) or (folder / name).is_dir()
                if name.startswith("_") and not name.startswith("__") and not is_module:
                    found.append(f"{path.name}: {node.module}.{name}")
    return found


def test_the_private_check_finds_a_private_name_but_not_a_private_module(
    tmp_path: Path,
) -> None:
    (tmp_path / "x.py").write_text(
        "from sansu.core.cells import _hidden, shown\nfrom sansu.games import _native\n"
    )
    assert private_imports(tmp_path / "x.py") == ["x.py: sansu.core.cells._hidden"]


def test_no_module_imports_another_modules_private_name() -> None:
    found = [hit for p in sorted(SRC.rglob("*.py")) for hit in private_imports(p)]
    assert found == []


FRAMEWORK = ("fastapi", "starlette")


def framework_users() -> list[str]:
    """Server modules that import the web framework outside ``routes*.py``, the game's
    socket, the shared request shapes, the identity, and the app package."""
    allowed_names = ("routes", "socket")
    users = []
    for path in sorted((SRC / "sansu" / "server").rglob("*.py")):
        parts = path.relative_to(SRC / "sansu" / "server").parts
        if len(parts) < 2 or parts[0] in ("app", "migrations"):
            continue
        if path.stem.startswith(allowed_names) or parts[:2] in (
            ("base", "requests.py"),
            ("accounts", "identity.py"),
        ):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n.split(".")[0] in FRAMEWORK for n in names):
                users.append("/".join(parts))
                break
    return users


def test_only_routes_import_the_web_framework() -> None:
    assert framework_users() == []
