"""Big graphs headless: importing a long one-liner (trace, build, layered layout) and what a 2,000-node document
costs to evaluate, run backward on, save, load, edit and undo, delete from and export.

1. ``y = x*w + x*w + ...`` and ``y = x + x + ...`` of 100, 200, 400 and 900 terms through ``import_here`` (the
   subprocess route gives a snippet TIME_LIMIT = 30 s): the layout's lanes were n^2/2 column entries, 900 terms
   took about a minute; each row prints the import time and the layout's share of it.
2. A 2,000-node document built headless (see ``big_document``), each operation timed once per repeat; the best
   of the repeats is printed (the machine is shared: the least disturbed run), with ``ok`` / ``SLOW`` against a
   1 s mark.
Run: ``PYTHONPATH=. python benchmarks/bench_nodegraph_scale.py [--repeats 3] [--terms 100,400] [--skip-import]``.
"""

from __future__ import annotations

import argparse
import time

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.files.code_import import import_here
from core.nodegraph.model import layout


def long_sum(term: str, n: int) -> str:
    """A snippet whose last line sums ``n`` copies of ``term`` (x and w are defined above it)."""
    return "import torch\nx = torch.randn(3, requires_grad=True)\nw = torch.randn(3)\ny = " + " + ".join([term] * n)


def time_import(term: str, n: int) -> tuple[float, float, int]:
    """(seconds for the whole import, seconds of it in layout.layered, nodes)."""
    spent = [0.0]
    original = layout.layered

    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - start

    layout.layered = timed
    try:
        start = time.perf_counter()
        graph = import_here(long_sum(term, n), time_limit=None).graph
        return time.perf_counter() - start, spent[0], len(graph.nodes)
    finally:
        layout.layered = original


def bench_imports(terms: list[int], repeats: int) -> None:
    print("import of a long one-liner (best of repeats)")
    for term in ("x*w", "x"):
        for n in terms:
            best = min(time_import(term, n) for _ in range(repeats))
            print(f"  {term:>4} x {n:4d} terms  {best[2]:5d} nodes  import {best[0]:6.2f} s  layout {best[1]:6.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--terms", default="100,200,400,900")
    parser.add_argument("--skip-import", action="store_true")
    args = parser.parse_args()
    if not args.skip_import:
        bench_imports([int(t) for t in args.terms.split(",")], args.repeats)


if __name__ == "__main__":
    main()
