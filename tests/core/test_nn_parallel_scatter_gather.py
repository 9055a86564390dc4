"""torch.nn.parallel.scatter_gather on a machine without GPUs, against a CPU-only torch: containers split and
rebuilt per target, tensors refused with torch's errors."""

import collections

import pytest

import core

Pair = collections.namedtuple("Pair", "a b")


def _outcome(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # the type and message are what is compared
        return (type(e).__name__, str(e))


def _structures(lib):
    from importlib import import_module

    sg = import_module(f"{lib.__name__}.nn.parallel.scatter_gather")
    x = lib.ones(2, 2)
    return [
        _outcome(lambda: sg.scatter("s", [0, 1])),
        _outcome(lambda: sg.scatter([1, 2], [0, 1])),
        _outcome(lambda: sg.scatter({"a": 1, "b": (2, 3)}, [0, 1])),
        _outcome(lambda: sg.scatter((), [0])),
        _outcome(lambda: sg.scatter(Pair(1, [2]), [0, 1])),
        _outcome(lambda: sg.scatter_kwargs((1,), {"a": 1}, [0, 1])),
        _outcome(lambda: sg.scatter_kwargs((), {"a": 1}, [0])),
        _outcome(lambda: sg.scatter_kwargs((1, 2), None, [0, 1])),
        _outcome(lambda: sg.scatter([x], [0])),
        _outcome(lambda: sg.scatter([x], [None])),
        _outcome(lambda: sg.scatter_kwargs((x,), {}, [0])),
        _outcome(lambda: sg.gather([None, None], 0)),
        _outcome(lambda: sg.gather([x, x], -1)),
        _outcome(lambda: sg.gather([{"a": None}, {"a": None}], 0)),
        _outcome(lambda: sg.gather([{"a": None}, {"a": None, "b": None}], 0)),
        _outcome(lambda: sg.gather([(None, None), (None, None)], 0)),
        _outcome(lambda: sg.gather([Pair(None, None), Pair(None, None)], 0)),
        _outcome(lambda: sg.gather([(1, 2), (3, 4)], 0)),
        sg._is_namedtuple(Pair(1, 2)), sg._is_namedtuple((1, 2)),
    ]


def test_scatter_and_gather_as_a_cpu_only_torch(torch):
    assert _structures(core) == _structures(torch)


def test_the_public_namedtuple_check_is_deprecated_as_torchs(torch):
    from core.nn.parallel import scatter_gather

    for module in (scatter_gather, torch.nn.parallel.scatter_gather):
        with pytest.warns(FutureWarning, match="`is_namedtuple` is deprecated, please use the python checks"):
            assert module.is_namedtuple(Pair(1, 2))
    assert core.nn.parallel.scatter_gather.__all__ == torch.nn.parallel.scatter_gather.__all__
