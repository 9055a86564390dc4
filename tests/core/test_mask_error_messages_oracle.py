"""Boolean-mask writes and reads raise PyTorch's error (type and message) when several things are wrong at once:
``x[mask] = v`` with a mask and a value of the wrong shapes, ``masked_scatter(_)`` (mask dtype, then self's and
source's dtypes, then shapes, then the source's length) and ``masked_select`` (the mask broadcast first)."""

import pytest

import core

CASES = {
    "setitem mask and value shapes": lambda L: L.zeros(3, 4).__setitem__(L.tensor([True, False]), L.ones(5)),
    "setitem value shape": lambda L: L.zeros(3, 4).__setitem__(L.tensor([True, False, True]), L.ones(5)),
    "setitem 2-d mask and value": lambda L: L.zeros(3, 4).__setitem__(L.ones(3, 3, dtype=L.bool), L.ones(7)),
    "setitem mask on dim 1": lambda L: L.zeros(3, 4).__setitem__((slice(None), L.tensor([True, False, True])),
                                                                 L.ones(2)),
    "setitem mask too long": lambda L: L.zeros(3).__setitem__(L.tensor([True, True, False, False]), L.ones(2)),
    "getitem 2-d mask": lambda L: L.zeros(3, 4)[L.ones(3, 5, dtype=L.bool)],
    "scatter_ short source": lambda L: L.zeros(3, 4).masked_scatter_(L.ones(3, 4, dtype=L.bool), L.ones(5)),
    "scatter short source": lambda L: L.zeros(3, 4).masked_scatter(L.ones(3, 4, dtype=L.bool), L.ones(5)),
    "scatter_ float mask": lambda L: L.zeros(3).masked_scatter_(L.ones(3), L.ones(5)),
    "scatter float mask": lambda L: L.zeros(3).masked_scatter(L.ones(3), L.ones(5)),
    "scatter_ mask shape": lambda L: L.zeros(3, 4).masked_scatter_(L.ones(2, 4, dtype=L.bool), L.ones(12)),
    "scatter_ broadcast mask": lambda L: L.zeros(3, 1).masked_scatter_(L.ones(3, 4, dtype=L.bool), L.ones(20)),
    "scatter mask shape": lambda L: L.zeros(3, 4).masked_scatter(L.ones(2, 4, dtype=L.bool), L.ones(12)),
    "scatter_ dtypes": lambda L: L.zeros(3).masked_scatter_(L.ones(3, dtype=L.bool), L.ones(5, dtype=L.float64)),
    "scatter_ dtypes and short": lambda L: L.zeros(3).masked_scatter_(L.ones(3, dtype=L.bool),
                                                                      L.ones(2, dtype=L.float64)),
    "scatter_ dtypes and shape": lambda L: L.zeros(3, 1).masked_scatter_(L.ones(3, 4, dtype=L.bool),
                                                                         L.ones(20, dtype=L.float64)),
    "scatter dtypes and shape": lambda L: L.zeros(3, 1).masked_scatter(L.ones(2, 4, dtype=L.bool),
                                                                       L.ones(20, dtype=L.float64)),
    "select mask shape": lambda L: L.zeros(3, 4).masked_select(L.ones(2, 4, dtype=L.bool)),
    "select mask last dim": lambda L: L.zeros(3, 4).masked_select(L.ones(1, 5, dtype=L.bool)),
}


def _error(lib, case):
    try:
        case(lib)
    except Exception as exc:  # (the comparison is of the exception itself)
        return type(exc).__name__, str(exc)
    return None


@pytest.mark.parametrize("name", list(CASES))
def test_mask_errors_are_torchs(torch, name):
    theirs = _error(torch, CASES[name])
    assert theirs is not None
    assert _error(core, CASES[name]) == theirs
