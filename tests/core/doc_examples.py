"""PyTorch's own docstring examples (``>>>`` lines) as an oracle corpus for ``core``.

``collect()`` gathers the examples from the installed torch's docstrings at run time (nothing of torch's is
stored in the repository). ``python doc_examples.py core|torch EXAMPLES.json OUT.json`` runs them like an
interactive session, statement by statement: an expression's value is printed with ``repr``, an exception
prints ``EXC Type`` and the example goes on. Before each example the global state is reset (seeds of torch,
NumPy and Python, default dtype and device, grad mode, print options, denormal flushing), so core, whose
RNG equals torch's, prints the same random numbers. ``same()`` compares two outputs: numbers to a relative
1e-5 or 1.5 units of the last printed digit, addresses and the module name normalised.
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import io
import json
import math
import os
import random
import re
import signal
import sys
import warnings

# The modules whose public names (and those classes' methods) carry examples; torch.Tensor's methods first, so
# they keep their own name (the legacy tensor types, torch.FloatTensor..., share the same docstrings).
MODULES = ("torch", "torch.nn.functional", "torch.linalg", "torch.special", "torch.fft", "torch.nn.init",
           "torch.autograd", "torch.func", "torch.nn.utils", "torch.distributions", "torch.nn", "torch.optim",
           "torch.optim.lr_scheduler", "torch.utils.data", "torch.nn.utils.rnn", "torch.nn.utils.parametrize",
           "torch.nn.utils.parametrizations", "torch.autograd.functional", "torch.autograd.forward_ad",
           "torch.autograd.graph", "torch.nn.modules.module", "torch.distributions.constraints", "torch.masked",
           "torch.signal.windows", "torch.testing", "torch.random", "torch.utils.checkpoint",
           "torch.optim.swa_utils", "torch.amp")
TIMEOUT_S = 30  # CPU seconds per example (CPU time, so that a busy machine does not time out what a quiet one runs;
# LPPool3d's example, two SLEEF powf of 22M and 5M floats, takes 7-10 s)
NUMBER = re.compile(r"-?\d+\.?\d*(?:e[-+]?\d+)?")


def _code(doc) -> str:
    """All ``>>>`` and continuation lines of a docstring, as one block of code."""
    lines = []
    for line in (doc or "").splitlines():
        s = line.strip()
        if s.startswith(">>>") or (s.startswith("...") and lines):
            lines.append(s[4:])
    return "\n".join(lines)


def collect() -> list:
    """``[(name, code)]`` of the installed torch's docstring examples, each docstring once."""
    import importlib

    import torch

    with warnings.catch_warnings():
        return _collect(torch, importlib)


def _collect(torch, importlib) -> list:
    seen, examples = set(), []

    def add(name, obj):
        doc = getattr(obj, "__doc__", None)
        if isinstance(doc, str) and ">>>" in doc and doc not in seen:
            seen.add(doc)
            code = _code(doc)
            if code.strip():
                examples.append((name, code))

    warnings.simplefilter("ignore")  # (reading TypedStorage's attributes warns)
    for n in sorted(dir(torch.Tensor)):
        if not n.startswith("_") or n == "__getitem__":
            add(f"torch.Tensor.{n}", getattr(torch.Tensor, n))
    for mname in MODULES:
        mod = importlib.import_module(mname)
        for n in sorted(dir(mod)):
            if n.startswith("_"):
                continue
            try:
                obj = getattr(mod, n)
            except Exception:
                continue
            add(f"{mname}.{n}", obj)
            if inspect.isclass(obj):
                for m in sorted(vars(obj)):
                    if m.startswith("_") and m not in ("__init__", "__call__"):
                        continue
                    with contextlib.suppress(Exception):
                        add(f"{mname}.{n}.{m}", getattr(obj, m))
    return examples


def _reset(lib) -> None:
    """The global state every example starts from."""
    import numpy as np

    with contextlib.suppress(Exception):
        lib.set_default_device(None)
    lib.set_default_dtype(lib.float32)
    lib.set_grad_enabled(True)
    lib.set_printoptions(profile="default")
    lib.set_flush_denormal(False)
    lib.autograd.set_detect_anomaly(False)
    lib.use_deterministic_algorithms(False)
    lib.manual_seed(0)
    random.seed(0)
    np.random.seed(0)


def run_example(lib, code: str) -> str:
    """What an interactive session prints for ``code``."""
    import numpy as np

    _reset(lib)
    ns = {"torch": lib, "F": lib.nn.functional, "nn": lib.nn, "np": np, "numpy": np, "math": math}
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return "SYNTAX"
    out = io.StringIO()
    signal.setitimer(signal.ITIMER_PROF, TIMEOUT_S)
    try:
        with contextlib.redirect_stdout(out):
            for stmt in tree.body:
                try:
                    if isinstance(stmt, ast.Expr):
                        value = eval(compile(ast.Expression(stmt.value), "<example>", "eval"), ns)
                        if value is not None:
                            print(repr(value))
                    else:
                        exec(compile(ast.Module([stmt], []), "<example>", "exec"), ns)
                except TimeoutError:
                    raise
                except BaseException as exc:  # the session goes on, as a doctest reader's would
                    print(f"EXC {type(exc).__name__}")
    except TimeoutError:
        out.write("TIMEOUT")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return out.getvalue()


def _timeout(*args):
    raise TimeoutError("example timed out")


def main(which: str, src: str, dst: str) -> None:
    import importlib

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path.insert(0, root)
    if which == "core":
        from tests.external.runner import _TorchAlias

        sys.meta_path.insert(0, _TorchAlias())
    lib = importlib.import_module("torch")
    lib.set_num_threads(1)
    signal.signal(signal.SIGPROF, _timeout)
    warnings.simplefilter("ignore")
    with open(src) as f:
        examples = json.load(f)
    results = {name: run_example(lib, code) for name, code in examples}
    with open(dst, "w") as f:
        json.dump(results, f)


def normalise(text: str) -> str:
    text = text.replace("core.", "torch.").replace("<class 'core", "<class 'torch")
    return re.sub(r"0x[0-9a-f]+", "0x", text)


def masked(text: str) -> str:
    """``text`` with its numbers and spacing masked (uninitialised memory prints arbitrary numbers)."""
    text = re.sub(r"-?\b(nan|inf)\b", "#", NUMBER.sub("#", normalise(text)))
    return re.sub(r"\s+", "", text)


def same(ours: str, theirs: str) -> bool:
    """Whether two outputs agree: the same text around the numbers, numbers to the printed precision."""
    a, b = normalise(ours), normalise(theirs)
    if a == b:
        return True
    na, nb = NUMBER.findall(a), NUMBER.findall(b)
    if NUMBER.sub("#", a) != NUMBER.sub("#", b) or len(na) != len(nb):
        return False
    for x, y in zip(na, nb):
        mantissa, _, exponent = x.partition("e")
        unit = 10.0 ** (int(exponent or 0) - (len(mantissa.split(".")[1]) if "." in mantissa else 0))
        if abs(float(x) - float(y)) > max(1e-5 * abs(float(y)), 1.5 * unit):  # the last printed digit
            return False
    return True


if __name__ == "__main__":
    main(*sys.argv[1:4])
