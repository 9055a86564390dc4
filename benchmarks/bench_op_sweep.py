"""Everyday ops at medium sizes, core vs PyTorch (one thread each): where one slow route costs users seconds.

    PYTHONPATH=. python benchmarks/bench_op_sweep.py [--quick] [--only SUBSTRING] [--repeat 5]

Why: issue #23's table times small workloads; real code (the corpus in tests/external, held-out benchmarks)
also runs everyday ops on 10^5-10^6 elements, where one route of core's that loops in Python, copies or
detours through float64 costs ten times PyTorch's time (bilinear ``interpolate`` was ~10x). This sweep times
~80 ops and their backward at two or three sizes, float32, and prints one table sorted by core/torch, so the
worst routes stand out. core's kernels reproduce torch's bits (SLEEF's float32 math, MKL's GEMM orders,
ATen's reduction orders); a ratio here is what those bits cost on top of NumPy, or a route to fix.

Each row: the median over ``--repeat`` rounds that alternate core, torch and (where one is obvious) a NumPy
floor, each round as many calls as fit in ~20 ms of CPU time (``time.process_time``: the machine is shared).
One thread for both libraries: BLAS's thread count is set before NumPy loads, ``torch.set_num_threads(1)``.
"bwd" rows time forward and backward (a random output gradient; the inputs' ``.grad`` cleared each call).
``--quick`` leaves out the 1e3 size and runs three rounds (about three minutes on a quiet machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

if __name__ == "__main__":  # (an importer's environment is left alone: tests import benchmarks)
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # read when NumPy loads
        os.environ[_var] = "1"

import numpy as np

import core

F32 = np.float32


def _r(*shape):
    """A float32 standard normal array (the sweep's one generator: each case draws in order)."""
    return _RNG.standard_normal(shape).astype(F32)


_RNG = np.random.default_rng(0)

# Sizes: S ~1e3 elements, M ~1e5, L ~1e6 (typical layer shapes where a flat size makes no sense).
_FLAT = {"S": (32, 32), "M": (256, 512), "L": (1024, 1024)}


def _unary(name, op, floor=None, positive=False, bwd=True):
    """An elementwise unary op over the three flat sizes (and its backward)."""
    cases = []
    for size, shape in _FLAT.items():
        def make(shape=shape):
            a = _r(*shape)
            return [np.abs(a) + 0.1 if positive else a]
        cases.append((name, size, make, op, floor, False))
        if bwd:
            cases.append((name, size, make, op, None, True))
    return cases


def _binary(name, op, floor=None, bwd=True):
    cases = []
    for size, shape in _FLAT.items():
        def make(shape=shape):
            return [_r(*shape), _r(*shape)]
        cases.append((name, size, make, op, floor, False))
        if bwd:
            cases.append((name, size, make, op, None, True))
    return cases


def _sized(name, shapes, make, op, floor=None, bwd=True):
    """A case at given sizes: ``shapes`` maps S/M/L to the argument of ``make``."""
    cases = []
    for size, arg in shapes.items():
        cases.append((name, size, lambda arg=arg: make(arg), op, floor, False))
        if bwd:
            cases.append((name, size, lambda arg=arg: make(arg), op, None, True))
    return cases


def _f(L):
    return L.nn.functional


def _elementwise():
    c = []
    c += _unary("relu", lambda L, x: L.relu(x), lambda a: np.maximum(a, 0))
    c += _unary("gelu", lambda L, x: _f(L).gelu(x))
    c += _unary("silu", lambda L, x: _f(L).silu(x))
    c += _unary("sigmoid", lambda L, x: L.sigmoid(x))
    c += _unary("tanh", lambda L, x: L.tanh(x), np.tanh)
    c += _unary("exp", lambda L, x: L.exp(x), np.exp)
    c += _unary("log", lambda L, x: L.log(x), np.log, positive=True)
    c += _unary("sqrt", lambda L, x: L.sqrt(x), np.sqrt, positive=True)
    c += _unary("sin", lambda L, x: L.sin(x), np.sin)
    c += _unary("abs", lambda L, x: L.abs(x), np.abs)
    c += _unary("softplus", lambda L, x: _f(L).softplus(x))
    c += _unary("leaky_relu", lambda L, x: _f(L).leaky_relu(x, 0.1))
    c += _unary("elu", lambda L, x: _f(L).elu(x))
    c += _unary("x ** 2", lambda L, x: x ** 2, lambda a: a * a)
    c += _unary("clamp", lambda L, x: x.clamp(-0.5, 0.5), lambda a: np.clip(a, -0.5, 0.5))
    c += _binary("add", lambda L, x, y: x + y, np.add)
    c += _binary("mul", lambda L, x, y: x * y, np.multiply)
    c += _binary("div", lambda L, x, y: x / y, np.divide)
    c += _binary("maximum", lambda L, x, y: L.maximum(x, y), np.maximum)
    c += _binary("where(x>y)", lambda L, x, y: L.where(x > y, x, y), lambda a, b: np.where(a > b, a, b))
    c += _binary("add bcast row", lambda L, x, y: x + y[:1], lambda a, b: a + b[:1])
    return c


def _reductions():
    c = []
    shapes = {"M": (256, 512), "L": (1024, 1024)}
    red = [
        ("sum()", lambda L, x: x.sum(), lambda a: a.sum()),
        ("sum(0)", lambda L, x: x.sum(0), lambda a: a.sum(0)),
        ("sum(-1)", lambda L, x: x.sum(-1), lambda a: a.sum(-1)),
        ("mean(-1)", lambda L, x: x.mean(-1), lambda a: a.mean(-1)),
        ("var(-1)", lambda L, x: x.var(-1), lambda a: a.var(-1, ddof=1)),
        ("std(0)", lambda L, x: x.std(0), lambda a: a.std(0, ddof=1)),
        ("max(-1)", lambda L, x: x.max(-1).values, lambda a: a.max(-1)),
        ("amax(0)", lambda L, x: x.amax(0), lambda a: a.max(0)),
        ("argmax(-1)", lambda L, x: x.argmax(-1), lambda a: a.argmax(-1)),
        ("logsumexp(-1)", lambda L, x: L.logsumexp(x, -1), None),
        ("cumsum(-1)", lambda L, x: x.cumsum(-1), lambda a: a.cumsum(-1)),
        ("cumsum(0)", lambda L, x: x.cumsum(0), lambda a: a.cumsum(0)),
        ("norm(dim=-1)", lambda L, x: x.norm(dim=-1), lambda a: np.sqrt((a * a).sum(-1))),
        ("softmax(-1)", lambda L, x: L.softmax(x, -1), None),
        ("log_softmax(-1)", lambda L, x: L.log_softmax(x, -1), None),
        ("softmax(0)", lambda L, x: L.softmax(x, 0), None),
        ("sort(-1)", lambda L, x: x.sort(-1).values, lambda a: np.sort(a, -1)),
        ("topk(8, -1)", lambda L, x: x.topk(8, -1).values, None),
    ]
    for name, op, floor in red:
        bwd = not name.startswith("argmax")
        c += _sized(name, shapes, lambda s: [_r(*s)], op, floor, bwd=bwd)
    return c


def _linear_algebra():
    c = []
    mm = {"S": 32, "M": 256, "L": 1024}
    c += _sized("matmul NxN", mm, lambda n: [_r(n, n), _r(n, n)], lambda L, a, b: a @ b, np.matmul)
    c += _sized("bmm", {"M": (32, 64, 64), "L": (64, 128, 128)}, lambda s: [_r(*s), _r(*s)],
                lambda L, a, b: L.bmm(a, b), np.matmul)
    c += _sized("linear", {"M": (128, 512, 256), "L": (256, 1024, 1024)},
                lambda s: [_r(s[0], s[1]), _r(s[2], s[1]), _r(s[2])],
                lambda L, x, w, b: _f(L).linear(x, w, b), lambda x, w, b: x @ w.T + b)
    c += _sized("einsum bij,bjk", {"M": (32, 64, 64)}, lambda s: [_r(*s), _r(*s)],
                lambda L, a, b: L.einsum("bij,bjk->bik", a, b), None)
    c += _sized("einsum bhqd,bhkd", {"M": (4, 8, 64, 32)}, lambda s: [_r(*s), _r(*s)],
                lambda L, a, b: L.einsum("bhqd,bhkd->bhqk", a, b), None)
    c += _sized("cdist", {"M": (512, 16), "L": (1024, 64)}, lambda s: [_r(*s), _r(*s)],
                lambda L, a, b: L.cdist(a, b), None)
    c += _sized("sdpa", {"M": (4, 4, 64, 32), "L": (8, 8, 128, 64)}, lambda s: [_r(*s), _r(*s), _r(*s)],
                lambda L, q, k, v: _f(L).scaled_dot_product_attention(q, k, v), None)
    return c


def _conv_pool_norm():
    c = []
    c += _sized("conv1d k3", {"M": (8, 32, 256), "L": (16, 64, 1024)},
                lambda s: [_r(*s), _r(s[1], s[1], 3)], lambda L, x, w: _f(L).conv1d(x, w, padding=1))
    c += _sized("conv2d 3x3", {"M": (8, 16, 32, 32), "L": (8, 64, 32, 32)},
                lambda s: [_r(*s), _r(s[1], s[1], 3, 3)], lambda L, x, w: _f(L).conv2d(x, w, padding=1))
    c += _sized("conv_transpose2d 4x4 s2", {"M": (8, 16, 16, 16), "L": (8, 64, 16, 16)},
                lambda s: [_r(*s), _r(s[1], s[1] // 2, 4, 4)],
                lambda L, x, w: _f(L).conv_transpose2d(x, w, stride=2, padding=1))
    img = {"M": (8, 16, 32, 32), "L": (8, 64, 32, 32)}
    c += _sized("max_pool2d 2", img, lambda s: [_r(*s)], lambda L, x: _f(L).max_pool2d(x, 2))
    c += _sized("max_pool2d 3 s1 p1", img, lambda s: [_r(*s)], lambda L, x: _f(L).max_pool2d(x, 3, 1, 1))
    c += _sized("avg_pool2d 2", img, lambda s: [_r(*s)], lambda L, x: _f(L).avg_pool2d(x, 2))
    c += _sized("adaptive_avg_pool2d 7", img, lambda s: [_r(*s)], lambda L, x: _f(L).adaptive_avg_pool2d(x, 7))
    c += _sized("adaptive_max_pool2d 5", img, lambda s: [_r(*s)], lambda L, x: _f(L).adaptive_max_pool2d(x, 5))
    c += _sized("batch_norm train", img, lambda s: [_r(*s), _r(s[1]), _r(s[1])],
                lambda L, x, w, b: _f(L).batch_norm(x, None, None, w, b, training=True))
    c += _sized("layer_norm", {"M": (256, 512), "L": (1024, 1024)}, lambda s: [_r(*s), _r(s[1]), _r(s[1])],
                lambda L, x, w, b: _f(L).layer_norm(x, (x.shape[-1],), w, b))
    c += _sized("group_norm 8", img, lambda s: [_r(*s), _r(s[1]), _r(s[1])],
                lambda L, x, w, b: _f(L).group_norm(x, 8, w, b))
    small = {"M": (8, 64, 16, 16), "L": (8, 64, 32, 32)}
    c += _sized("interpolate nearest x2", small, lambda s: [_r(*s)],
                lambda L, x: _f(L).interpolate(x, scale_factor=2, mode="nearest"))
    c += _sized("interpolate bilinear x2", small, lambda s: [_r(*s)],
                lambda L, x: _f(L).interpolate(x, scale_factor=2, mode="bilinear", align_corners=False))
    c += _sized("pad reflect 2", img, lambda s: [_r(*s)], lambda L, x: _f(L).pad(x, (2, 2, 2, 2), mode="reflect"))
    c += _sized("pad constant 2", img, lambda s: [_r(*s)], lambda L, x: _f(L).pad(x, (2, 2, 2, 2)),
                lambda a: np.pad(a, ((0, 0), (0, 0), (2, 2), (2, 2))))
    c += _sized("F.unfold 3x3", {"M": (8, 16, 32, 32)}, lambda s: [_r(*s)],
                lambda L, x: _f(L).unfold(x, 3, padding=1))
    c += _sized("Tensor.unfold(-1,8,4)", {"M": (256, 512), "L": (1024, 1024)}, lambda s: [_r(*s)],
                lambda L, x: x.unfold(-1, 8, 4) * 1.0)
    return c


def _losses():
    c = []
    cls = {"M": (1024, 100), "L": (4096, 256)}

    def ce(s):
        return [_r(*s), _RNG.integers(0, s[1], s[0])]
    c += _sized("cross_entropy", cls, ce, lambda L, x, t: _f(L).cross_entropy(x, t))
    c += _sized("mse_loss", _FLAT, lambda s: [_r(*s), _r(*s)], lambda L, x, y: _f(L).mse_loss(x, y),
                lambda a, b: np.mean((a - b) ** 2))
    c += _sized("bce_with_logits", _FLAT, lambda s: [_r(*s), (_r(*s) > 0).astype(F32)],
                lambda L, x, y: _f(L).binary_cross_entropy_with_logits(x, y))
    c += _sized("binary_cross_entropy", {"M": (256, 512)},
                lambda s: [1 / (1 + np.exp(-_r(*s))), (_r(*s) > 0).astype(F32)],
                lambda L, x, y: _f(L).binary_cross_entropy(x, y))
    return c


def _indexing():
    c = []
    tab = {"M": (1000, 128), "L": (10000, 128)}

    def emb(s):
        return [_r(*s), _RNG.integers(0, s[0], (64, 32))]
    c += _sized("embedding", tab, emb, lambda L, w, i: _f(L).embedding(i, w), lambda w, i: w[i])
    sq = {"M": (256, 512), "L": (1024, 1024)}

    def idx(s):
        return [_r(*s), _RNG.integers(0, s[1], s)]
    c += _sized("gather(-1)", sq, idx, lambda L, x, i: x.gather(-1, i), lambda a, i: np.take_along_axis(a, i, -1))
    c += _sized("scatter_add(-1)", sq, lambda s: [_r(*s), _RNG.integers(0, s[1], s), _r(*s)],
                lambda L, x, i, src: x.scatter_add(-1, i, src))

    def rows(s):
        return [_r(*s), _RNG.integers(0, s[0], s[0] // 2)]
    c += _sized("index_select(0)", sq, rows, lambda L, x, i: x.index_select(0, i), lambda a, i: a[i])
    c += _sized("x[idx] rows", sq, rows, lambda L, x, i: x[i], lambda a, i: a[i])
    c += _sized("x[:, idx] cols", sq, lambda s: [_r(*s), _RNG.integers(0, s[1], s[1] // 2)],
                lambda L, x, i: x[:, i], lambda a, i: a[:, i])
    c += _sized("index_add(0)", sq, lambda s: [_r(*s), _RNG.integers(0, s[0], s[0]), _r(*s)],
                lambda L, x, i, src: x.index_add(0, i, src))
    c += _sized("masked_fill", sq, lambda s: [_r(*s)], lambda L, x: x.masked_fill(x > 0.5, 0.0),
                lambda a: np.where(a > 0.5, 0, a))
    c += _sized("x[mask]", sq, lambda s: [_r(*s)], lambda L, x: x[x > 0], lambda a: a[a > 0])
    c += _sized("x[bool] = 0 (clone)", sq, lambda s: [_r(*s)], _masked_assign, bwd=False)
    return c


def _masked_assign(L, x):
    y = x.clone()
    y[y > 0] = 0.0
    return y


def _movement():
    c = []
    sq = {"M": (256, 512), "L": (1024, 1024)}
    c += _sized("cat 4 (dim 0)", sq, lambda s: [_r(*s) for _ in range(4)],
                lambda L, *xs: L.cat(xs, 0), lambda *a: np.concatenate(a, 0))
    c += _sized("cat 4 (dim -1)", sq, lambda s: [_r(*s) for _ in range(4)],
                lambda L, *xs: L.cat(xs, -1), lambda *a: np.concatenate(a, -1))
    c += _sized("stack 4", sq, lambda s: [_r(*s) for _ in range(4)],
                lambda L, *xs: L.stack(xs, 0), lambda *a: np.stack(a, 0))
    img = {"M": (8, 16, 32, 32), "L": (8, 64, 32, 32)}
    c += _sized("permute(0,2,3,1).contig", img, lambda s: [_r(*s)],
                lambda L, x: x.permute(0, 2, 3, 1).contiguous(),
                lambda a: np.ascontiguousarray(a.transpose(0, 2, 3, 1)))
    c += _sized("x.t().contiguous()", sq, lambda s: [_r(*s)], lambda L, x: x.t().contiguous(),
                lambda a: np.ascontiguousarray(a.T))
    c += _sized("flip(-1)", sq, lambda s: [_r(*s)], lambda L, x: x.flip(-1), lambda a: a[:, ::-1].copy())
    c += _sized("repeat(2, 2)", sq, lambda s: [_r(*s)], lambda L, x: x.repeat(2, 2), lambda a: np.tile(a, (2, 2)))
    c += _sized("chunk 4 + sum", sq, lambda s: [_r(*s)], lambda L, x: sum(x.chunk(4, -1)), None)
    return c


def _recurrent():
    c = []
    for kind in ("RNN", "LSTM", "GRU"):
        for size, (t, b, h) in {"M": (32, 16, 64), "L": (64, 32, 128)}.items():
            def make(t=t, b=b, h=h):
                return [_r(t, b, h)]
            c.append((f"nn.{kind} 1 layer", size, make, _rnn_op(kind), None, False))
            c.append((f"nn.{kind} 1 layer", size, make, _rnn_op(kind), None, True))
    return c


def _rnn_op(kind):
    def op(L, x):
        cache = _MODULES.setdefault((L.__name__, kind, x.shape[-1]), None)
        if cache is None:
            L.manual_seed(0)
            cache = getattr(L.nn, kind)(x.shape[-1], x.shape[-1])
            _MODULES[(L.__name__, kind, x.shape[-1])] = cache
        return cache(x)[0]
    return op


_MODULES: dict = {}


def _optimizers():
    """One step of each optimizer over a 1M-parameter MLP (1000-1000 Linear plus a head): the gradients fixed."""
    c = []
    for name, make_opt in [("SGD momentum", lambda L, p: L.optim.SGD(p, lr=0.01, momentum=0.9)),
                           ("Adam", lambda L, p: L.optim.Adam(p, lr=1e-3)),
                           ("AdamW", lambda L, p: L.optim.AdamW(p, lr=1e-3)),
                           ("RMSprop", lambda L, p: L.optim.RMSprop(p, lr=1e-3))]:
        c.append((f"{name}.step 1M params", "L", lambda: [], _opt_step(make_opt), None, False))
    return c


def _opt_step(make_opt):
    def op(L):
        key = (L.__name__, id(make_opt))
        if key not in _MODULES:
            L.manual_seed(0)
            model = L.nn.Sequential(L.nn.Linear(1000, 1000), L.nn.ReLU(), L.nn.Linear(1000, 10))
            for p in model.parameters():
                p.grad = L.randn(p.shape) * 1e-3
            _MODULES[key] = make_opt(L, model.parameters())
        _MODULES[key].step()
    return op


def all_cases():
    """Every (name, size, make inputs, op(L, *tensors), NumPy floor or None, backward?) of the sweep."""
    return (_elementwise() + _reductions() + _linear_algebra() + _conv_pool_norm() + _losses() + _indexing()
            + _movement() + _recurrent() + _optimizers())


def _to(L, arrays, grad):
    out = []
    for a in arrays:
        t = L.tensor(a)
        if grad and a.dtype == F32:
            t.requires_grad_(True)
        out.append(t)
    return out


def _runner(L, op, arrays, bwd):
    """A no-argument call of the case in library L (forward, or forward and backward)."""
    ts = _to(L, arrays, bwd)
    if not bwd:
        return lambda: op(L, *ts)
    out = op(L, *ts)
    g = L.tensor(_RNG.standard_normal(tuple(out.shape)).astype(F32))
    leaves = [t for t in ts if t.requires_grad]

    def run():
        for t in leaves:
            t.grad = None
        op(L, *ts).backward(g)
    return run


def _per_call(fn, budget):
    """CPU seconds per call of ``fn``, over as many calls as fit in about ``budget`` seconds."""
    start = time.process_time()
    fn()
    once = max(time.process_time() - start, 1e-6)
    n = max(1, min(1000, int(budget / once)))
    start = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - start) / n


def sweep(repeat, sizes, only, budget=0.02):
    """Rows (name, size, bwd, core s, torch s, numpy s or None) of every case matching ``only``."""
    import torch
    torch.set_num_threads(1)
    core.set_num_threads(1)
    rows = []
    for name, size, make, op, floor, bwd in all_cases():
        if size not in sizes or (only and only not in name):
            continue
        arrays = make()
        label = f"{name}{' bwd' if bwd else ''}"
        try:
            runs = {"core": _runner(core, op, arrays, bwd), "torch": _runner(torch, op, arrays, bwd)}
            if floor is not None and not bwd:
                runs["numpy"] = lambda floor=floor, arrays=arrays: floor(*arrays)
            times = {k: [] for k in runs}
            for _ in range(repeat):
                for key, fn in runs.items():
                    times[key].append(_per_call(fn, budget))
        except Exception as err:  # a missing op is a row of the table, not the end of the sweep
            print(f"{label:34s} {size}  error: {type(err).__name__}: {str(err)[:80]}", flush=True)
            continue
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append((label, size, med["core"], med["torch"], med.get("numpy")))
        print(f"  {label:34s} {size} {med['core'] / med['torch']:7.2f}x", flush=True)
    return rows


def print_table(rows):
    print(f"\n{'op':34s} {'size':4s} {'core ms':>9s} {'torch ms':>9s} {'numpy ms':>9s} {'core/torch':>10s}")
    for label, size, c, t, n in sorted(rows, key=lambda r: r[2] / r[3], reverse=True):
        floor = f"{n * 1e3:9.3f}" if n is not None else f"{'':9s}"
        print(f"{label:34s} {size:4s} {c * 1e3:9.3f} {t * 1e3:9.3f} {floor} {c / t:9.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="sizes M and L, three rounds")
    parser.add_argument("--repeat", type=int, default=None, help="rounds per row (default 5, --quick 3)")
    parser.add_argument("--only", default="", help="only the ops whose name contains this")
    parser.add_argument("--sizes", default=None, help="sizes to run, e.g. ML (default SML, --quick ML)")
    args = parser.parse_args()
    repeat = args.repeat or (3 if args.quick else 5)
    sizes = args.sizes or ("ML" if args.quick else "SML")
    start = time.perf_counter()
    rows = sweep(repeat, sizes, args.only, budget=0.01 if args.quick else 0.02)
    print_table(rows)
    print(f"\n{len(rows)} rows in {time.perf_counter() - start:.0f} s, load average "
          f"{os.getloadavg()[0]:.1f}; one thread each, CPU time, medians of {repeat} interleaved rounds")


if __name__ == "__main__":
    main()
