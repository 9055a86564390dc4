"""A custom op that mutates an argument and returns nothing gets a trivial fake kernel, as in PyTorch: opcheck
passes without ``register_fake`` and a call on meta tensors returns None (the Python custom-ops tutorial's
``numpy_sin``); a custom op without a fake kernel that returns something, or mutates nothing, raises torch's
"no fake impl" error on meta tensors.

No ``from __future__ import annotations`` here: ``custom_op`` reads the kernels' annotations (``lib.Tensor``) as
objects, which a closure's names only give when evaluated at definition time."""

import itertools

import numpy as np
import pytest

import core

_names = itertools.count()


def _numpy_sin(lib):
    @lib.library.custom_op(f"m_trivial_fake::numpy_sin{next(_names)}", mutates_args={"output"}, device_types="cpu")
    def numpy_sin(input: lib.Tensor, output: lib.Tensor) -> None:
        np.sin(input.numpy(), out=output.numpy())

    return numpy_sin


def _returns_nothing_mutates_nothing(lib):
    @lib.library.custom_op(f"m_trivial_fake::noop{next(_names)}", mutates_args=())
    def noop(input: lib.Tensor) -> None:
        pass

    return noop


def _returns_a_tensor(lib):
    @lib.library.custom_op(f"m_trivial_fake::double{next(_names)}", mutates_args=())
    def double(input: lib.Tensor) -> lib.Tensor:
        return input * 2

    return double


def _outcome(fn):
    try:
        return "ok", fn()
    except Exception as e:  # the oracle compares what each library raises
        return type(e).__name__, str(e).replace("torch", "LIB").replace("core", "LIB")


@pytest.mark.parametrize("shape", [(3,), (0, 3), (1, 2, 3, 4)])
def test_opcheck_passes_a_mutating_op_that_returns_nothing_without_a_fake_kernel(torch, shape):
    def run(lib):
        op = _numpy_sin(lib)
        x = lib.tensor(np.random.default_rng(0).standard_normal(shape))
        return lib.library.opcheck(op, [x, lib.empty(shape, dtype=lib.float64)])

    assert run(core) == run(torch)


def test_mutating_op_that_returns_nothing_returns_none_on_meta_tensors(torch):
    def run(lib):
        op = _numpy_sin(lib)
        return op(lib.empty(3, device="meta"), lib.empty(3, device="meta"))

    assert run(core) is None and run(torch) is None


@pytest.mark.parametrize("make", [_returns_nothing_mutates_nothing, _returns_a_tensor])
def test_custom_op_without_fake_kernel_raises_on_meta_tensors(torch, make):
    def run(lib):
        op = make(lib)
        return _outcome(lambda: op(lib.empty(3, device="meta")))

    ours, theirs = run(core), run(torch)
    assert ours[0] == theirs[0] == "RuntimeError"
    assert ours[1].startswith("There was no fake impl registered for <CustomOpDef(m_trivial_fake::")
    assert theirs[1].startswith("There was no fake impl registered for <CustomOpDef(m_trivial_fake::")


@pytest.mark.parametrize("make", [_returns_nothing_mutates_nothing, _returns_a_tensor])
def test_opcheck_of_custom_op_without_fake_kernel_fails_its_fake_tensor_test(torch, make):
    def run(lib):
        op = make(lib)
        return _outcome(lambda: lib.library.opcheck(op, [lib.ones(3)]))

    ours, theirs = run(core), run(torch)
    assert ours[0] == theirs[0] == "OpCheckError"
    assert "test_faketensor failed with There was no fake impl registered" in ours[1]
    assert "test_faketensor failed with There was no fake impl registered" in theirs[1]


def test_compiled_function_calling_the_mutating_op_gives_the_eager_result(torch):
    def run(lib):
        op = _numpy_sin(lib)

        @lib.compile(fullgraph=True)
        def f(x):
            out = lib.empty(3)
            op(x, out)
            return out

        x = lib.tensor([0.5, -1.0, 2.0])
        return f(x).numpy()

    np.testing.assert_array_equal(run(core), run(torch))
