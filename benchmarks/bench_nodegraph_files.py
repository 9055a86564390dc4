"""Loading and validating a 1,000-node graph file: parse, schema check, parameters, edges, cycles, validate().

Builds a file of 1,000 nodes (sources, binary and unary ops, a few large tensor literals stored as
base64 .npy, comments) with the built-in node types when ``core.nodegraph.model.nodes`` exists, else with
stand-in types of the same shape, then times ``files.loads`` + ``validation.validate`` and prints the
median of several repeats. Target: under 0.5 s.
Run: ``PYTHONPATH=. python benchmarks/bench_nodegraph_files.py [repeats]``.
"""

from __future__ import annotations

import statistics
import sys
import time

from core.nodegraph.files import io as files
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Graph
from core.nodegraph.model.spec import NodeSpec, Param, Port, has_spec, register
from core.nodegraph.model.validation import validate

try:
    import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types, when present
except ImportError:
    pass

TARGET_S = 0.5


def _types() -> dict:
    """Type ids for a tensor literal, a random source, a binary and a unary op."""
    if all(has_spec(t) for t in ("source.tensor", "source.randn", "math.add", "math.exp")):
        return {"literal": ("source.tensor", "tensor"), "random": "source.randn", "binary": "math.add",
                "unary": "math.exp"}
    register(NodeSpec("bench.tensor", "bench", "Tensor", "literal", lambda c, i, p: p["tensor"],
                      params=(Param("tensor", "tensor", 0.0),)))
    register(NodeSpec("bench.randn", "bench", "Randn", "random", lambda c, i, p: 0.0,
                      params=(Param("shape", "shape", (2, 3)), Param("seed", "seed", None))))
    register(NodeSpec("bench.add", "bench", "Add", "a + b", lambda c, i, p: 0.0, inputs=(Port("a"), Port("b"))))
    register(NodeSpec("bench.exp", "bench", "Exp", "exp", lambda c, i, p: 0.0, inputs=(Port("x"),)))
    return {"literal": ("bench.tensor", "tensor"), "random": "bench.randn", "binary": "bench.add",
            "unary": "bench.exp"}


def build_graph(n_nodes: int = 1000) -> Graph:
    types = _types()
    g = Graph()
    for i in range(n_nodes):
        nid, pos = f"n{i + 1}", [float(i % 40) * 150.0, float(i // 40) * 90.0]
        if i < 200:
            if i % 20 == 0:
                t, name = types["literal"]
                node = {"type": t, "params": {name: [float(k) for k in range(100)]}}
            else:
                node = {"type": types["random"], "params": {"shape": [4, 4], "seed": i}}
        else:
            node = {"type": types["binary"] if i % 3 else types["unary"], "params": {}}
        cmd.AddNode({"id": nid, "position": pos, **node}).do(g)
        if i >= 200:
            binary = types["binary"] if i % 3 else None
            if binary:
                cmd.Connect(f"n{i}", "out", nid, "a").do(g)
                cmd.Connect(f"n{(i * 7919) % 200 + 1}", "out", nid, "b").do(g)
            else:
                cmd.Connect(f"n{i}", "out", nid, "x").do(g)
    for c in range(10):  # comments over the nodes a graph has (all ten from 470 nodes: bench_growth.py --sizes 100)
        ids = [f"n{k}" for k in range(c * 50 + 1, min(c * 50 + 20, n_nodes + 1))]
        if ids:
            cmd.AddComment({"text": f"group {c}", "nodes": ids}).do(g)
    return g


def main(repeats: int = 7) -> None:
    g = build_graph()
    text = files.dumps(g)
    assert files.loads(text) == g
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        loaded = files.loads(text)
        validate(loaded)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(f"load + validate, {len(g.nodes)} nodes, {len(g.edges)} edges, {len(text) / 1024:.0f} KiB: "
          f"median {median * 1000:.1f} ms over {repeats} runs (target < {TARGET_S * 1000:.0f} ms) "
          f"{'ok' if median < TARGET_S else 'MISSED'}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
