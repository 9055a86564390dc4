"""``torch.autograd.Function`` as a class that old tutorials inspect: its ``__dict__``, the bound ``apply`` they print,
the deprecated ``ctx.saved_variables`` and the warning on instantiation, compared with PyTorch."""

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

pytestmark = pytest.mark.cpu_only


def _exp_function(lib, saved_name):
    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            result, = getattr(ctx, saved_name)
            return grad_output * result

    return Exp


def test_function_class_dict_lists_torchs_names_in_its_order(torch):
    assert list(core.autograd.Function.__dict__) == list(torch.autograd.Function.__dict__)


def test_bound_apply_prints_as_function_apply(torch):
    ours, theirs = _exp_function(core, "saved_tensors"), _exp_function(torch, "saved_tensors")
    assert repr(ours.apply).split(" of ")[0] == repr(theirs.apply).split(" of ")[0] == "<bound method Function.apply"
    assert ours.apply.__name__ == theirs.apply.__name__


@pytest.mark.parametrize("lib_name", ["core", "torch"])
def test_instantiating_a_function_warns_as_torch_does(lib_name, torch):
    lib = core if lib_name == "core" else torch
    exp = _exp_function(lib, "saved_tensors")
    with pytest.warns(DeprecationWarning, match="should not be instantiated. Methods on autograd functions"):
        layer = exp().apply
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    layer(x).sum().backward()
    assert x.grad is not None


def test_saved_variables_is_saved_tensors_with_torchs_deprecation_warning(torch):
    results = []
    for lib in (core, torch):
        x = lib.tensor(np.array([1.0, 2.0, -0.5], dtype=np.float32), requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _exp_function(lib, "saved_variables").apply(x).sum().backward()
        messages = [str(w.message) for w in caught if w.category is DeprecationWarning]
        results.append((x.grad, messages))
    assert_same(results[0][0], results[1][0])
    assert results[0][1] == results[1][1] == ["'saved_variables' is deprecated; use 'saved_tensors'"]


def test_vmap_rule_defaults_match(torch):
    assert core.autograd.Function.generate_vmap_rule is torch.autograd.Function.generate_vmap_rule is False
    for lib in (core, torch):
        with pytest.raises(NotImplementedError, match="override the vmap staticmethod"):
            lib.autograd.Function.vmap(None, (0,), None)
