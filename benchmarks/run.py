"""Runs every benchmark in this folder (``*_bench.py``, each with ``main()``), or those named.

Usage: ``python benchmarks/run.py [NAME ...]`` — e.g. ``protocol`` or ``sudoku``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(names: list[str]) -> int:
    paths = sorted(HERE.glob("*_bench.py"))
    if names:
        paths = [p for p in paths if p.stem.removesuffix("_bench") in names]
        if not paths:
            print(f"no benchmark called {' or '.join(names)}", file=sys.stderr)
            return 2
    for path in paths:
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
