"""PyTorch's private helpers of ``torch.autograd.functional`` that libraries import (pytorch-minimize's
``ScipyMinimizer``: ``_construct_standard_basis_for``, ``_grad_postprocess``, ``_tuple_postprocess``, ``_as_tuple``):
the same results as torch's, and with them the Jacobian of a flat output built as that optimizer builds it."""

import importlib

import pytest

import core


def _f(lib):
    return importlib.import_module(lib.__name__ + ".autograd.functional")


def _tensors(lib):
    return (lib.ones(2, dtype=lib.float64), lib.ones(1, 3), lib.ones((), dtype=lib.float16))


def _plain(value):
    """Nested tuples of tensors as nested lists of (dtype name, shape, values, requires_grad)."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return (str(value.dtype).split(".")[1], tuple(value.shape), value.tolist(), value.requires_grad)
    return value


@pytest.mark.parametrize("numels", [(1, 2, 1), (2, 3, 1), (4,)], ids=str)
def test_standard_basis_chunks_equal_torchs(torch, numels):
    ours, theirs = (_f(lib)._construct_standard_basis_for(_tensors(lib)[:len(numels)], numels)
                    for lib in (core, torch))
    assert _plain(ours) == _plain(theirs)


def test_standard_basis_refuses_as_torch_does(torch):
    for args in (((), ()), ((1,), (1, 2))):
        messages = []
        for lib in (core, torch):
            with pytest.raises(AssertionError) as e:
                _f(lib)._construct_standard_basis_for(*args)
            messages.append(str(e.value))
        assert messages[0] == messages[1]


@pytest.mark.parametrize("value", ["tensor", "tuple", "list", "int"])
def test_as_tuple_without_names_only_wraps(torch, value):
    results = []
    for lib in (core, torch):
        t = lib.arange(3.0)
        given = {"tensor": t, "tuple": (t, t), "list": [t, 1], "int": 3}[value]
        results.append(_plain(_f(lib)._as_tuple(given)))
    assert results[0] == results[1]


def test_as_tuple_with_names_checks_as_torch_does(torch):
    for given in ((1.0,), 2):
        messages = []
        for lib in (core, torch):
            with pytest.raises(TypeError) as e:
                _f(lib)._as_tuple(given, "inputs", "jacobian")
            messages.append(str(e.value))
        assert messages[0] == messages[1]


@pytest.mark.parametrize("to_unpack", [True, False, (True, True), (True, False), (False, True), (False, False)],
                         ids=str)
def test_tuple_postprocess_unpacks_as_torchs(torch, to_unpack):
    results = []
    for lib in (core, torch):
        res = ((lib.ones(1), lib.zeros(2)), (lib.full((1,), 2.0), lib.zeros(1)))
        results.append(_plain(_f(lib)._tuple_postprocess(res, to_unpack)))
    assert results[0] == results[1]


@pytest.mark.parametrize("create_graph", [False, True])
def test_grad_postprocess_detaches_unless_asked(torch, create_graph):
    results = []
    for lib in (core, torch):
        x = lib.ones(2, requires_grad=True)
        results.append(_plain(_f(lib)._grad_postprocess(((x * 2, x + 1), (x * 3,)), create_graph)))
    assert results[0] == results[1]


def test_jacobian_from_the_standard_basis_as_scipy_minimizer_builds_it(torch):
    """ScipyMinimizer's ``_jacobian``: grad_outputs from the basis, one vector-Jacobian product per row."""
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        x = lib.randn(4, requires_grad=True)
        out = lib.stack([x.sin().sum(), (x ** 2).prod(), x[1] * x[3]])
        (basis,) = _f(lib)._construct_standard_basis_for((out,), (3,))
        rows = [lib.autograd.grad(out, x, row, retain_graph=True)[0] for row in basis]
        results.append(_plain(_f(lib)._grad_postprocess((lib.stack(rows),), False)))
    assert results[0] == results[1]
