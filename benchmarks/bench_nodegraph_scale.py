"""Big graphs headless: importing a long one-liner (trace, build, layered layout) and what a 2,000-node document
costs to evaluate, run backward on, save, load, edit and undo, delete from and export.

1. ``y = x*w + x*w + ...`` and ``y = x + x + ...`` of 100, 200, 400 and 900 terms through ``import_here`` (the
   subprocess route gives a snippet TIME_LIMIT = 30 s): the layout's lanes were n^2/2 column entries, 900 terms
   took about a minute; each row prints the import time and the layout's share of it.
2. A 2,000-node document built headless (see ``big_document``), each operation timed once per repeat; the best
   of the repeats is printed (the machine is shared: the least disturbed run), with ``ok`` / ``SLOW`` against a
   1 s mark.
Run: ``PYTHONPATH=. python benchmarks/bench_nodegraph_scale.py [--repeats 3] [--terms 100,400] [--skip-import]``.

Session 30 (load 9-13, so only the before/after pairs count): x*w import 400 terms 59.7 -> 1.8 s, 900 terms
815 -> 4.6 s (2f71e943); 2,000-node chain delete a node 50.7 -> 0.6 s, rename + undo + redo 7.1 -> 0.002 s
(179ce913), export 1.7 -> 0.7 s (f7d4d38e). Left above 1 s: the chain's Session + forward (~1.2 s: a history
snapshot per node, linear) and ``x + x + ...`` of 900 terms (~6 s: its edges' clearing stops after 12 rounds).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_growth import build_chain

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.export.script import export_script
from core.nodegraph.files import io as files
from core.nodegraph.files.code_import import import_here
from core.nodegraph.model import commands as cmd
from core.nodegraph.model import layout
from core.nodegraph.model.document import Graph
from core.nodegraph.run.session import Session

MARK_S = 1.0  # an operation slower than this on a 2,000-node document is SLOW


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


def big_documents(n: int) -> dict[str, Callable[[], Graph]]:
    """Two ~n-node documents: a chain built with commands (bench_growth's: mul, tanh, add, a grad-requiring leaf
    every four nodes, summed) and an imported ``x*w + x*w + ...`` of n/2 terms (its sum the loss)."""
    return {"chain (commands)": lambda: build_chain(n), "x*w sum (imported)": lambda: _imported(n // 2)}


def _imported(terms: int) -> Graph:
    return import_here(long_sum("x*w", terms) + "\ny.sum().backward()\n", time_limit=None).graph


def _timed(times: dict[str, list[float]], name: str, fn: Callable[[], object]) -> object:
    start = time.perf_counter()
    out = fn()
    times.setdefault(name, []).append(time.perf_counter() - start)
    return out


def operations(graph: Graph, times: dict[str, list[float]]) -> None:
    """Each user operation on ``graph`` once, as the app does them: a session listening to the document."""
    session = Session(graph)
    _timed(times, "forward (Session + forward)", session.forward)
    assert not session.errors, list(session.errors.items())[:3]
    _timed(times, "backward", session.backward)
    text = _timed(times, "save (files.dumps)", lambda: files.dumps(graph))
    _timed(times, "load (files.loads)", lambda: files.loads(text))
    leaf = next(nid for nid, node in graph.nodes.items() if node.type.startswith("source."))
    edit = cmd.SetNodeAttr(leaf, "title", "edited")
    _timed(times, "edit + undo + redo (a title)", lambda: (edit.do(graph), edit.undo(graph), edit.do(graph)))
    middle = list(graph.nodes)[len(graph.nodes) // 2]
    delete = cmd.RemoveNodes([middle])
    _timed(times, "delete a node", lambda: delete.do(graph))
    _timed(times, "undo the delete", lambda: delete.undo(graph))
    _timed(times, "forward after the edits", session.forward)
    _timed(times, "export to a core script", lambda: export_script(graph))
    session.close()


def bench_big(n: int, repeats: int) -> None:
    for name, build in big_documents(n).items():
        times: dict[str, list[float]] = {}
        for _ in range(repeats):
            graph = _timed(times, "build", build)
            operations(graph, times)
        print(f"{name}: {len(graph.nodes)} nodes, {len(graph.edges)} edges (best of {repeats})")
        for op, spent in times.items():
            best = min(spent)
            print(f"  {op:32s} {best:7.3f} s  {'ok' if best <= MARK_S or op == 'build' else 'SLOW'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--terms", default="100,200,400,900")
    parser.add_argument("--skip-import", action="store_true")
    parser.add_argument("--nodes", type=int, default=2000)
    args = parser.parse_args()
    if not args.skip_import:
        bench_imports([int(t) for t in args.terms.split(",")], args.repeats)
    bench_big(args.nodes, args.repeats)


if __name__ == "__main__":
    main()
