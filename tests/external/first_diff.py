"""Find the first op whose result differs between a corpus script's core run and its torch run.

``python tests/external/first_diff.py SCRIPT [--nodes] [--context N] [--dump-dir DIR]``

A script whose printout differs from torch's in the 5th digit did something, thousands of ops earlier,
that rounds differently. This tool runs ``SCRIPT`` as ``runner.py`` does (the same stubs, alias, seeds and
one thread), once under core and once under torch, each in its own process and inside a logging
``TorchFunctionMode``: every torch function and Tensor method the script (or a library it runs) calls is
recorded with its name, the script line that called it, and a digest of the bits of its tensor inputs and
outputs (``item()``'s and ``tolist()``'s Python numbers too). The two streams are aligned by op name and
input and output shapes (an op only one library's Python calls, an extra ``dim()`` in a module, is skipped over)
and the first pair whose outputs differ is reported:

- ``inputs equal``: the op itself rounds differently from torch's kernel on the same bits: the place to
  fix core. Its inputs and both outputs are saved to ``DIR/first_diff_{core,torch}.npz`` (``in0``, ``in1``...
  and ``out0``...) with the call's other arguments printed, so an oracle test can replay it.
- ``inputs differ``: the inputs came from something the mode does not see. Usually a backward pass
  (``Tensor.backward`` is one call): run again with ``--nodes``, which also records each autograd node's
  gradients as it runs (``backward:MmBackward0``), so the first differing node shows.

A mode sees the calls at the top level only (inside a handler the mode is off, as in torch), so
``F.linear`` is one op in both libraries even where core implements it with several. Entering a mode may
change which code a library runs (torch's Python-level dispatch, core's dispatching wrappers): the tool
prints whether each run's printout under the mode is the script's usual one. ``--record LIB SCRIPT OUT``
writes one library's stream only (what the default mode runs in its two processes).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import pickle
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
LOOKAHEAD = 200  # how far the alignment looks for an op name that only one run has
UNINITIALISED = {"empty", "empty_like", "empty_strided", "Tensor.new_empty", "Tensor.new_empty_strided"}


def _to_numpy(lib, t):
    """The bits of tensor ``t`` as a NumPy array (bfloat16 widened to float32, exactly), or None."""
    if t.is_sparse or t.layout != lib.strided:
        t = t.to_dense()
    if t.is_quantized:
        t = t.int_repr()
    t = t.detach().cpu().resolve_conj().resolve_neg()
    if t.dtype == lib.bfloat16:
        t = t.float()
    return np.ascontiguousarray(t.numpy())


def _digest_array(a: np.ndarray) -> str:
    if a.dtype.kind in "fc":  # NaN payloads and signs, and zeros' signs, are not results (-0 + 0 is +0)
        a = np.where(np.isnan(a), np.array(np.nan, a.dtype), a) + a.dtype.type(0)
    return hashlib.blake2b(a.tobytes() + str(a.dtype).encode() + str(a.shape).encode(), digest_size=8).hexdigest()


class _Recorder:
    """Digests of what each call returned, in call order, and (``dump_at``) the arrays of one call."""

    def __init__(self, lib, folder: str, nodes: bool, dump_at: int | None):
        self.lib, self.folder, self.nodes, self.dump_at = lib, folder + os.sep, nodes, dump_at
        self.records: list = []
        self.dumped: dict | None = None
        self.hooked: dict = {}  # id -> node, kept alive so an id is not reused (retain_graph: hooked once)

    def signature(self, value, arrays: list | None = None) -> list:
        """``[(kind, shape, digest)]`` for each tensor or number in ``value`` (nested lists, tuples, dicts)."""
        out: list = []
        stack = [value]
        while stack:
            v = stack.pop(0)
            if isinstance(v, self.lib.Tensor):
                try:
                    with self.lib._C.DisableTorchFunctionSubclass():
                        a = _to_numpy(self.lib, v)
                except Exception as exc:  # meta, fake, nested tensors: their kind only
                    out.append((str(v.dtype), tuple(getattr(v, "shape", ())), type(exc).__name__))
                    continue
                out.append((str(a.dtype), a.shape, _digest_array(a)))
                if arrays is not None:
                    arrays.append(a.copy())  # (a may share the tensor's memory, which later ops change in place)
            elif isinstance(v, (bool, int, float, complex)):
                out.append((type(v).__name__, (), repr(v)))
            elif isinstance(v, (list, tuple)):
                stack[:0] = list(v)
            elif isinstance(v, dict):
                stack[:0] = list(v.values())
        return out

    def where(self) -> str:
        """The innermost caller in the script's folder (the script, its helpers or its fetched packages)."""
        frame = sys._getframe(2)
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(self.folder):
                return f"{name[len(self.folder):]}:{frame.f_lineno}"
            frame = frame.f_back
        return "?"

    def record(self, name: str, args, kwargs, result, where: str | None = None) -> None:
        dump = len(self.records) == self.dump_at
        ins: list | None = [] if dump else None
        outs: list | None = [] if dump else None
        in_sig = self.signature((args, kwargs), ins)
        out_sig = self.signature(result, outs)
        if name in UNINITIALISED:  # whatever the memory held: not a result
            out_sig = [(kind, shape, "uninitialised") for kind, shape, _ in out_sig]
        if out_sig:
            self.records.append((name, where or self.where(), in_sig, out_sig))
        if dump and out_sig:
            self.dumped = {"ins": ins, "outs": outs, "args": repr(_shapes(self.lib, args)),
                           "kwargs": repr(_shapes(self.lib, kwargs))}

    def hook_graph(self, roots) -> None:
        """Record each autograd node reachable from ``roots`` when it runs (``--nodes``)."""
        todo = [getattr(r, "grad_fn", None) for r in roots]
        while todo:
            node = todo.pop()
            if node is None or id(node) in self.hooked:
                continue
            self.hooked[id(node)] = node
            node.register_hook(self._node_hook(node.name()))
            todo.extend(n for n, _ in node.next_functions)

    def _node_hook(self, name: str):
        def hook(grad_inputs, grad_outputs):
            self.record(f"backward:{name}", grad_outputs, {}, grad_inputs, where="(backward)")
        return hook


def _shapes(lib, value):
    """``value`` with each tensor shown as ``T(dtype, shape)``: the call's form without its numbers."""
    if isinstance(value, lib.Tensor):
        return f"T({value.dtype}, {tuple(value.shape)})"
    if isinstance(value, (list, tuple)):
        return type(value)(_shapes(lib, v) for v in value)
    if isinstance(value, dict):
        return {k: _shapes(lib, v) for k, v in value.items()}
    return value


def _name(lib, func) -> str:
    name = lib.overrides.resolve_name(func) or getattr(func, "__qualname__", None) or repr(func)
    name = name.removeprefix("torch.").replace("_C._nn.", "nn.functional.").replace("_C._linalg.linalg_", "linalg.")
    return name.replace("_C._special.special_", "special.").replace("_C._fft.fft_", "fft.").replace("_C.", "")


def record(which: str, script: str, out: str, nodes: bool, dump_at: int | None) -> None:
    """Run ``script`` under ``which`` inside the logging mode; pickle its stream (and dumped arrays) to ``out``."""
    if not out.endswith(".pkl") or not script.endswith(".py"):  # (a swapped pair would overwrite the script)
        raise SystemExit(f"--record LIB OUT.pkl with SCRIPT.py, not {script!r} and {out!r}")
    sys.path.insert(0, HERE)
    runner = importlib.import_module("runner")
    before = set(sys.modules)
    runner._install_stubs()
    runner._STAND_INS.update(n for n in set(sys.modules) - before
                             if isinstance(sys.modules[n], runner._Stub)
                             or getattr(sys.modules[n], "__name__", n) != n)
    if which == "core":
        sys.meta_path.insert(0, runner._TorchAlias())
    lib = importlib.import_module("torch")
    if which == "torch" and importlib.util.find_spec("tensorboard") is None:
        sys.modules["torch.utils.tensorboard"] = runner._Stub("torch.utils.tensorboard")
    lib.set_num_threads(1)
    script = os.path.abspath(script)
    rec = _Recorder(lib, os.path.dirname(script), nodes, dump_at)
    backward = {"Tensor.backward", "autograd.backward", "autograd.grad"}

    class Logging(lib.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = _name(lib, func)
            if rec.nodes and name in backward:
                rec.hook_graph(rec_roots(args, kwargs))
            result = func(*args, **kwargs)
            try:
                rec.record(name, args, kwargs, result)
            except Exception as exc:  # recording must not change what the script does
                rec.records.append((name, rec.where(), [], [("error", (), f"{type(exc).__name__}: {exc}")]))
            return result

    def rec_roots(args, kwargs):
        first = args[0] if args else kwargs.get("tensors", kwargs.get("outputs"))
        return list(first) if isinstance(first, (list, tuple)) else [first]

    plain = runner.run_one(lib, script)
    with Logging():
        logged = runner.run_one(lib, script)
    with open(out, "wb") as f:
        pickle.dump({"records": rec.records, "dumped": rec.dumped, "same_output": plain == logged,
                     "output": logged}, f)


def _run_recorder(which: str, script: str, out: str, nodes: bool, dump_at: int | None = None) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0")
    cmd = [sys.executable, os.path.abspath(__file__), script, "--record", which, out]
    cmd += ["--nodes"] if nodes else []
    cmd += ["--dump-at", str(dump_at)] if dump_at is not None else []
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=os.path.dirname(os.path.dirname(HERE)))
    if proc.returncode:
        raise RuntimeError(f"{which} run failed:\n{proc.stderr[-3000:]}")
    with open(out, "rb") as f:
        return pickle.load(f)


def _key(rec) -> tuple:
    """What two runs' records must share to be the same call: the op's name and its inputs' and outputs' dtypes and
    shapes (autograd nodes of one name on one gradient's shape may return another's: a view's)."""
    return rec[0], tuple((d, s) for d, s, _ in rec[2]), tuple((d, s) for d, s, _ in rec[3])


def align(a: list, b: list):
    """Pairs ``(i, j)`` of records of the same op on inputs of the same shapes, in order; an op only one stream has
    is skipped (the nearest resynchronisation within ``LOOKAHEAD`` wins). Yields ``(i, j, skipped_a, skipped_b)``."""
    a, b = [_key(r) for r in a], [_key(r) for r in b]
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            yield i, j, 0, 0
            i, j = i + 1, j + 1
            continue
        best = None
        for d in range(1, LOOKAHEAD):
            for di, dj in ((d, 0), (0, d), *((k, d - k) for k in range(1, d))):
                if i + di < len(a) and j + dj < len(b) and a[i + di] == b[j + dj]:
                    best = (di, dj)
                    break
            if best:
                break
        if best is None:
            return
        yield i + best[0], j + best[1], best[0], best[1]
        i, j = i + best[0] + 1, j + best[1] + 1


def first_by_inputs(a: list, b: list):
    """The first of ``a``'s records whose op ran in ``b`` on the same input bits (and shapes) and never gave the same
    result there: an op that rounds otherwise, found whatever order the two runs call their ops in. None if none."""
    results: dict = {}
    for j, r in enumerate(b):
        if r[2]:
            results.setdefault((r[0], tuple(r[2])), []).append(j)
    for i, r in enumerate(a):
        seen = results.get((r[0], tuple(r[2]))) if r[2] else None
        if seen and all(b[j][3] != r[3] for j in seen):
            return i, seen[0]
    return None


def _twin(rec, other: list, near: int) -> bool:
    """Whether ``other`` holds, within ``LOOKAHEAD`` of ``near``, the same call on the same bits with the same result:
    then a pair that differs in its inputs too was paired across the two runs' differing op sequences (Pyro's
    handlers call other ops in core's run), not a difference."""
    bits = rec[0], rec[2], rec[3]
    return any((r[0], r[2], r[3]) == bits for r in other[max(0, near - LOOKAHEAD):near + LOOKAHEAD])


def _show(rec) -> str:
    name, where, ins, outs = rec
    return f"{name} at {where}: in {[(d, s) for d, s, _ in ins]} -> out {[(d, s) for d, s, _ in outs]}"


def _numbers(a: np.ndarray, b: np.ndarray) -> str:
    if a.shape != b.shape or a.dtype.kind not in "fc":
        return f"core {a.ravel()[:4]} torch {b.ravel()[:4]}"
    wrong = np.flatnonzero(~((a == b) | (np.isnan(a) & np.isnan(b))).ravel())
    k = wrong[0] if wrong.size else 0
    return (f"{wrong.size}/{a.size} elements differ, largest |diff| {np.nanmax(np.abs(a - b)):.3g}; "
            f"first at flat index {k}: core {a.ravel()[k]!r} torch {b.ravel()[k]!r}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("script")
    p.add_argument("--nodes", action="store_true", help="also record each autograd node's gradients")
    p.add_argument("--context", type=int, default=3, help="equal ops shown before the first difference")
    p.add_argument("--dump-dir", default="/tmp", help="where first_diff_{core,torch}.npz are written")
    p.add_argument("--record", nargs=2, metavar=("LIB", "OUT"), help=argparse.SUPPRESS)
    p.add_argument("--dump-at", type=int, help=argparse.SUPPRESS)
    ns = p.parse_args(argv)
    if ns.record:
        record(ns.record[0], ns.script, ns.record[1], ns.nodes, ns.dump_at)
        return 0
    script = os.path.abspath(ns.script)
    stem = os.path.join(ns.dump_dir, "first_diff")
    runs = {lib: _run_recorder(lib, script, f"{stem}_{lib}.pkl", ns.nodes) for lib in ("core", "torch")}
    for lib, run in runs.items():
        same = "its usual printout" if run["same_output"] else "NOT its usual printout (the mode changed it)"
        print(f"{lib}: {len(run['records'])} ops recorded; under the mode the script printed {same}")
    print("printouts under the mode:", "equal" if runs["core"]["output"] == runs["torch"]["output"] else "differ")
    a, b = runs["core"]["records"], runs["torch"]["records"]
    recent: list = []
    skipped = [0, 0]
    for i, j, si, sj in align(a, b):
        skipped[0] += si
        skipped[1] += sj
        if [d for _, _, d in a[i][3]] == [d for _, _, d in b[j][3]] or _twin(a[i], b, j) and _twin(b[j], a, i):
            recent = (recent + [a[i]])[-ns.context:]
            continue
        same_in = [d for _, _, d in a[i][2]] == [d for _, _, d in b[j][2]]
        if not same_in and (found := first_by_inputs(a, b)):  # (the runs' op orders differ: pair by input bits)
            i, j = found
            print(f"\n(the aligned pair differs in its inputs; by input bits, core's op {i} and torch's op {j} "
                  "are the first that ran on the same bits and gave different results)")
            same_in = True
        print(f"\n{i} of core's ops and {j} of torch's ran before it ({skipped[0]} and {skipped[1]} ops only one "
              f"library's Python called were skipped); the last equal ones:")
        for r in recent:
            print("   ", _show(r))
        print(f"FIRST DIFFERENCE, inputs {'equal' if same_in else 'differ'}:\n    core:  {_show(a[i])}\n"
              f"    torch: {_show(b[j])}")
        dumps = {lib: _run_recorder(lib, script, f"{stem}_{lib}_dump.pkl", ns.nodes, k)["dumped"]
                 for lib, k in (("core", i), ("torch", j))}
        if all(dumps.values()):
            print(f"    call: args {dumps['torch']['args'][:300]} kwargs {dumps['torch']['kwargs'][:300]}")
            for n, (x, y) in enumerate(zip(dumps["core"]["ins"], dumps["torch"]["ins"])):
                if x.shape != y.shape or not np.array_equal(x, y, equal_nan=x.dtype.kind in "fc"):
                    print(f"    input {n}: {_numbers(x, y)}")
            for n, (x, y) in enumerate(zip(dumps["core"]["outs"], dumps["torch"]["outs"])):
                print(f"    output {n}: {_numbers(x, y)}")
            for lib, d in dumps.items():
                np.savez(f"{stem}_{lib}.npz", **{f"in{n}": x for n, x in enumerate(d["ins"])},
                         **{f"out{n}": x for n, x in enumerate(d["outs"])})
            print(f"    arrays: {stem}_core.npz, {stem}_torch.npz")
        else:
            print("    (the rerun did not reach the same op: the script is not deterministic)")
        return 1
    print(f"\nno differing op among {min(len(a), len(b))} aligned ({skipped[0]} core and {skipped[1]} torch ops "
          f"skipped; {len(a)} vs {len(b)} recorded)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
