"""``torch._logging.set_logs`` checks its arguments as torch's (core has nothing to log, so a valid call changes
nothing), and ``torch._higher_order_ops.foreach_map`` maps a function over lists of tensors as torch's eager path."""

import inspect
import logging

import pytest
import torch
import torch._higher_order_ops
import torch._logging

import core

pytestmark = pytest.mark.cpu_only


@pytest.fixture(autouse=True)
def _reset_torch_logs():
    yield
    torch._logging.set_logs()  # a call with no argument clears what a test turned on in torch


def _outcome(fn):
    try:
        fn()
    except Exception as exc:  # the error is the outcome compared
        return type(exc).__name__, str(exc)
    return "ok"


def test_set_logs_takes_torchs_keywords():
    def params(fn):
        return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]

    assert params(core._logging.set_logs) == params(torch._logging.set_logs)


@pytest.mark.parametrize("kwargs", [
    {}, {"graph_breaks": True}, {"recompiles": True}, {"dynamo": logging.DEBUG}, {"all": logging.INFO},
    {"dynamo": None}, {"graph_breaks": False, "guards": True}, {"foo": 1}, {"dynamo": "x"}, {"dynamo": True},
    {"dynamo": 5}, {"graph_breaks": 1}, {"modules": {"graph_breaks": True}}, {"modules": {"dynamo": True}},
    {"modules": {"torch.fx": logging.DEBUG}}, {"modules": {"torch.fx": "x"}},
    {"modules": {"torch.nonexistent": logging.DEBUG}}, {"modules": {"verbose_guards": True}},
], ids=repr)
def test_set_logs_accepts_and_refuses_as_torch(kwargs):
    assert _outcome(lambda: core._logging.set_logs(**kwargs)) == _outcome(lambda: torch._logging.set_logs(**kwargs))


def test_set_logs_refuses_positional_arguments_as_torch():
    assert _outcome(lambda: core._logging.set_logs(1)) == _outcome(lambda: torch._logging.set_logs(1))


def _lists(lib):
    return [lib.ones(2), lib.arange(3.0)], [lib.full((2,), 3.0), lib.linspace(0.0, 1.0, 3)]


@pytest.mark.parametrize("case", ["add", "scalar", "tuple_list", "pairs", "shorter", "no_list", "tensor_only",
                                  "kwargs_dropped", "inplace"])
def test_foreach_map_computes_as_torch(case):
    def run(lib):
        a, b = _lists(lib)
        fm = lib._higher_order_ops.foreach_map
        result = {
            "add": lambda: fm(lambda x, y: x + y, a, b),
            "scalar": lambda: fm(lambda x, y: x * y, a, 2.0),
            "tuple_list": lambda: fm(lib.mul, tuple(a), b),
            "pairs": lambda: fm(lambda x: (x, x.exp()), a),
            "shorter": lambda: fm(lib.sub, a, b[:1]),
            "no_list": lambda: fm(lambda x, y: x * y, 3.0, 2.0),
            "tensor_only": lambda: fm(lib.mul, a[1], b[1]),
            "kwargs_dropped": lambda: fm(lib.add, a, b, alpha=2),
            "inplace": lambda: fm(lambda x, y: x.add_(y), a, b),
        }[case]()
        return result, a

    ours, theirs = run(core), run(torch)
    assert type(ours[0]) is list or type(theirs[0]) is not list
    assert _plain(ours) == _plain(theirs)


def _plain(value):
    """Nested lists/tuples of tensors as nested lists/tuples of Python numbers and type names."""
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return "Tensor", str(value.dtype).split(".")[-1], value.tolist()
    return type(value).__name__, value
