"""torch's functions stay the same objects when ``__torch_function__`` dispatch switches on (oracle: torch).

core turns dispatch on lazily (importing ``torch.fx``, the first Tensor subclass with ``__torch_function__``, the
first mode); a library that took ``torch.lt`` or ``F.relu`` before that (Lightning's EarlyStopping, lookup tables,
fx targets) must still hold ``torch.lt`` afterwards. Activation is once per process, so each case runs a fresh
interpreter, the same script under core and under torch, and compares what they print.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

TRIGGERS = {
    "import fx": "import {lib}.fx\n",
    "subclass": textwrap.dedent("""\
        class Logged(torch.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                return super().__torch_function__(func, types, args, kwargs)
        """),
    "mode": textwrap.dedent("""\
        class Quiet(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                return func(*args, **(kwargs or {{}}))
        with Quiet():
            torch.ones(1) + 1
        """),
}

CAPTURE = textwrap.dedent("""\
    import {lib} as torch
    import {lib}.nn.functional as F
    from {lib}.overrides import TorchFunctionMode
    NAMES = ("lt", "add", "matmul", "relu", "F.relu", "F.linear", "linalg.norm", "fft.fft", "special.expit",
             "Tensor.add", "Tensor.__add__", "Tensor.relu", "Tensor.sum")
    def read(name):
        obj = F if name.startswith("F.") else torch
        for atom in name.removeprefix("F.").split("."):
            obj = getattr(obj, atom)
        return obj
    before = {{name: read(name) for name in NAMES}}
    table = {{read(name): name for name in NAMES}}
    """)

REPORT = textwrap.dedent("""\
    print([(name, before[name] is read(name), before[name] == read(name), table.get(read(name))) for name in NAMES])
    """)


def _same_in_core_and_torch(script: str) -> str:
    """What ``script`` prints, the same under core and torch (the two interpreters run side by side)."""
    runs = [subprocess.Popen([sys.executable, "-c", script.format(lib=lib)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for lib in ("core", "torch")]
    (core_out, core_err), (torch_out, torch_err) = (run.communicate() for run in runs)
    assert runs[0].returncode == 0, core_err
    assert runs[1].returncode == 0, torch_err
    assert core_out == torch_out
    return core_out


@pytest.mark.parametrize("trigger", sorted(TRIGGERS))
def test_functions_taken_before_activation_are_the_functions_after_it(trigger):
    out = _same_in_core_and_torch(CAPTURE + TRIGGERS[trigger] + REPORT)
    assert "False" not in out  # (torch keeps every one: is, == and the table lookup)


def test_lightning_monitor_op_still_is_torch_lt_after_fx_is_imported():
    """EarlyStopping keeps ``{"min": torch.lt, "max": torch.gt}`` from import time and compares ``==`` later."""
    script = textwrap.dedent("""\
        import {lib} as torch
        class EarlyStopping:
            mode_dict = {{"min": torch.lt, "max": torch.gt}}
            def __init__(self, mode):
                self.monitor_op = self.mode_dict[mode]
                torch_inf = torch.tensor(float("inf"))
                self.best_score = torch_inf if self.monitor_op == torch.lt else -torch_inf
        import {lib}.fx
        stopper = EarlyStopping("min")
        print(stopper.monitor_op == torch.lt, stopper.monitor_op is torch.lt, stopper.best_score.item(),
              bool(stopper.monitor_op(torch.tensor(0.5), stopper.best_score)))
        """)
    out = _same_in_core_and_torch(script)
    assert out.split()[:2] == ["True", "True"]


def test_fx_node_target_is_a_function_taken_before_fx_was_imported():
    script = textwrap.dedent("""\
        import {lib} as torch
        add, relu, tadd = torch.add, torch.nn.functional.relu, torch.Tensor.add
        import {lib}.fx
        def f(x):
            return relu(add(x, 1)).add(2)
        gm = torch.fx.symbolic_trace(f)
        calls = [n for n in gm.graph.nodes if n.op in ("call_function", "call_method")]
        print([(n.op, getattr(n.target, "__name__", n.target)) for n in calls])
        print(calls[0].target is add, calls[0].target is torch.add, calls[1].target is relu,
              calls[1].target is torch.nn.functional.relu)
        print({{add: "add", relu: "relu"}}.get(calls[0].target), gm(torch.ones(2)).tolist())
        """)
    out = _same_in_core_and_torch(script)
    assert "False" not in out.splitlines()[1]


def test_a_function_taken_before_activation_dispatches_to_a_subclass():
    """torch hands the call to the handler, with the very function object the caller holds as ``func``."""
    script = textwrap.dedent("""\
        import {lib} as torch
        add, tadd, relu, matmul = torch.add, torch.Tensor.add, torch.nn.functional.relu, torch.matmul
        seen = []
        class Logged(torch.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                seen.append(func)
                return super().__torch_function__(func, types, args, kwargs)
        x = torch.ones(2, 2).as_subclass(Logged)
        results = [add(x, 1), tadd(x, x), relu(x), matmul(x, x), x + x]
        print([type(r).__name__ for r in results])
        print([(f is add, f is tadd, f is relu, f is matmul) for f in seen])
        """)
    out = _same_in_core_and_torch(script)
    assert "Logged" in out


def test_a_function_taken_before_activation_reaches_a_mode():
    script = textwrap.dedent("""\
        import {lib} as torch
        from {lib}.overrides import TorchFunctionMode
        add, lt, softmax = torch.add, torch.lt, torch.nn.functional.softmax
        seen = []
        class Log(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                seen.append(func)
                return func(*args, **(kwargs or {{}}))
        a = torch.tensor([1.0, 2.0])
        with Log():
            add(a, 1), lt(a, 1.5), softmax(a, dim=0)
        print([(f is add, f is lt, f is softmax) for f in seen])
        """)
    out = _same_in_core_and_torch(script)
    assert "True" in out


def test_signature_and_names_are_the_same_before_and_after_activation():
    """The function object takes the dispatching code, but ``inspect.signature`` and the names stay the op's."""
    script = textwrap.dedent("""\
        import inspect
        import {lib} as torch
        functions = (torch.add, torch.lt, torch.nn.functional.relu, torch.linalg.norm, torch.Tensor.add)
        def signature(f):
            try:
                return str(inspect.signature(f))
            except ValueError:  # (torch's C functions have none)
                return None
        def describe():
            return [(signature(f), f.__name__) for f in functions]
        before = describe()
        import {lib}.fx
        print(describe() == before)
        """)
    assert _same_in_core_and_torch(script).strip() == "True"


def test_functions_taken_before_activation_pickle_after_it():
    """A model that keeps ``torch.tanh`` (an activation argument) still pickles once fx is imported."""
    script = textwrap.dedent("""\
        import pickle
        import {lib} as torch
        kept = (torch.tanh, torch.add, torch.nn.functional.relu, torch.linalg.norm)
        import {lib}.fx
        print([pickle.loads(pickle.dumps(f)) is f for f in (*kept, torch.tanh, torch.Tensor.add)])
        """)
    assert "False" not in _same_in_core_and_torch(script)


# torch/_tensor.py binds these names to one method (``__neg__ = _C.TensorBase.neg``, ``__rtruediv__ = __rdiv__``,
# ``__itruediv__ = _C.TensorBase.__idiv__``); the others of the list are methods of their own
OPERATOR_PAIRS = ("__neg__ neg", "__pos__ positive", "__abs__ abs", "__rtruediv__ __rdiv__", "__itruediv__ __idiv__",
                  "__pow__ pow", "__ipow__ pow_", "__truediv__ div", "__matmul__ matmul", "__add__ add")


@pytest.mark.parametrize("trigger", ["none", *sorted(TRIGGERS)])
def test_operator_methods_are_the_methods_torch_binds_them_to(trigger):
    script = ("import {lib} as torch\nfrom {lib}.overrides import TorchFunctionMode\n"
              + TRIGGERS.get(trigger, "") + textwrap.dedent(f"""\
        pairs = [pair.split() for pair in {OPERATOR_PAIRS!r}]
        print([(a, b, getattr(torch.Tensor, a) is getattr(torch.Tensor, b)) for a, b in pairs])
        print([getattr(torch.Tensor, a).__name__ for a, _ in pairs[:7]])
        """))
    out = _same_in_core_and_torch(script)
    assert "('__rtruediv__', '__rdiv__', True)" in out


def test_a_mode_sees_the_functions_torch_passes_for_operators():
    """``x ** 2`` passes ``Tensor.__pow__`` (named ``pow``), ``0.01 / x`` ``Tensor.__rdiv__``, ``-x`` ``Tensor.neg``:
    a mode that tests ``func is torch.Tensor.X`` or ``func.__name__`` takes the same branch in core."""
    script = textwrap.dedent("""\
        import operator
        import {lib} as torch
        from {lib}.overrides import TorchFunctionMode
        NAMES = ("pow", "__pow__", "pow_", "__ipow__", "__rpow__", "__rdiv__", "__rtruediv__", "div", "div_",
                 "__idiv__", "__itruediv__", "neg", "__neg__", "positive", "__pos__", "abs", "__abs__", "matmul",
                 "__rmatmul__", "__rsub__", "__floordiv__", "__rfloordiv__", "__rmod__", "add", "mul")
        EXPRESSIONS = (lambda x: x ** 2, lambda x: x ** 2.5, lambda x: 2 ** x, lambda x: 0.01 / x, lambda x: x / 2,
                       lambda x: -x, lambda x: +x, abs, lambda x: x @ x, lambda x: x.__rmatmul__(x), lambda x: 1 - x,
                       lambda x: x // 2, lambda x: 2 // x, lambda x: 2 % x, lambda x: 1 + x, lambda x: 2 * x,
                       lambda x: operator.ipow(x, 2), lambda x: operator.itruediv(x, 2), lambda x: x.__idiv__(2),
                       lambda x: x.__rdiv__(2), lambda x: x.__rtruediv__(2))
        seen = []
        class Record(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                seen.append(func)
                return func(*args, **(kwargs or {{}}))
        for expression in EXPRESSIONS:
            x = torch.tensor([[1.5, 2.0], [0.5, 3.0]])
            seen.clear()
            with Record():
                expression(x)
            print([(f.__name__, [name for name in NAMES if getattr(torch.Tensor, name) is f]) for f in seen])
        """)
    out = _same_in_core_and_torch(script)
    assert "('pow', ['__pow__'])" in out and "('__rdiv__', ['__rdiv__', '__rtruediv__'])" in out
