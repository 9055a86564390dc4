"""Peak memory of the speed workloads, core beside PyTorch CPU (issue #23's memory row).

Each measurement runs in a fresh child process, which reports its peak resident set (``ru_maxrss``) after
importing the library and making the inputs, and again after the workload: the difference is what the
workload itself added at its peak.

- ``conv``: the chapter's conv2d (32x3x224x224 * 64x3x7x7, stride 2, padding 3), forward + backward, once.
- ``train10k``: 10,000 full-batch SGD steps of the 2-8-8-1 tanh MLP on 200 points (flat memory expected);
  core eagerly and through ``core.compile``.

Run: ``PYTHONPATH=. python benchmarks/bench_memory.py``
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CASES = [("conv", "core"), ("conv", "torch"), ("train10k", "core"), ("train10k", "core.compile"),
         ("train10k", "torch")]


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # kilobytes on Linux


def _child(workload: str, lib_name: str) -> dict:
    import numpy as np

    lib = __import__("torch" if lib_name == "torch" else "core")
    if workload == "conv":
        rng = np.random.default_rng(0)
        x = lib.tensor(rng.standard_normal((32, 3, 224, 224)).astype(np.float32), requires_grad=True)
        w = lib.tensor(rng.standard_normal((64, 3, 7, 7)).astype(np.float32), requires_grad=True)
        before = _peak_mib()
        lib.nn.functional.conv2d(x, w, stride=2, padding=3).sum().backward()
    else:
        import bench_training

        train = bench_training.tanh1000_case(lib, steps=10_000, compiled=lib_name == "core.compile")
        before = _peak_mib()
        train()
    return {"before": before, "after": _peak_mib()}


def main() -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, HERE, os.environ.get("PYTHONPATH", "")]))
    print(f"{'workload':<12}{'library':<14}{'peak after setup':>18}{'peak after run':>16}{'added':>10}")
    for workload, lib in CASES:
        out = subprocess.run([sys.executable, __file__, "--child", workload, lib], env=env, capture_output=True,
                             text=True, check=True).stdout
        res = json.loads(out.strip().splitlines()[-1])
        print(f"{workload:<12}{lib:<14}{res['before']:>14.0f} MiB{res['after']:>12.0f} MiB"
              f"{res['after'] - res['before']:>6.0f} MiB")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        print(json.dumps(_child(sys.argv[2], sys.argv[3])))
    else:
        main()
