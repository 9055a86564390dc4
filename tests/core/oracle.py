"""The PyTorch oracle: run the same code in ``core`` and in ``torch`` and compare what comes out.

Every oracle test in ``tests/core`` uses these helpers (tinygrad's ``helper_test_op`` idea): a test
writes its code once as ``fn(lib, *tensors)`` and the helper runs it with ``lib=core`` and with
``lib=torch`` on the same input data, then compares values, dtypes, shapes (and strides when asked),
or the error type when both raise. Gradients are compared leaf by leaf.
"""

from __future__ import annotations

import math

import numpy as np

import core

__all__ = ["inputs", "run_both", "assert_same", "assert_float32_bits", "check", "check_error", "check_grads", "raised",
           "to_numpy"]


def to_numpy(x):
    """A NumPy array of a core or torch tensor (detached, on the host)."""
    if isinstance(x, core.Tensor):
        return np.asarray(x.detach().cpu()._data)
    if hasattr(x, "detach") and hasattr(x, "numpy"):
        return x.detach().cpu().resolve_conj().numpy()  # (torch's lazily conjugated tensors refuse numpy())
    return np.asarray(x)


def _dtype_name(x) -> str:
    return str(x.dtype).replace("torch.", "")


def inputs(lib, arrays, requires_grad=False):
    """Tensors of ``lib`` built from NumPy arrays (or passed through when not arrays)."""
    out = []
    for a in arrays:
        if isinstance(a, np.ndarray):
            t = lib.tensor(a.copy())
            if requires_grad and t.is_floating_point():
                t.requires_grad_(True)
            out.append(t)
        else:
            out.append(a)
    return out


def run_both(fn, arrays, torch, requires_grad=False):
    """``(core_result, torch_result, core_inputs, torch_inputs)`` of ``fn(lib, *inputs)``."""
    ci = inputs(core, arrays, requires_grad)
    ti = inputs(torch, arrays, requires_grad)
    return fn(core, *ci), fn(torch, *ti), ci, ti


def assert_same(ours, theirs, rtol=1e-5, atol=1e-6, check_stride=False, check_dtype=True, path="result"):
    """Compare results recursively: tensors by dtype, shape, values (NaN equal NaN), optional strides."""
    if isinstance(ours, core.Tensor):
        assert hasattr(theirs, "shape") and not isinstance(theirs, np.ndarray), f"{path}: torch gave {type(theirs)}"
        assert tuple(ours.shape) == tuple(theirs.shape), f"{path}: shape {tuple(ours.shape)} != {tuple(theirs.shape)}"
        if check_dtype:
            assert _dtype_name(ours) == _dtype_name(theirs), f"{path}: dtype {ours.dtype} != {theirs.dtype}"
        if check_stride:
            assert tuple(ours.stride()) == tuple(theirs.stride()), \
                f"{path}: stride {ours.stride()} != {theirs.stride()}"
        a, b = to_numpy(ours), to_numpy(theirs)
        if a.dtype.kind in "biu":
            assert np.array_equal(a, b), f"{path}: values differ\ncore:\n{a}\ntorch:\n{b}"
        else:
            tol = max(rtol, 1e-3) if a.dtype == np.float16 else rtol
            wide = np.complex128 if a.dtype.kind == "c" else np.float64
            np.testing.assert_allclose(a.astype(wide), b.astype(wide), rtol=tol, atol=atol,
                                       equal_nan=True, err_msg=path)
    elif isinstance(ours, (tuple, list)):
        assert isinstance(theirs, (tuple, list)), f"{path}: torch gave {type(theirs)}"
        assert len(ours) == len(theirs), f"{path}: {len(ours)} items != {len(theirs)}"
        for i, (o, t) in enumerate(zip(ours, theirs)):
            assert_same(o, t, rtol, atol, check_stride, check_dtype, f"{path}[{i}]")
    elif isinstance(ours, float) or isinstance(theirs, float):
        assert (math.isnan(ours) and math.isnan(theirs)) or math.isclose(ours, theirs, rel_tol=rtol, abs_tol=atol), \
            f"{path}: {ours} != {theirs}"
    else:
        assert ours == theirs, f"{path}: {ours!r} != {theirs!r}"


def assert_float32_bits(ours, theirs):
    """Two float32 arrays equal bit for bit, NaN where the other is NaN (any NaN: MKL's and core's NaN payloads may
    differ). The vector-math oracles (``test_mkl_*_oracle.py``) compare every sampled value so."""
    got, want = np.asarray(ours), np.asarray(theirs)
    nan = np.isnan(want)
    assert (np.isnan(got) == nan).all()
    np.testing.assert_array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))


def check(fn, arrays, torch, **compare):
    """Run ``fn`` in both libraries and assert the results match; returns core's result."""
    ours, theirs, _, _ = run_both(fn, arrays, torch)
    assert_same(ours, theirs, **compare)
    return ours


def check_error(fn, arrays, torch, match=None):
    """Both libraries raise, with the same exception type (``match``: a regex core's message must match)."""
    import re

    errors = []
    for lib in (torch, core):
        try:
            fn(lib, *inputs(lib, arrays))
        except Exception as exc:  # the type is what we compare
            errors.append(exc)
        else:
            errors.append(None)
    theirs, ours = errors
    assert theirs is not None, "torch did not raise"
    assert ours is not None, f"core did not raise; torch raised {type(theirs).__name__}: {theirs}"
    assert isinstance(ours, type(theirs)) or type(theirs).__name__ in {c.__name__ for c in type(ours).__mro__}, \
        f"core raised {type(ours).__name__}: {ours}; torch raised {type(theirs).__name__}: {theirs}"
    if match is not None:
        assert re.search(match, str(ours)), f"core's message {str(ours)!r} does not match {match!r}"
    return ours


def raised(fn):
    """``(type name, message)`` of what ``fn()`` raises, or None: the two to compare with torch's, exactly."""
    try:
        fn()
    except Exception as exc:  # the type and text are what is compared
        return type(exc).__name__, str(exc)
    return None


def check_grads(fn, arrays, torch, rtol=1e-5, atol=1e-6, grad_output=None):
    """Forward and backward in both libraries; compare the output and every leaf's ``.grad``.

    ``fn(lib, *leaves)`` returns a tensor; a non-scalar output is reduced with a fixed random
    weight so every element's gradient matters.
    """
    results = []
    for lib in (core, torch):
        leaves = inputs(lib, arrays, requires_grad=True)
        out = fn(lib, *leaves)
        if out.ndim:
            w = np.random.default_rng(7).standard_normal(tuple(out.shape)).astype(to_numpy(out).dtype)
            loss = (out * lib.tensor(w)).sum()
        else:
            loss = out
        loss.backward()
        results.append((out, [t.grad if isinstance(t, (core.Tensor,)) or hasattr(t, "grad") else None
                              for t in leaves]))
    (co, cg), (to, tg) = results
    assert_same(co, to, rtol=rtol, atol=atol, path="output")
    for i, (a, b) in enumerate(zip(cg, tg)):
        if a is None or b is None:
            assert a is None and b is None, f"grad of input {i}: core {a is not None}, torch {b is not None}"
        else:
            assert_same(a, b, rtol=rtol, atol=atol, path=f"grad of input {i}")
    return co, cg


def module_dir(obj) -> list:
    """``dir()`` of an nn module or class without ``___needs_generation_tag_patch``, the flag torch's dynamo puts on
    ``nn.Module`` once anything in the process compiled or exported a model (earlier tests do)."""
    return [name for name in dir(obj) if name != "___needs_generation_tag_patch"]
