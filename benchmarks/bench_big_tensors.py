"""Loading a graph file that holds one big float32 tensor literal: time and peak extra memory against numpy.load.

Cases: the current format (the tensor in a ``.npz`` sidecar beside the JSON), a version 2 file with the tensor as
base64 ``.npy`` inside the JSON, and a version 2 file with the tensor as an inline JSON list (``--inline-n``
elements; writing and parsing such a list is slow by nature). Each load runs in a fresh subprocess with
``tracemalloc`` on (NumPy reports its buffers to it); the floor is ``numpy.load`` of the same array bytes (the
sidecar's ``.npz`` entry; a plain ``.npy`` file is shown too).
Targets: load within 3x of numpy.load, peak extra memory <= 3x the array.

    python benchmarks/bench_big_tensors.py            # 10M elements
    python benchmarks/bench_big_tensors.py --n 50000000 --inline-n 5000000
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MEASURE = """
import sys, time, tracemalloc
import numpy as np
import core.nodegraph.model.nodes
from core.nodegraph.files import io as files
kind, path = sys.argv[1], sys.argv[2]
tracemalloc.start()
t0 = time.perf_counter()
if kind == "graph":
    value = files.load(path).nodes["t"].params["tensor"]
elif kind == "npz":
    with np.load(path) as z:
        value = z["t0"]
else:
    value = np.load(path)
seconds = time.perf_counter() - t0
print(seconds, tracemalloc.get_traced_memory()[1], np.asarray(value).nbytes)
"""


def measure(kind: str, path: str) -> tuple:
    env = {**os.environ, "PYTHONPATH": ROOT}
    out = subprocess.run([sys.executable, "-c", MEASURE, kind, path], capture_output=True, text=True, env=env,
                         check=True).stdout.split()
    return float(out[0]), int(out[1]), int(out[2])


def write_cases(folder: str, n: int, inline_n: int) -> dict:
    import core.nodegraph.model.nodes  # noqa: F401
    from core.nodegraph.files import io as files
    from core.nodegraph.model.document import Graph, Node
    from core.nodegraph.model.tensor_store import TensorValue

    arr = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    g = Graph()
    g.add_node(Node("t", "source.tensor", {"tensor": TensorValue(arr)}))
    cases = {"sidecar": os.path.join(folder, "sidecar.json")}
    files.save(g, cases["sidecar"])
    np.save(os.path.join(folder, "floor.npy"), arr)
    cases["base64 .npy (v2)"] = os.path.join(folder, "base64.json")
    with open(cases["base64 .npy (v2)"], "w", encoding="utf-8") as f:
        f.write(files.dumps(g).replace('"version": 3', '"version": 2', 1))
    data = json.loads(files.dumps(Graph()))
    data["version"] = 2
    data["nodes"] = [{"id": "t", "type": "source.tensor", "params": {"tensor": arr[:inline_n].tolist()}}]
    cases[f"inline list of {inline_n} (v2)"] = os.path.join(folder, "inline.json")
    with open(cases[f"inline list of {inline_n} (v2)"], "w", encoding="utf-8") as f:
        json.dump(data, f)
    return cases


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000, help="float32 elements of the tensor (default 10M)")
    parser.add_argument("--inline-n", type=int, default=1_000_000, help="elements of the inline-list case")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        cases = write_cases(folder, args.n, args.inline_n)
        floor_s, floor_peak, nbytes = measure("npy", os.path.join(folder, "floor.npy"))
        (sidecar,) = [os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".npz")]
        npz_s, _, _ = measure("npz", sidecar)
        print(f"{args.n:,} float32 elements ({nbytes / 2**20:.0f} MiB); numpy.load {floor_s:.3f} s "
              f"(npz entry {npz_s:.3f} s), peak {floor_peak / nbytes:.2f}x the array")
        print(f"{'file':<28}{'size MiB':>10}{'load s':>10}{'x npz':>10}{'peak x array':>14}  targets (3x, 3x)")
        for name, path in cases.items():
            seconds, peak, got = measure("graph", path)
            size = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)
                       if f.startswith(os.path.basename(path)))
            ratio, mem = seconds / npz_s, peak / got
            ok = "met" if ratio <= 3 and mem <= 3 else "missed"
            print(f"{name:<28}{size / 2**20:>10.1f}{seconds:>10.3f}{ratio:>10.2f}{mem:>14.2f}  {ok}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
