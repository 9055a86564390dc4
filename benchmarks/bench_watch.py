"""Watch list overhead: training steps of the toy classifier with no watch list, an empty one and 3 ports.

Prints µs per ``Session.train`` step (the median of interleaved repeats, this process's CPU time so other
load on a shared machine skews it less) and each case's cost relative to no watch list. Targets: an empty
watch list costs nothing measurable (within noise, under 2%); watching the loss, the model's output and a
weight matrix costs a few percent.
Run: ``PYTHONPATH=. python benchmarks/bench_watch.py [steps] [repeats]``.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time

from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.run.session import Session
from core.nodegraph.training.watch import WatchList

CASES = {"no watch list": None, "empty watch list": [], "3 ports": ["n3.out", "n2.out", "n2.0.weight"]}


def _session(keys):
    graph = classifier_graph("spiral")
    session = Session(graph)
    session.forward()  # the layer's parameters exist: "n2.0.weight" can be read
    if keys is not None:
        watch = WatchList(graph)
        watch.attach(session)
        for key in keys:
            assert watch.add(key) is None
    list(session.train(5))  # warm up: modules built, optimizer made
    return session


def time_step(keys, steps: int) -> float:
    session = _session(keys)
    gc.collect()  # the previous case's garbage is not this one's cost
    start = time.process_time()
    for _ in session.train(steps):
        pass
    return (time.process_time() - start) / steps * 1e6


def main(steps: int = 200, repeats: int = 5) -> dict:
    times = {name: [] for name in CASES}
    names = list(CASES)
    for r in range(repeats):
        for name in names[r % 3:] + names[:r % 3]:  # each case runs first, second and last in turn
            times[name].append(time_step(CASES[name], steps))
    medians = {name: statistics.median(t) for name, t in times.items()}
    base = medians["no watch list"]
    for name, us in medians.items():
        print(f"{name:>18}: {us:8.1f} µs/step  ({us / base - 1:+.1%})")
    return medians


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
