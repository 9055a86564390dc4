"""Growth of the headless graph pipeline with the number of nodes: every step must stay linear (or n log n).

Two graphs per size: (a) the generator graph of ``bench_nodegraph_files.build_graph`` (random and literal
sources feeding adds and exps) and (b) a long chain of ``mul``/``tanh``/``add`` with a grad-requiring leaf
every three nodes, summed at the end. For each it times, as the user's path does:
build by commands (``AddNode``/``Connect``), save (``files.dumps``), load + validate, ``Session(graph)`` +
``forward()``, and ``backward()``. It prints each median, the target for 20,000 nodes, and the growth
exponent of every step fitted over the sizes (least squares of log time on log size; 1 is linear).
Targets (issue #21): at 20,000 nodes build <= 2 s, save <= 1 s, load + validate <= 1 s,
Session + forward() <= 2 s, backward() <= 2 s; 100,000 nodes within 6x of 20,000.
Run: ``PYTHONPATH=. python benchmarks/bench_growth.py [--sizes 1000,2000,...] [--no-100k] [--repeats N]
[--big-repeats N] [--profile N]`` (``--profile 5000`` prints a cProfile of every step at that size instead).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import math
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_nodegraph_files import build_graph

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.files import io as files
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Graph
from core.nodegraph.model.validation import validate
from core.nodegraph.run.session import Session

SIZES = (1000, 2000, 5000, 10000, 20000)
BIG = 100_000
TARGETS_20K = {"build": 2.0, "save": 1.0, "load+validate": 1.0, "session+forward": 2.0, "backward": 2.0}
STEPS = tuple(TARGETS_20K)


def build_chain(n: int) -> Graph:
    """A chain of ``n`` nodes: a leaf every three nodes feeds the next mul and add; a sum closes the chain."""
    g = Graph()
    leaf = {"type": "source.randn", "params": {"shape": [4], "seed": 0, "requires_grad": True}}
    cmd.AddNode({"id": "n1", "position": [0.0, 0.0], **leaf}).do(g)
    prev, last_leaf, k = "n1", "n1", 1
    ops = ("math.mul", "math.tanh", "math.add")
    while k < n - 1:
        k += 1
        nid, pos = f"n{k}", [float(k % 40) * 150.0, float(k // 40) * 90.0]
        if k % 4 == 0:
            cmd.AddNode({"id": nid, "position": pos, **leaf, "params": {**leaf["params"], "seed": k}}).do(g)
            last_leaf = nid
            continue
        op = ops[k % 4 - 1]
        cmd.AddNode({"id": nid, "position": pos, "type": op, "params": {}}).do(g)
        if op == "math.tanh":
            cmd.Connect(prev, "out", nid, "x").do(g)
        else:
            cmd.Connect(prev, "out", nid, "a").do(g)
            cmd.Connect(last_leaf, "out", nid, "b").do(g)
        prev = nid
    cmd.AddNode({"id": f"n{n}", "type": "reduce.sum", "params": {}}).do(g)
    cmd.Connect(prev, "out", f"n{n}", "x").do(g)
    cmd.SetTraining("loss", f"n{n}").do(g)
    return g


def build_generator(n: int) -> Graph:
    """The file benchmark's graph, made runnable: its literals become 4x4 like its random sources (which
    then require grad), and a sum of its last node is the loss."""
    g = build_graph(n)
    for i in range(1, min(n, 200) + 1):
        node = g.nodes[f"n{i}"]
        if node.type == "source.tensor":
            cmd.SetParam(node.id, "tensor", [[float(r * 4 + c) / 16 for c in range(4)] for r in range(4)]).do(g)
        cmd.SetParam(node.id, "requires_grad", True).do(g)
    cmd.AddNode({"id": "loss", "type": "reduce.sum", "params": {}}).do(g)
    cmd.Connect(f"n{n}", "out", "loss", "x").do(g)
    cmd.SetTraining("loss", "loss").do(g)
    return g


GRAPHS = {"generator": build_generator, "chain": build_chain}


def run_steps(kind: str, n: int) -> dict:
    """Seconds of each step, once."""
    t = {}
    start = time.perf_counter()
    g = GRAPHS[kind](n)
    t["build"] = time.perf_counter() - start
    start = time.perf_counter()
    text = files.dumps(g)
    t["save"] = time.perf_counter() - start
    start = time.perf_counter()
    loaded = files.loads(text)
    issues = validate(loaded)
    t["load+validate"] = time.perf_counter() - start
    assert not issues, list(issues.items())[:3]
    start = time.perf_counter()
    session = Session(loaded)
    session.forward()
    t["session+forward"] = time.perf_counter() - start
    assert not session.errors, list(session.errors.items())[:3]
    start = time.perf_counter()
    session.backward()
    t["backward"] = time.perf_counter() - start
    assert not session.errors, list(session.errors.items())[:3]
    session.close()
    return t


def measure(kind: str, n: int, repeats: int) -> dict:
    runs = []
    for _ in range(repeats):
        gc.collect()  # the last run's document and session (cycles) go now, not inside this run's timing
        runs.append(run_steps(kind, n))
    return {step: statistics.median(r[step] for r in runs) for step in STEPS}


def exponent(sizes, times) -> float | None:
    """Least-squares slope of log(time) against log(size); None with fewer than two distinct sizes."""
    if len(set(sizes)) < 2:
        return None
    xs, ys = [math.log(s) for s in sizes], [math.log(max(t, 1e-6)) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def report(kind: str, sizes: list, results: dict) -> None:
    print(f"\n({kind}) median seconds per step")
    print(f"{'step':<17}" + "".join(f"{n:>9}" for n in sizes) + f"{'exp':>7}  target at 20k")
    for step in STEPS:
        times = [results[n][step] for n in sizes]
        slope = exponent(sizes, times)
        fitted = f"{slope:>7.2f}" if slope is not None else f"{'-':>7}"
        row = f"{step:<17}" + "".join(f"{v:>9.3f}" for v in times) + fitted
        if 20000 in results:
            row += f"  <= {TARGETS_20K[step]:.0f} s {verdict(results[20000][step] <= TARGETS_20K[step])}"
        if BIG in results and 20000 in results:
            ratio = results[BIG][step] / max(results[20000][step], 1e-9)
            row += f"; 100k/20k = {ratio:.1f}x {verdict(ratio <= 6.0)}"
        print(row)


def profile(n: int) -> None:
    for kind in GRAPHS:
        prof = cProfile.Profile()
        prof.enable()
        t = run_steps(kind, n)
        prof.disable()
        print(f"\n===== {kind}, {n} nodes: " + ", ".join(f"{k} {v:.2f} s" for k, v in t.items()))
        pstats.Stats(prof).sort_stats("cumulative").print_stats(35)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--no-100k", action="store_true", help="skip the 100,000-node run")
    parser.add_argument("--repeats", type=int, default=3, help="repeats below 10,000 nodes")
    parser.add_argument("--big-repeats", type=int, default=1, help="repeats from 10,000 nodes up")
    parser.add_argument("--profile", type=int, default=0, help="print a cProfile at this size and stop")
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.profile)
        return
    sizes = [int(s) for s in args.sizes.split(",")] + ([] if args.no_100k else [BIG])
    for kind in GRAPHS:
        results = {}
        for n in sizes:
            results[n] = measure(kind, n, args.repeats if n < 10000 else args.big_repeats)
            print(f"  {kind} {n}: " + ", ".join(f"{k} {v:.3f}" for k, v in results[n].items()), flush=True)
        report(kind, sizes, results)


if __name__ == "__main__":
    main()
