"""``torch.max``/``torch.min`` with ``out=``, as PyTorch 2.13's.

Optimizers written before ``torch.maximum`` existed keep AMSGrad's running maximum with
``torch.max(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)`` (Luolc's AdaBound, lessw2020's RangerVA). All three
forms take ``out``: the binary one (``maximum``'s), the full reduction (a 0-d tensor), and the ``dim`` form, whose
``out`` is a ``(values, indices)`` pair and whose result is a ``torch.return_types.max_out``. Under autograd an
input that requires grad is refused, naming ``maximum`` for the binary form.
"""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

A = np.array([[1.0, 5.0, 3.0], [4.0, -2.0, 0.5]], dtype=np.float32)
B = np.array([[3.0, 2.0, 4.0], [-1.0, 6.0, 0.5]], dtype=np.float32)


def _forms(lib):
    a, b = lib.tensor(A), lib.tensor(B)
    values, indices = lib.empty(0), lib.empty(0, dtype=lib.long)
    return {
        "max binary into its first input": lambda: (lib.max(a, b, out=a), a),
        "min binary": lambda: (lib.min(a, b, out=lib.empty(0)),),
        "max of all": lambda: (lib.max(a, out=lib.empty(())),),
        "min of all": lambda: (lib.min(b, out=lib.empty(())),),
        "max over a dim": lambda: (*lib.max(a, 1, out=(values, indices)), values, indices),
        "min over a dim, keepdim": lambda: (*lib.min(b, 0, True, out=(values, indices)), values, indices),
    }


@pytest.mark.parametrize("form", ["max binary into its first input", "min binary", "max of all", "min of all",
                                  "max over a dim", "min over a dim, keepdim"])
def test_out_forms_write_and_return_what_torch_does(torch, form):
    ours, theirs = _forms(core)[form](), _forms(torch)[form]()
    assert_same(list(ours), list(theirs))


def test_the_dim_form_returns_a_max_out_holding_the_out_tensors(torch):
    for lib in (core, torch):
        values, indices = lib.empty(0), lib.empty(0, dtype=lib.long)
        result = lib.max(lib.tensor(A), 1, out=(values, indices))
        assert type(result).__name__ == "max_out"
        assert result.values is values and result.indices is indices
        assert repr(result).startswith("torch.return_types.max_out(")


CALLS = {"max(g, other)": lambda lib, g, other, out: lib.max(g, other, out=out),
         "max(g)": lambda lib, g, other, out: lib.max(g, out=out),
         "max(g, 0)": lambda lib, g, other, out: lib.max(g, 0, out=out),
         "maximum(g, other)": lambda lib, g, other, out: lib.maximum(g, other, out=out)}


@pytest.mark.parametrize("call", list(CALLS))
def test_an_input_that_requires_grad_is_refused_under_autograd(torch, call):
    messages = []
    for lib in (core, torch):
        g, other = lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([0.0, 3.0])
        outs = {"max(g, 0)": (lib.empty(()), lib.empty((), dtype=lib.long)), "max(g)": lib.empty(())}
        out = outs.get(call, lib.empty(2))
        with pytest.raises(RuntimeError) as error:
            CALLS[call](lib, g, other, out)
        messages.append(str(error.value))
        with lib.no_grad():
            CALLS[call](lib, g, other, out)  # no graph is recorded: allowed
    assert messages[0] == messages[1]
