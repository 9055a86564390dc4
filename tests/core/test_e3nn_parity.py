"""What e3nn and torchsde (``tests/external/recipes_e3nn.py``) need of core, against PyTorch: tolerances given as
0-dim tensors (e3nn's tests pass ``atol=float_tolerance``, a 0-dim tensor), ``torch.jit.Error``, which e3nn's
``assert_auto_jitable`` names in an ``except`` clause, and einsum handed to ``__torch_function__`` with its operands
unpacked (opt_einsum's torch backend passes them as one tuple; opt_einsum_fx reads the fx nodes' arguments)."""

import warnings

import numpy as np
import pytest

import core


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_isclose_and_allclose_take_one_element_tensor_tolerances(torch, dtype):
    a = np.array([1.0, 2.0, 3.0, -1.0])
    b = a + np.array([1e-4, 2e-3, 0.0, -5e-4])
    results = []
    for lib in (core, torch):
        x, y = lib.tensor(a).to(getattr(lib, dtype)), lib.tensor(b).to(getattr(lib, dtype))
        close = lib.isclose(x, y, rtol=lib.tensor(0.0), atol=lib.tensor(1e-3))
        results.append((close.tolist(), lib.allclose(x, x, atol=lib.tensor(1e-3)),
                        lib.allclose(x, y, rtol=lib.tensor(1e-3), atol=0.0),
                        x.isclose(y, atol=lib.tensor(1e-3)).tolist()))
    assert results[0] == results[1]


@pytest.mark.parametrize("tolerance", [[1e-3], [1e-3, 1e-3]])
def test_allclose_refuses_a_tolerance_tensor_that_is_not_0_dim(torch, tolerance):
    errors = []
    for lib in (core, torch):
        x = lib.ones(2)
        with pytest.raises(TypeError) as info:
            lib.allclose(x, x, atol=lib.tensor(tolerance))
        errors.append(str(info.value))
    assert errors[0] == errors[1]


def test_jit_error_is_the_exception_class_torchscript_raises(torch):
    shapes = []
    for lib in (core, torch):
        error = lib.jit.Error
        shapes.append(([c.__name__ for c in error.__mro__], issubclass(error, RuntimeError)))
        try:  # an except clause that names it, as e3nn's assert_auto_jitable has
            raise RuntimeError("bad shape")
        except (lib.jit.Error, RuntimeError) as exc:
            shapes.append(type(exc).__name__)
    assert shapes[0] == shapes[2] and shapes[1] == shapes[3]


def _einsum_nodes(lib):
    class Products(lib.nn.Module):
        def forward(self, a, b):
            old = lib.einsum("ij,ik->ijk", (a, b))  # the old interface: the operands in one tuple (opt_einsum's)
            listed = lib.einsum("ij,ik->ijk", [a, b])
            sublists = lib.einsum(a, [0, 1], b, [0, 2], [0, 1, 2])
            return old + listed + sublists

    graph = lib.fx.symbolic_trace(Products())
    nodes = [(n.op, getattr(n.target, "__name__", str(n.target)), tuple(str(a) for a in n.args))
             for n in graph.graph.nodes]
    return nodes, graph(lib.arange(6.0).view(2, 3), lib.arange(8.0).view(2, 4)).tolist()


def test_fx_records_einsum_with_its_operands_as_arguments(torch):
    assert _einsum_nodes(core) == _einsum_nodes(torch)


def test_einsum_hands_torch_function_the_operands_unpacked(torch):
    seen = []
    for lib in (core, torch):
        class Logged(lib.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                if func.__name__ == "einsum":
                    seen.append(([type(a).__name__ for a in args], kwargs))
                return super().__torch_function__(func, types, args, kwargs)

        x = lib.ones(2, 3).as_subclass(Logged)
        out = lib.einsum("ij,ik->ijk", [x, lib.ones(2, 4)])
        seen.append(type(out).__name__)
    assert seen[:2] == seen[2:]


def _scripted_failures(lib):
    class Checked(lib.nn.Module):
        def forward(self, x):
            assert x.shape[0] == 2, "invalid input shape"
            return x.sum() + x[0, 1]

    scripted = lib.jit.script(Checked())
    seen = []
    for x in (lib.ones(3, 2), lib.ones(2, 1)):
        try:
            scripted(x)
        except (lib.jit.Error, RuntimeError) as exc:  # e3nn's assert_auto_jitable catches these two
            lines = str(exc).splitlines()
            seen.append((type(exc).__name__, isinstance(exc, RuntimeError), lines[0]))
            if isinstance(exc, lib.jit.Error):  # (pytest rewrites this file's asserts: their messages grow)
                seen.append("RuntimeError: AssertionError: invalid input shape" in str(exc))
    return seen


def test_scripted_module_raises_torchscripts_errors(torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # torch 2.10+: torch.jit.script is deprecated
        assert _scripted_failures(core) == _scripted_failures(torch)
