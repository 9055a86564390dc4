"""GPU timings, side by side in one process: core on CUDA (CuPy) vs PyTorch CUDA.

    python benchmarks/bench_gpu.py [--repeats 7] [--quick]

Workloads: the chapter's conv2d forward + backward at batch 32 and 256, matmul 4096x4096 in float32
and bfloat16 (where core supports bfloat16), an MLP training step at batch 4096, elementwise add on
100M float32, and the latency of ``z = (x * w).sum() + b`` forward + backward. Each is timed
``--repeats`` times with the two libraries interleaved, synchronising the device around every call,
and the median is printed with the ratio core/torch and the fraction of the GPU's peak memory
bandwidth or FLOP rate that core achieved. Target: large ops within 1.5x of PyTorch CUDA.

Without a CUDA GPU, CuPy or a CUDA build of torch it prints why and exits 0: CI has no GPU.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import core

TARGET = 1.5
# Nominal peaks of an NVIDIA H200 SXM (dense): HBM3e bandwidth, FP32 (no tensor cores), TF32, BF16.
PEAK = {"bandwidth": 4.8e12, "float32": 67e12, "tf32": 494e12, "bfloat16": 989e12}


def _sync_all(torch) -> None:
    core.cuda.synchronize()
    torch.cuda.synchronize()


def interleaved_medians(contenders: dict, repeats: int, torch) -> dict:
    """Median seconds per call of each contender, each call bracketed by device synchronisation."""
    times = {name: [] for name in contenders}
    for fn in contenders.values():  # warm-up: kernels compiled, memory pools filled
        fn()
        fn()
    for r in range(repeats):
        names = list(contenders)
        names = names[r % len(names):] + names[:r % len(names)]
        for name in names:
            _sync_all(torch)
            start = time.perf_counter()
            contenders[name]()
            _sync_all(torch)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(ts) for name, ts in times.items()}


def conv_step(lib, batch: int):
    x = lib.randn(batch, 3, 224, 224, device="cuda", requires_grad=True)
    w = lib.randn(64, 3, 7, 7, device="cuda", requires_grad=True)

    def run():
        x.grad = None
        w.grad = None
        lib.nn.functional.conv2d(x, w, stride=2, padding=3).sum().backward()
    flops = 3 * 2 * batch * 64 * 112 * 112 * 3 * 7 * 7  # forward + two backward GEMMs
    return run, flops


def matmul(lib, dtype_name: str):
    dtype = getattr(lib, dtype_name)
    a = lib.randn(4096, 4096, device="cuda").to(dtype)
    b = lib.randn(4096, 4096, device="cuda").to(dtype)
    return (lambda: a @ b), 2 * 4096 ** 3


def mlp_step(lib, batch: int = 4096):
    nn = lib.nn
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10)).to("cuda")
    opt = lib.optim.SGD(model.parameters(), lr=0.01)
    x = lib.randn(batch, 784, device="cuda")
    y = lib.randint(0, 10, (batch,), device="cuda")

    def run():
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    flops = 3 * 2 * batch * (784 * 256 + 256 * 128 + 128 * 10)
    return run, flops


def add_large(lib, n: int = 100_000_000):
    a = lib.randn(n, device="cuda")
    b = lib.randn(n, device="cuda")
    return (lambda: a + b), 3 * 4 * n  # bytes moved: two reads, one write


def chapter_latency(lib):
    x = lib.tensor([2.0, 3.0], device="cuda", requires_grad=True)
    w = lib.tensor([1.5, -0.5], device="cuda", requires_grad=True)
    b = lib.tensor(0.1, device="cuda", requires_grad=True)

    def run():
        x.grad = w.grad = b.grad = None
        ((x * w).sum() + b).backward()
    return run, None


def workloads(quick: bool) -> list:
    """(label, builder(lib) -> (fn, work), kind of work: 'flops:<dtype>' | 'bytes' | None)."""
    rows = [
        ("conv2d fwd+bwd, batch 32", lambda lib: conv_step(lib, 32), "flops:tf32"),
        ("matmul 4096 float32", lambda lib: matmul(lib, "float32"), "flops:tf32"),
        ("matmul 4096 bfloat16", lambda lib: matmul(lib, "bfloat16"), "flops:bfloat16"),
        ("MLP SGD step, batch 4096", mlp_step, "flops:tf32"),
        ("add 100M float32", add_large, "bytes"),
        ("z = (x*w).sum()+b fwd+bwd latency", chapter_latency, None),
    ]
    if not quick:
        rows.insert(1, ("conv2d fwd+bwd, batch 256", lambda lib: conv_step(lib, 256), "flops:tf32"))
    return rows


def fraction_of_peak(seconds: float, work, kind) -> str:
    if kind is None or work is None:
        return ""
    if kind == "bytes":
        return f"{work / seconds / PEAK['bandwidth']:.0%} of HBM bandwidth"
    dtype = kind.split(":")[1]
    return f"{work / seconds / PEAK[dtype]:.0%} of {dtype} peak"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="leave out the batch-256 convolution")
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("bench_gpu: torch is not installed; nothing to compare against")
        return 0
    if not core.cuda.is_available() or not torch.cuda.is_available():
        print(f"bench_gpu: no CUDA GPU (core: {core.cuda.is_available()}, torch: {torch.cuda.is_available()})")
        return 0
    torch.backends.cuda.matmul.allow_tf32 = True  # PyTorch's usual fast path for float32 GEMMs on Hopper
    torch.backends.cudnn.allow_tf32 = True
    print(f"{'workload':38} {'core':>10} {'torch':>10} {'ratio':>7}  target  achieved (core)")
    missed = 0
    for label, build, kind in workloads(args.quick):
        try:
            core.manual_seed(0)
            ours, work = build(core)
            theirs, _ = build(torch)
            med = interleaved_medians({"core": ours, "torch": theirs}, args.repeats, torch)
        except Exception as exc:  # one failing workload must not hide the others
            print(f"{label:38} FAILED: {type(exc).__name__}: {str(exc)[:120]}")
            missed += 1
            continue
        ratio = med["core"] / med["torch"]
        ok = "ok" if ratio <= TARGET or kind is None else "MISSED"
        missed += ok == "MISSED"
        print(f"{label:38} {med['core'] * 1e3:8.3f}ms {med['torch'] * 1e3:8.3f}ms {ratio:6.2f}x  {ok:6}  "
              f"{fraction_of_peak(med['core'], work, kind)}")
    print(f"bench_gpu: {missed} workload(s) missed the {TARGET}x target or failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
