"""The ``__torch_function__`` protocol against PyTorch's: Tensor subclasses (the default ``__torch_function__``,
``super()`` calls, ``as_subclass``, ``_make_subclass``, disabling), tensor-likes that are not tensors (the
"Extending torch" page's ScalarTensor and MetadataTensor), ``torch.overrides``' listings, ``TorchFunctionMode``,
and MaskedTensor's function forms. Each example runs in core and in torch and the outcomes are compared.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy

pytestmark = pytest.mark.filterwarnings("ignore:The PyTorch API of MaskedTensors is in prototype stage:UserWarning")


def _name(lib, func) -> str:
    return lib.overrides.resolve_name(func) or repr(func)


def _logging_tensor(lib, log):
    """The Extending page's LoggingTensor: logs every call, then lets Tensor's default run it."""
    class LoggingTensor(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            log.append((_name(lib, func), [t.__name__ for t in types]))
            if kwargs is None:
                kwargs = {}
            return super().__torch_function__(func, types, args, kwargs)

    return LoggingTensor


def _kinds(result):
    """The class names in a result (a tuple's elements one by one), the thing the protocol decides."""
    if isinstance(result, (tuple, list)):
        return [type(r).__name__ for r in result]
    return type(result).__name__


SUBCLASS_CALLS = {
    "a + p": lambda lib, a, p: a + p,
    "p + a": lambda lib, a, p: p + a,
    "2 + a": lambda lib, a, p: 2 + a,
    "2 - a": lambda lib, a, p: 2 - a,
    "a * a": lambda lib, a, p: a * a,
    "a / 2": lambda lib, a, p: a / 2,
    "a < p": lambda lib, a, p: a < p,
    "a == p": lambda lib, a, p: a == p,
    "-a": lambda lib, a, p: -a,
    "abs(a)": lambda lib, a, p: abs(a),
    "torch.add": lambda lib, a, p: lib.add(a, p, alpha=2),
    "Tensor.add": lambda lib, a, p: a.add(p),
    "a[0]": lambda lib, a, p: a[0],
    "a.sum()": lambda lib, a, p: a.sum(),
    "a.sum().item()": lambda lib, a, p: a.sum().item(),
    "relu": lambda lib, a, p: lib.nn.functional.relu(a),
    "cat": lambda lib, a, p: lib.cat([p, a]),
    "split": lambda lib, a, p: a.split(1),
    "max": lambda lib, a, p: lib.max(a.reshape(3, 1), 0),
    "len": lambda lib, a, p: len(a),
    "size": lambda lib, a, p: a.size(),
    "repr": lambda lib, a, p: repr(a),
    "a += 1": lambda lib, a, p: a.__iadd__(1),
    "detach": lambda lib, a, p: a.detach(),
    "matmul": lambda lib, a, p: lib.matmul(a, p),
}


@pytest.mark.parametrize("call", list(SUBCLASS_CALLS))
def test_subclass_calls_go_through_torch_function_and_return_the_subclass(call, torch):
    outcomes = []
    for lib in (core, torch):
        log = []
        cls = _logging_tensor(lib, log)
        a, p = lib.tensor([1.0, -2.0, 3.0]).as_subclass(cls), lib.tensor([0.5, 0.5, 4.0])
        log.clear()
        result = SUBCLASS_CALLS[call](lib, a, p)
        logged = list(log)  # (reading the values below calls methods too)
        values = None if isinstance(result, (str, int, float)) else [
            to_numpy(r) for r in (result if isinstance(result, tuple) else [result])]
        outcomes.append((_kinds(result), logged, result if isinstance(result, (int, float)) else None, values))
    (kinds, log, number, values), (t_kinds, t_log, t_number, t_values) = outcomes
    assert (kinds, log, number) == (t_kinds, t_log, t_number)
    for ours, theirs in zip(values or [], t_values or []):
        np.testing.assert_allclose(ours, theirs)


def _probe(lib, found):
    class Probe(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            found.append((func is lib.add, func is lib.Tensor.add, func is lib.Tensor.__getitem__,
                          func is lib.nn.functional.relu, func is lib.Tensor.__repr__))
            return super().__torch_function__(func, types, args, kwargs)

    return Probe


def test_torch_function_receives_the_public_function_objects(torch):
    seen = []
    for lib in (core, torch):
        found = []
        x = lib.ones(2).as_subclass(_probe(lib, found))
        lib.add(x, x), x.add(x), x + x, x[0], lib.nn.functional.relu(x), repr(x)
        seen.append(found)
    assert seen[0] == seen[1]


def _only_add(lib):
    class OnlyAdd(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return "added" if func is lib.add else NotImplemented

    return OnlyAdd


def _declined(call) -> str:
    """The TypeError's message when every handler declined, without the classes' module paths."""
    with pytest.raises(TypeError) as info:
        call()
    return str(info.value).replace("tests.core.test_torch_function_oracle.", "")


def test_a_subclass_can_handle_some_functions_and_decline_the_rest(torch):
    outcomes = []
    for lib in (core, torch):
        x = lib.ones(2).as_subclass(_only_add(lib))
        outcomes.append((lib.add(x, 1), _declined(lambda: lib.mul(x, 2)), _declined(lambda: x.sub(1)),  # noqa: B023
                         _declined(lambda: lib.nn.functional.relu(x))))  # noqa: B023
    assert outcomes[0] == outcomes[1]


def test_subclass_results_keep_autograd_history(torch):
    grads = []
    for lib in (core, torch):
        cls = _logging_tensor(lib, [])
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x.as_subclass(cls)
        z = (y * y).sum()
        z.backward()
        grads.append((type(y).__name__, type(z).__name__, y.requires_grad, y.is_leaf, to_numpy(x.grad).tolist()))
    assert grads[0] == grads[1]


def test_properties_of_a_subclass_and_its_alias_node(torch):
    outcomes = []
    for lib in (core, torch):
        class Plain(lib.Tensor):
            pass

        x = lib.ones(2, 2, requires_grad=True)
        a = x.as_subclass(Plain)
        (a * 2).sum().backward()
        outcomes.append(([type(getattr(a, n)).__name__ for n in ("T", "mT", "data", "real", "shape")],
                         type(a.grad_fn).__name__, a._base is x, type(x.grad).__name__))
    assert outcomes[0] == outcomes[1]


def _extra_data_tensor(lib):
    class ExtraData(lib.Tensor):  # the common pattern: the subclass's __new__ hands the data to Tensor's
        @staticmethod
        def __new__(cls, x, extra_data, *args, **kwargs):
            return super().__new__(cls, x, *args, **kwargs)

        def __init__(self, x, extra_data):
            self.extra_data = extra_data

    return ExtraData


def test_subclasses_built_with_tensor_new_hold_the_data(torch):
    outcomes = []
    for lib in (core, torch):
        class Plain(lib.Tensor):
            pass

        x = lib.tensor([1.0, 2.0])
        t = _extra_data_tensor(lib)(x, "meta")
        p, q = Plain([1.0, 2.0]), Plain(x)
        outcomes.append((type(t).__name__, t.extra_data, t.tolist(), type(t + 1).__name__, t.data_ptr() == x.data_ptr(),
                         type(p).__name__, p.tolist(), str(p.dtype), q.data_ptr() == x.data_ptr()))
    assert outcomes[0] == outcomes[1]


def test_make_subclass_shares_memory_and_starts_a_new_leaf(torch):
    outcomes = []
    for lib in (core, torch):
        class Param(lib.Tensor):
            pass

        data = lib.zeros(3)
        p = lib.Tensor._make_subclass(Param, data, True)
        data[0] = 5.0
        outcomes.append((type(p).__name__, p.requires_grad, p.is_leaf, p.grad_fn is None, to_numpy(p).tolist(),
                         type(p * 2).__name__))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("make", ["as_subclass(int)", "_make_subclass(int)", "_make_subclass(3)"])
def test_only_tensor_subclasses_can_be_made(make, torch):
    messages = []
    for lib in (core, torch):
        x = lib.ones(2)
        calls = {"as_subclass(int)": lambda: x.as_subclass(int),  # noqa: B023
                 "_make_subclass(int)": lambda: lib.Tensor._make_subclass(int, x),  # noqa: B023
                 "_make_subclass(3)": lambda: lib.Tensor._make_subclass(3, x)}  # noqa: B023
        messages.append(_declined(calls[make]))
    assert messages[0] == messages[1]


def test_disabling_torch_function_gives_plain_tensors(torch):
    outcomes = []
    for lib in (core, torch):
        log = []
        cls = _logging_tensor(lib, log)
        a = lib.ones(2).as_subclass(cls)
        log.clear()
        with lib._C.DisableTorchFunctionSubclass():
            inside = (type(a + a).__name__, lib._C._is_torch_function_enabled())
        with lib._C.DisableTorchFunction():
            off = type(lib.mul(a, 2)).__name__
        outcomes.append((inside, off, log, lib._C._is_torch_function_enabled()))
    assert outcomes[0] == outcomes[1]


def test_parameter_and_disabled_subclasses_return_plain_tensors(torch):
    outcomes = []
    for lib in (core, torch):
        class Plain(lib.Tensor):
            __torch_function__ = lib._C._disabled_torch_function_impl

        p = lib.nn.Parameter(lib.ones(2))
        q = lib.ones(2).as_subclass(Plain)
        outcomes.append((type(p * 2).__name__, type(p.sum()).__name__, type(q + 1).__name__, type(q).__name__,
                         lib.overrides.has_torch_function((p,)), lib.overrides.has_torch_function((q,))))
    assert outcomes[0] == outcomes[1]


# ----- tensor-likes that are not tensors: the "Extending torch" page's examples ----------------------------------
def _scalar_tensor(lib):
    handled = {}

    class ScalarTensor:
        def __init__(self, N, value):
            self._N, self._value = N, value

        def __repr__(self):
            return f"ScalarTensor(N={self._N}, value={self._value})"

        def tensor(self):
            return self._value * lib.eye(self._N)

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            if kwargs is None:
                kwargs = {}
            if func not in handled or not all(issubclass(t, (lib.Tensor, ScalarTensor)) for t in types):
                return NotImplemented
            return handled[func](*args, **kwargs)

    def ensure_tensor(data):
        return data.tensor() if isinstance(data, ScalarTensor) else lib.as_tensor(data)

    def mean(input):
        return float(input._value) / input._N

    def add(input, other):
        try:
            if input._N == other._N:
                return ScalarTensor(input._N, input._value + other._value)
            raise ValueError("Shape mismatch!")
        except AttributeError:
            return lib.add(ensure_tensor(input), ensure_tensor(other))

    def relu(input, inplace=False):  # torch's nn.functional hands over every argument
        return ScalarTensor(input._N, max(input._value, 0))

    handled.update({lib.mean: mean, lib.add: add, lib.nn.functional.relu: relu})
    return ScalarTensor


def test_scalar_tensor_example_dispatches_as_in_torch(torch):
    outcomes = []
    for lib in (core, torch):
        ScalarTensor = _scalar_tensor(lib)
        d, t = ScalarTensor(5, 2), lib.tensor([[1.0, 1.0], [1.0, 1.0]])
        s = ScalarTensor(2, 2)
        outcomes.append((lib.mean(d), repr(lib.add(s, s)), to_numpy(lib.add(s, t)).tolist(),
                         repr(lib.nn.functional.relu(s)), _declined(lambda: lib.mul(s, 3)),  # noqa: B023
                         _declined(lambda: lib.nn.functional.softsign(s))))  # noqa: B023
    assert outcomes[0] == outcomes[1]


def _metadata_tensor(lib):
    class MetadataTensor:
        def __init__(self, data, metadata=None, **kwargs):
            self._t = lib.as_tensor(data, **kwargs)
            self._metadata = metadata

        def __torch_function__(self, func, types, args=(), kwargs=None):
            if kwargs is None:
                kwargs = {}
            metadatas = tuple(a._metadata for a in args if hasattr(a, "_metadata"))
            args = [getattr(a, "_t", a) for a in args]
            return MetadataTensor(func(*args, **kwargs), metadata=metadatas[0])

    return MetadataTensor


@pytest.mark.filterwarnings("ignore:Defining your `__torch_function__")
def test_metadata_tensor_wrapper_example(torch):
    outcomes = []
    for lib in (core, torch):
        m = _metadata_tensor(lib)([[1, 2], [3, 4]], metadata={"owner": "Ministry of Silly Walks"})
        t = lib.tensor([[1, 2], [1, 2]])
        out = lib.add(t, m)
        total = lib.sum(m, dim=0)
        outcomes.append((out._metadata, to_numpy(out._t).tolist(), to_numpy(total._t).tolist(),
                         to_numpy(lib.mul(m, 2)._t).tolist(), to_numpy(lib.nn.functional.relu(m)._t).tolist()))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("lib", ["core", "torch"])
def test_a_plain_method_torch_function_warns_once_as_in_torch(lib, torch):
    script = (
        "import warnings\n"
        f"import {lib} as lib\n"
        "class Wrapper:\n"
        "    def __torch_function__(self, func, types, args=(), kwargs=None):\n"
        "        return 'handled'\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    lib.add(lib.ones(1), Wrapper()), lib.mul(Wrapper(), 2)\n"
        "print([str(w.message)[:66] for w in caught])\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['Defining your `__torch_function__` as a plain method is deprecated']"


def test_overrides_listings_cover_what_the_tutorial_uses(torch):
    outcomes = []
    for lib in (core, torch):
        o = lib.overrides
        overridable = o.get_overridable_functions()
        names = {f.__name__ for f in overridable[lib.nn.functional]}
        dummy = o.get_testing_overrides()[lib.add]
        ignored = o.get_ignored_functions()
        outcomes.append(({"relu", "conv2d", "softmax"} <= names, lib.add in overridable[lib],
                         lib.Tensor.add in overridable[lib.Tensor], dummy(1, 2),
                         list(inspect.signature(dummy).parameters)[:2], lib.zeros in ignored, lib.is_tensor in ignored,
                         lib.add in ignored, o.is_tensor_method_or_property(lib.Tensor.add),
                         o.is_tensor_method_or_property(lib.add)))
    assert outcomes[0] == outcomes[1]


def test_wrap_torch_function_lets_a_python_function_dispatch(torch):
    outcomes = []
    for lib in (core, torch):
        @lib.overrides.wrap_torch_function(lambda a, b=None: (a, b))
        def scaled(a, b=None):
            return a * 2

        s = _scalar_tensor(lib)(2, 3)
        log = []
        with _logging_mode(lib, log)():
            scaled(lib.ones(1))
        outcomes.append((to_numpy(scaled(lib.ones(1))).tolist(), _declined(lambda: scaled(s)), log[:1]))  # noqa: B023
    assert outcomes[0][0] == outcomes[1][0] and outcomes[0][2] == outcomes[1][2]
    assert outcomes[0][1].split(" on types")[0] == outcomes[1][1].split(" on types")[0]


# ----- modes -------------------------------------------------------------------------------------------------------
def _logging_mode(lib, log):
    class FunctionLog(lib.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            log.append(_name(lib, func))
            return func(*args, **(kwargs or {}))

    return FunctionLog


def test_a_mode_sees_every_call_inside_its_with_block(torch):
    outcomes = []
    for lib in (core, torch):
        log = []
        with _logging_mode(lib, log)() as mode:
            x = lib.ones(2)
            y = (x + x).sum()
            z = lib.nn.functional.relu(x)[0]
            w = lib.tensor([1.0]).mul(3)
            current = lib.overrides._get_current_function_mode() is mode
        after = lib.overrides._get_current_function_mode()
        x + x  # outside: not logged
        outcomes.append((log, current, after, to_numpy(y).item(), to_numpy(z).item(), to_numpy(w).tolist()))
    assert outcomes[0] == outcomes[1]


def _tag_mode(lib, log):
    class Tag(lib.overrides.TorchFunctionMode):
        def __init__(self, tag):
            super().__init__()
            self.tag = tag

        def __torch_function__(self, func, types, args=(), kwargs=None):
            log.append((self.tag, _name(lib, func)))
            return func(*args, **(kwargs or {}))

    return Tag


def test_nested_modes_see_calls_innermost_first_and_not_their_own(torch):
    outcomes = []
    for lib in (core, torch):
        log = []
        tag = _tag_mode(lib, log)
        with tag("outer"), tag("inner"):
            lib.neg(lib.ones(1))
        outcomes.append(log)
    assert outcomes[0] == outcomes[1]


def test_enable_reentrant_dispatch_is_a_context_manager():
    with core.overrides.enable_reentrant_dispatch():
        assert core.neg(core.ones(1)).item() == -1.0


def test_a_mode_sees_the_call_before_a_subclass_does(torch):
    outcomes = []
    for lib in (core, torch):
        log = []
        cls = _logging_tensor(lib, log)
        a = lib.ones(2).as_subclass(cls)
        with _logging_mode(lib, log)():
            result = lib.add(a, 1)
        outcomes.append((log, type(result).__name__))
    assert outcomes[0] == outcomes[1]


def test_plain_tensors_pay_nothing_until_something_needs_dispatch():
    """The cost promise: before any subclass, mode or MaskedTensor, torch.add and Tensor.__add__ are the ops and
    run their own code; from then on the same functions run the dispatching code."""
    script = (
        "import core\n"
        "from core.ops import elementwise\n"
        "from core.ops import tensor_methods\n"
        "add, dunder = core.add, core.Tensor.__add__\n"
        "def own_code():\n"
        "    return (add.__code__.co_filename.endswith('elementwise.py'),\n"
        "            dunder.__code__.co_filename.endswith('_fastpath.py'))\n"
        "before = (add is elementwise.add, dunder is tensor_methods.TENSOR_METHODS['__add__'], *own_code())\n"
        "class Sub(core.Tensor):\n"
        "    pass\n"
        "after = (core.add is add, core.Tensor.__add__ is dunder, *own_code())\n"
        "print(before, after)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "(True, True, True, True) (True, True, False, False)"


# ----- MaskedTensor's function forms ----------------------------------------------------------------------------
DATA = np.array([[0.5, -1.25, 2.0], [1.5, 0.25, -2.5]], dtype=np.float32)
OTHER = np.array([[1.0, 2.0, -3.0], [0.5, -0.25, 2.5]], dtype=np.float32)
MASK = np.array([[True, False, True], [False, True, True]])

MASKED_CALLS = {
    "eq": lambda lib, a, b, d: lib.eq(a, b),
    "ne": lambda lib, a, b, d: lib.ne(a, b),
    "lt": lambda lib, a, b, d: lib.lt(a, b),
    "maximum": lambda lib, a, b, d: lib.maximum(a, b),
    "minimum": lambda lib, a, b, d: lib.minimum(a, b),
    "atan2": lambda lib, a, b, d: lib.atan2(a, b),
    "cat": lambda lib, a, b, d: lib.cat([a, b]),
    "cat dim 1": lambda lib, a, b, d: lib.cat([a, b], dim=1),
    "stack": lambda lib, a, b, d: lib.stack([a, b]),
    "where": lambda lib, a, b, d: lib.where(lib.tensor(MASK), a, b),
    "eq with a tensor": lambda lib, a, b, d: lib.eq(a, d),
    "tensor + mt": lambda lib, a, b, d: d + a,
    "tensor * mt": lambda lib, a, b, d: lib.mul(d, a),
    "tensor < mt": lambda lib, a, b, d: d < a,
    "torch.sum": lambda lib, a, b, d: lib.sum(a),
    "softmax": lambda lib, a, b, d: lib.nn.functional.softmax(a, 1),
    "transpose": lambda lib, a, b, d: lib.transpose(a, 0, 1),
}


def _masked_pair(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        mask = lib.tensor(MASK)
        return (lib.masked.masked_tensor(lib.tensor(DATA), mask), lib.masked.masked_tensor(lib.tensor(OTHER), mask),
                lib.tensor(OTHER))


@pytest.mark.parametrize("call", list(MASKED_CALLS))
def test_torch_functions_take_masked_tensors(call, torch):
    ours, theirs = (MASKED_CALLS[call](lib, *_masked_pair(lib)) for lib in (core, torch))
    assert core.masked.is_masked_tensor(ours) and torch.masked.is_masked_tensor(theirs)
    assert repr(ours) == repr(theirs)
    np.testing.assert_array_equal(ours.get_mask().numpy(), theirs.get_mask().numpy())


def test_a_plain_leafs_gradient_through_a_masked_tensor_is_masked(torch):
    outcomes = []
    for lib in (core, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            mask = lib.tensor(MASK)
            x = lib.tensor(DATA, requires_grad=True)
            (lib.masked.as_masked_tensor(x, mask) * 2).sum().backward()
            first = (type(x.grad).__name__, repr(x.grad))
            y = lib.tensor(OTHER, requires_grad=True)
            mt = lib.masked.masked_tensor(lib.tensor(DATA), mask, requires_grad=True)
            (mt * y).sum().backward()
            (mt * y).sum().backward()
            twice = (type(y.grad).__name__, repr(y.grad), repr(mt.grad))
            w = lib.tensor(OTHER, requires_grad=True)  # behind a plain op, as the data of as_masked_tensor
            (lib.masked.as_masked_tensor(w.exp() * 2, mask) * mt).sum().backward()
            behind = (type(w.grad).__name__, repr(w.grad))
            v = lib.tensor(OTHER, requires_grad=True)
            found = lib.autograd.grad((mt * v).sum(), [v, mt])
        outcomes.append((first, twice, behind, [repr(g) for g in found]))
    assert outcomes[0] == outcomes[1]
