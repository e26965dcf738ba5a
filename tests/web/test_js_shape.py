"""The web app's shape: no import cycle among its modules, and pages that only the entry
point imports.

Static imports, `export … from` and dynamic `import()` all count: a cycle through a lazy
import is still two modules that cannot be read or changed one without the other. A
dynamic import of a template (`../boards/${id}.js`) stands for every file it can name.
"""

from __future__ import annotations

import re
from pathlib import Path

from sansu.web import STATIC_DIR

# Static imports and re-exports stand at the start of a line; the clause before `from`
# holds no quote or semicolon, so a multi-line `import {a,\n  b} from '…'` is one match.
STATIC_IMPORT = re.compile(r"^import\b[^;'\"`]*?\bfrom\s*(['\"])([^'\"]+)\1", re.M)
BARE_IMPORT = re.compile(r"^import\s*(['\"])([^'\"]+)\1", re.M)
RE_EXPORT = re.compile(
    r"^export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(['\"])([^'\"]+)\1", re.M
)
DYNAMIC_IMPORT = re.compile(r"\bimport\(\s*(?:(['\"`])(.*?)\1)?")
TEMPLATE_PART = re.compile(r"\$\{[^}]*\}")


def specifiers(text: str) -> list[str]:
    """The module specifiers `text` imports; '?' for a dynamic import of no literal."""
    found = [
        m[2] for pattern in (STATIC_IMPORT, BARE_IMPORT, RE_EXPORT) for m in pattern.finditer(text)
    ]
    found += [m[2] if m[1] else "?" for m in DYNAMIC_IMPORT.finditer(text)]
    return found


def targets(path: Path, specifier: str, root: Path) -> set[str]:
    """The files under `root` a specifier in `path` names; {'?'} when it names none."""
    if specifier == "?":
        return {"?"}
    if not specifier.startswith("."):
        return set()  # a bare name or a URL: not one of the app's files
    pattern = TEMPLATE_PART.sub("*", specifier)
    folder, _, name = (path.parent / pattern).as_posix().rpartition("/")
    found = {p.resolve() for p in Path(folder).resolve().glob(name) if p.is_file()}
    return {p.relative_to(root).as_posix() for p in found} or {f"? {specifier}"}


def import_graph(root: Path = STATIC_DIR) -> dict[str, set[str]]:
    """Each module under `root` (as 'js/app.js') with the modules it imports."""
    root = root.resolve()
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        graph[path.relative_to(root).as_posix()] = {
            t for s in specifiers(text) for t in targets(path, s, root)
        }
    return graph


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """The modules `start` reaches through one import or more."""
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        v = todo.pop()
        if v not in seen:
            seen.add(v)
            todo.extend(graph.get(v, ()))
    return seen


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that import themselves, in groups that reach one another."""
    reach = {v: reachable(graph, v) for v in graph}
    found: list[list[str]] = []
    placed: set[str] = set()
    for v in sorted(graph):
        if v in reach[v] and v not in placed:
            group = sorted(w for w in reach[v] if v in reach.get(w, ()))
            placed.update(group)
            found.append(group)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert cycles(graph) == [["a", "b", "c"], ["e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "parts").mkdir()
    for name in ("a", "b", "c", "d", "e"):
        (tmp_path / "js" / f"{name}.js").write_text("")
    for name in ("one", "two"):
        (tmp_path / "parts" / f"{name}.js").write_text("")
    (tmp_path / "js" / "main.js").write_text(
        "// main: import nothing from a comment's words\n"
        "import {x,\n  y} from './a.js';\nimport Z from \"./b.js\";\nimport './c.js';\n"
        "export {w} from './d.js';\nexport * from 'https://example.org/lib.js';\n"
        "const e = () => import('./e.js');\nconst f = (id) => import(`../parts/${id}.js`);\n"
    )
    assert import_graph(tmp_path)["js/main.js"] == {
        "js/a.js",
        "js/b.js",
        "js/c.js",
        "js/d.js",
        "js/e.js",
        "parts/one.js",
        "parts/two.js",
    }
    (tmp_path / "js" / "a.js").write_text(
        "const g = (name) => import(name);\nimport {q} from './missing.js';\n"
    )
    assert import_graph(tmp_path)["js/a.js"] == {"?", "? ./missing.js"}


def test_every_import_names_a_module_of_the_app() -> None:
    graph = import_graph()
    assert "js/home.js" in graph["js/app.js"]  # a dynamic import
    assert "boards/generic.js" in graph["js/games.js"]  # a template's files
    assert "js/kit.js" in graph["boards/uttt.js"]  # an import over two lines
    unnamed = {v: sorted(t for t in ts if t.startswith("?")) for v, ts in graph.items()}
    assert {v: ts for v, ts in unnamed.items() if ts} == {}


def test_no_import_cycle_in_the_web_app() -> None:
    assert cycles(import_graph()) == []


def test_pages_are_imported_by_the_entry_point_alone() -> None:
    """A page (a module that registers routes) holds nothing another module needs."""
    graph = import_graph()
    pages = {
        v
        for v in graph
        if v != "js/app.js"
        and re.search(r"^route\(", (STATIC_DIR / v).read_text(encoding="utf-8"), re.M)
    }
    assert {"js/home.js", "js/play.js", "js/ratings.js", "js/bots.js"} <= pages
    importers = {p: sorted(v for v, ts in graph.items() if p in ts) for p in pages}
    assert importers == {p: ["js/app.js"] for p in pages}
    assert not any("js/app.js" in ts for ts in graph.values())
