"""The code's shape: no import cycle anywhere in ``src/``, no server module past ~500 lines.

Every import counts, wherever it stands (inside a function, or only for type
checking): a cycle hidden in a lazy import is still two modules that cannot
be understood, changed or tested one without the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
MAX_LINES = 520


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


def test_no_server_module_is_long() -> None:
    server = SRC / "sansu" / "server"
    lengths = {
        p.relative_to(server).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in server.rglob("*.py")
    }
    assert lengths and all(n < MAX_LINES for n in lengths.values()), lengths
