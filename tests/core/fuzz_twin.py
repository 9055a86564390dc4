"""The differential fuzzer's runner and literal makers (tests/core/test_differential_fuzz.py draws programs with them).

:class:`Twin` runs a program line by line in core and in PyTorch and compares, after each line, every name the
program has made; the ``*_src`` helpers draw Python source for tensors, sizes and numbers of a given dtype.
``CORE_FUZZ_EXAMPLES``, ``CORE_FUZZ_SEED`` and ``CORE_FUZZ_COLLECT`` turn the CI fuzzer into a hunt (see :func:`fuzz`).
"""

from __future__ import annotations

import collections
import math
import os
import types
import warnings

import numpy as np
from hypothesis import HealthCheck, seed, settings
from hypothesis import strategies as st

import core
from tests.core.differential import same_result

__all__ = ["ONCE", "DTYPES", "REAL", "FLOATS", "INTS", "FLOAT_POOL", "Twin", "fuzz", "is_tensor", "scalar_src",
           "nested", "shape_src", "tensor_src", "dtype_kw", "size_src", "mixed_leaf", "tensor_names"]

_EXAMPLES = os.environ.get("CORE_FUZZ_EXAMPLES")
_COLLECT = os.environ.get("CORE_FUZZ_COLLECT")  # a file: differences are appended to it instead of failing


def fuzz(examples: int):
    """Deterministic hypothesis settings: ``examples`` in CI; ``CORE_FUZZ_EXAMPLES`` when hunting, with
    ``CORE_FUZZ_SEED`` for other programs than CI's."""
    hunt_seed = os.environ.get("CORE_FUZZ_SEED")
    chosen = settings(max_examples=int(_EXAMPLES) if _EXAMPLES else examples, deadline=None,
                      derandomize=hunt_seed is None, suppress_health_check=list(HealthCheck), database=None)
    return (lambda test: seed(int(hunt_seed))(chosen(test))) if hunt_seed else chosen


DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
REAL = DTYPES[:10]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTS = ["uint8", "int8", "int16", "int32", "int64"]


# ---------------------------------------------------------------------------------------------- the twin runner


def is_tensor(x) -> bool:
    return isinstance(x, core.Tensor) or (type(x).__module__.startswith("torch") and hasattr(x, "grad_fn"))


class Twin:
    """One program run in core and in torch, side by side; ``lines`` is the program so far (shown on failure)."""

    def __init__(self, torch, device: str):
        base = {"np": np, "math": math, "collections": collections}
        self.torch = torch
        self.ns = {"core": {**base, "torch": core}, "torch": {**base, "torch": torch}}
        self.lines: list = []
        self.stopped = False  # (collecting: a program stops at its first difference)
        self.check_repr = device == "cpu"  # (a CUDA tensor's repr names its device; torch's here are CPU tensors)
        self.check_messages = False  # (the exceptions' texts too, not only their types)
        self.check_warnings = False  # (the warnings each line raised: category and text, in order)
        self.rtol64 = 1e-12  # (float64 values' tolerance: sums in another order differ in the last bits)

    def value(self, name: str):
        """What ``name`` holds on the torch side (to steer what is drawn next)."""
        return self.ns["torch"].get(name)

    def run(self, line: str) -> bool:
        """Run ``line`` in both; assert the same error type or the same state after it. True when it ran."""
        if self.stopped:
            return False
        if not _COLLECT:
            return self._run(line)
        try:
            return self._run(line)
        except AssertionError as exc:
            self.stopped = True
            with open(_COLLECT, "a") as f:
                f.write(f"{exc}\n----\n")
            return False

    def _run(self, line: str) -> bool:
        self.lines.append(line)
        errors, warned = {}, {}
        for key in ("torch", "core"):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always" if self.check_warnings else "ignore")
                try:
                    exec(line, self.ns[key])  # (the lines are this file's own generated code)
                    errors[key] = None
                except Exception as exc:  # compared with torch's
                    errors[key] = exc
            warned[key] = [f"{w.category.__name__}: {str(w.message).split(' (Triggered internally at ')[0]}"
                           for w in caught]
        theirs, ours = errors["torch"], errors["core"]
        if self.check_warnings:
            warned = {k: [w for w in v if not w.startswith(ONCE)] for k, v in warned.items()}
            assert warned["core"] == warned["torch"], self._fail(
                f"warnings\ncore:  {warned['core']}\ntorch: {warned['torch']}")
        if theirs is None and self._complex32():
            self.stopped = True  # (core has no complex32: half with a complex number ends the program, see README)
            return False
        if theirs is not None:
            assert ours is not None, self._fail(f"core did not raise; torch raised {type(theirs).__name__}: {theirs}")
            names = {c.__name__ for c in type(ours).__mro__}
            assert type(theirs).__name__ in names, self._fail(
                f"core raised {type(ours).__name__}: {ours}\ntorch raised {type(theirs).__name__}: {theirs}")
            if self.check_messages and not any(text in str(theirs) for text in _INTERNAL):
                assert _message(ours) == _message(theirs), self._fail(
                    f"message\ncore:  {_message(ours)}\ntorch: {_message(theirs)}")
        else:
            assert ours is None, self._fail(f"core raised {type(ours).__name__}: {ours}")
        # (torch's index_put and integer division write the elements before the bad one, then raise: the two
        # programs' values part there, so the program ends after comparing all but values)
        partial = isinstance(theirs, IndexError) or "ZeroDivisionError" in str(theirs)
        self.compare_all(values=not partial)
        self.stopped = self.stopped or partial or "ComplexHalf" in str(theirs)  # (no complex32 in core: README)
        return theirs is None

    def _complex32(self) -> bool:
        return any(getattr(v, "dtype", None) == self.torch.complex32 for v in self.ns["torch"].values())

    def _fail(self, message: str) -> str:
        return "program:\n    " + "\n    ".join(self.lines) + "\n" + message

    def compare_all(self, values: bool = True) -> None:
        """Every name the program made, compared (in-place writes and views show up here)."""
        theirs_ns, ours_ns = self.ns["torch"], self.ns["core"]
        for name, theirs in theirs_ns.items():
            if name.startswith("__") or name in ("np", "math", "torch", "collections"):
                continue
            assert name in ours_ns, self._fail(f"core's program has no {name!r}")
            try:
                self.same(ours_ns[name], theirs, name, values)
            except AssertionError as exc:
                raise AssertionError(self._fail(str(exc))) from None

    def same(self, ours, theirs, path: str, values: bool = True) -> None:
        """One value compared (recursively for containers); ``values=False`` leaves tensors' elements out."""
        if is_tensor(theirs):
            self.same_tensor(ours, theirs, path, values)
        elif isinstance(theirs, (list, tuple)) and not hasattr(theirs, "numel"):
            assert isinstance(ours, (list, tuple)), f"{path}: core gave {type(ours).__name__}, torch {theirs!r}"
            assert type(ours).__name__ == type(theirs).__name__ or type(theirs).__name__ == "Size", \
                f"{path}: core gave a {type(ours).__name__}, torch a {type(theirs).__name__}"
            assert len(ours) == len(theirs), f"{path}: {len(ours)} items, torch {len(theirs)}"
            for i, (o, t) in enumerate(zip(ours, theirs)):
                self.same(o, t, f"{path}[{i}]", values)
        elif isinstance(theirs, dict):  # (state dicts, param groups: keys in order, then each value)
            assert isinstance(ours, dict), f"{path}: core gave {type(ours).__name__}, torch a {type(theirs).__name__}"
            self.same(list(ours), list(theirs), f"{path}.keys()", values)
            for key, value in theirs.items():
                self.same(ours[key], value, f"{path}[{key!r}]", values)
        elif hasattr(theirs, "named_modules") and hasattr(theirs, "training"):  # a Module: its text and mode
            assert type(ours).__name__ == type(theirs).__name__, f"{path}: a {type(ours).__name__}"
            assert ours.training == theirs.training, f"{path}: training {ours.training}, torch {theirs.training}"
            if self.check_repr:
                assert repr(ours) == repr(theirs), f"{path}: repr\ncore:\n{ours!r}\ntorch:\n{theirs!r}"
        elif isinstance(theirs, float) and not math.isnan(theirs) and theirs != 0:
            assert type(ours) is float and math.isclose(ours, theirs, rel_tol=1e-6), f"{path}: {ours!r} != {theirs!r}"
        elif (callable(theirs) and not hasattr(theirs, "dtype")) or isinstance(theirs, types.ModuleType):
            pass  # hooks, helper lambdas, classes and the imported modules
        elif " object at 0x" in repr(theirs):  # (hook handles and other objects without a text of their own)
            assert type(ours).__name__ == type(theirs).__name__, f"{path}: a {type(ours).__name__}, torch {theirs!r}"
        else:
            same_result(ours, theirs, path)

    def same_tensor(self, ours, theirs, path: str, values: bool = True) -> None:
        assert isinstance(ours, core.Tensor), f"{path}: core gave {type(ours).__name__}, torch a tensor"
        assert type(ours).__name__ == type(theirs).__name__, f"{path}: a {type(ours).__name__}, torch's a Tensor"
        assert str(ours.dtype) == str(theirs.dtype), f"{path}: dtype {ours.dtype}, torch {theirs.dtype}"
        assert tuple(ours.shape) == tuple(theirs.shape), f"{path}: shape {tuple(ours.shape)}, torch {theirs.shape}"
        assert ours.requires_grad == theirs.requires_grad, f"{path}: requires_grad {ours.requires_grad}"
        assert ours.is_leaf == theirs.is_leaf, f"{path}: is_leaf {ours.is_leaf}"
        their_fn, our_fn = _fn_name(theirs), _fn_name(ours)
        # NOTE: a view's gradient made with create_graph may record core's own nodes (CopySlices) where torch's are
        # the view's backward ops (AsStridedBackward0): see the README
        double = path.startswith("G") and their_fn is not None and (
            their_fn.endswith("BackwardBackward0") or their_fn == "AsStridedBackward0")
        assert our_fn == their_fn or double, f"{path}: grad_fn {our_fn}, torch {their_fn}"
        # (strides of dims of size 0 or 1 are TensorIterator's choice; autograd.grad hands back SumBackward's
        # expanded gradient, core a contiguous one: left out, see the README)
        if theirs.numel() > 1 and not path.startswith("G"):
            assert tuple(ours.stride()) == tuple(theirs.stride()), \
                f"{path}: stride {ours.stride()}, torch {theirs.stride()}"
            assert ours.is_contiguous() == theirs.is_contiguous(), f"{path}: is_contiguous {ours.is_contiguous()}"
        if not values:
            return
        a = np.asarray(ours.detach().cpu().float()._data if str(ours.dtype) == "torch.bfloat16"
                       else ours.detach().cpu()._data)
        b = (theirs.detach().float() if str(theirs.dtype) == "torch.bfloat16" else theirs.detach()).resolve_conj()
        b = b.numpy()
        same_bits = np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
        if a.dtype.kind in "biu":
            assert same_bits, f"{path}: values\ncore:  {a.tolist()}\ntorch: {b.tolist()}"
        else:
            wide = np.complex128 if a.dtype.kind == "c" else np.float64
            rtol = 1e-6 if a.dtype in (np.float32, np.complex64) else self.rtol64 if a.dtype.itemsize >= 8 else 0
            np.testing.assert_allclose(a.astype(wide), b.astype(wide), rtol=rtol, atol=0, equal_nan=True,
                                       err_msg=f"{path}: values")
        if theirs.requires_grad and (theirs.is_leaf or theirs.retains_grad):
            their_grad, our_grad = theirs.grad, ours.grad
            if their_grad is None:
                assert our_grad is None, f"{path}.grad: core has one, torch None"
            else:
                assert our_grad is not None, f"{path}.grad: None, torch has one"
                self.same_tensor(our_grad, their_grad, path + ".grad")
        if self.check_repr and same_bits:  # (values an ulp apart may print apart: -4.5940e-18j against 0.j)
            try:
                their_text = repr(theirs)
            except RuntimeError:  # (torch's repr of some inference tensors fails in its own reshape)
                return
            assert repr(ours) == their_text, f"{path}: repr\ncore:  {ours!r}\ntorch: {their_text}"


# torch's warnings that it gives once a process (TORCH_WARNONCE): whether a line warns depends on the lines before it
ONCE = tuple(f"UserWarning: {text}" for text in (
    "The use of `x.T` on tensors", "Tensor.T is deprecated", "Tensor.mT is deprecated", "Tensor.mH is deprecated",
    "Converting a tensor with requires_grad=True to a scalar", "Using backward() with create_graph=True",
    "Mismatch dtype between input and weight"))


def _fn_name(t):
    """``t.grad_fn``'s class name, None, or the error reading it raises (a view of a base written in place)."""
    try:
        fn = t.grad_fn
    except RuntimeError as exc:
        return f"raises {_message(exc)}"
    return type(fn).__name__ if fn is not None else None


def _message(exc: BaseException) -> str:
    """An exception's text without the C++ frames torch appends to some (``Exception raised from ...``), and an
    argument parser's error up to its list of signatures (torch's is a bulleted list, core's one line)."""
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return text.split("\nException raised from ")[0].split(", but expected one of:")[0].rstrip()


# torch texts that are its internals' words, not a message for users (their type is still compared)
_INTERNAL = ("integer multiplication overflow", "Could this error message be improved?")


# ------------------------------------------------------------------------------------------------ generators


FLOAT_POOL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 0.1, 1.5, 7.0, 100.0, -0.25, 1e-3, 2.0]
_SPECIAL = ["float('nan')", "float('inf')", "-float('inf')", "1e30", "1e-30", "65504.0", "70000.0"]


def scalar_src(draw, dtype: str, special: bool = False) -> str:
    """A Python literal fit for ``dtype`` (what the nested lists and fills are made of)."""
    if dtype == "bool":
        return draw(st.sampled_from(["True", "False"]))
    if dtype == "uint8":
        return str(draw(st.integers(0, 9)))
    if dtype in INTS:
        return str(draw(st.integers(-9, 9)))
    # NOTE: no NaN or inf in complex tensors: torch's vectorised complex kernels make nan+nanj of what its scalar
    # loops (and NumPy) keep as nan+0j, and rounding of complex infinities differs the same way
    if special and not dtype.startswith("complex") and draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(_SPECIAL))
    real = repr(draw(st.sampled_from(FLOAT_POOL)))
    if dtype.startswith("complex"):
        imag = repr(draw(st.sampled_from(FLOAT_POOL)))
        return f"complex({real}, {imag})"
    return real


def nested(draw, shape, leaf) -> str:
    if not shape:
        return leaf()
    return "[" + ", ".join(nested(draw, shape[1:], leaf) for _ in range(shape[0])) + "]"


def shape_src(draw, max_dims=3, max_size=3, min_size=0) -> tuple:
    return tuple(draw(st.lists(st.integers(min_size, max_size), max_size=max_dims)))


def tensor_src(draw, shape, dtype, requires_grad=False, special=False) -> str:
    """``torch.tensor(<nested literal>, dtype=...)`` of ``shape`` (a 0-d one for ``()``, zeros when empty)."""
    grad = ", requires_grad=True" if requires_grad else ""
    if 0 in shape:
        return f"torch.zeros({tuple(shape)}, dtype=torch.{dtype}{grad})"
    body = nested(draw, shape, lambda: scalar_src(draw, dtype, special))
    return f"torch.tensor({body}, dtype=torch.{dtype}{grad})"


def dtype_kw(draw, choices=DTYPES, p_none=3) -> str:
    """``, dtype=torch.X`` or nothing."""
    if draw(st.integers(0, p_none)) == 0:
        return ""
    return f", dtype=torch.{draw(st.sampled_from(choices))}"


def size_src(draw, shape) -> str:
    """A size written as torch accepts it: separate ints, a tuple, a list or a torch.Size."""
    form = draw(st.sampled_from(["args", "tuple", "list", "size"]))
    if form == "args" and shape:
        return ", ".join(map(str, shape))
    if form == "list":
        return repr(list(shape))
    if form == "size":
        return f"torch.Size({list(shape)})"
    return repr(tuple(shape))


def mixed_leaf(draw) -> str:
    """A Python number of any kind (what a learner types into a list)."""
    kind = draw(st.sampled_from(["int", "int", "float", "float", "bool", "complex"]))
    if kind == "int":
        return str(draw(st.integers(-5, 5)))
    if kind == "float":
        return repr(draw(st.sampled_from(FLOAT_POOL)))
    if kind == "bool":
        return draw(st.sampled_from(["True", "False"]))
    return draw(st.sampled_from(["1j", "(1+2j)", "(-0.5+0j)"]))


def tensor_names(twin: Twin, kind=None) -> list:
    """The program's names that hold torch tensors (optionally only those ``kind(t)`` accepts)."""
    return [n for n, v in twin.ns["torch"].items()
            if not n.startswith("__") and is_tensor(v) and (kind is None or kind(v))]
