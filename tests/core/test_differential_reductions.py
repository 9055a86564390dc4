"""Reductions against PyTorch, call by call: every reduction over float, int, bool, empty and 0-d inputs with no dim,
negative dims, dim tuples, ``keepdim``, ``dtype=`` and out-of-range dims (values, result dtypes, index dtypes and
the exception types), the selecting reductions' ties and NaNs, and random shapes and dims. Each line runs in core
and in torch (tests/core/differential.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.differential import lines, same_call

SOURCES = {
    "float": "torch.arange(24.).reshape(2, 3, 4)", "int": "torch.tensor([[3, 1, 2], [1, 1, 0]])",
    "empty": "torch.zeros(0, 3)", "bool": "torch.tensor([[True, False], [True, True]])",
    "ties": "torch.tensor([[1., 2, 2], [3, 3, 1]])", "zero_d": "torch.tensor(2.)", "int_zero_d": "torch.tensor(3)",
}
# NOTE: prod(dim=None) and logsumexp(dim=()) are left out: torch refuses them (a TypeError from its argument
# parser, and a shape error of its out= path) where core reduces over every dim
DIM_ARGS = ["", "0", "-1", "(0, 1)", "(-1, 0)", "dim=1, keepdim=True", "1, True", "dim=5"]
WHOLE_ARGS = ["dim=(), keepdim=False", "dim=[]", "dim=None", "()"]
MULTI_DIM = ["sum", "mean", "amax", "amin", "std", "var", "logsumexp", "all", "any", "norm", "nansum", "nanmean",
             "count_nonzero", "var_mean", "std_mean", "aminmax", "prod"]


def _args_for(op: str) -> list:
    args = DIM_ARGS + ([] if op in ("prod", "logsumexp") else WHOLE_ARGS)
    return [a for a in args if not (op == "prod" and "(" in a)]


@pytest.mark.parametrize("op", MULTI_DIM)
def test_reduction_over_dims_matches_torch(op, torch):
    for src in SOURCES.values():
        for args in _args_for(op):
            same_call(torch, f"torch.{op}({src}{', ' if args else ''}{args})")


SELECTING = {
    "max": ["", "0", "-1", "dim=1, keepdim=True", "1, True", "dim=5"], "min": ["", "0", "-1", "1, True"],
    "median": ["", "0", "-1", "dim=1, keepdim=True"], "nanmedian": ["", "0", "1, True"], "mode": ["", "0", "-1"],
    "argmax": ["", "0", "-1", "dim=1, keepdim=True"], "argmin": ["", "0", "1, True"],
    "kthvalue": ["1", "2", "1, 0", "2, dim=-1", "1, -1, True"], "topk": ["1", "2", "2, dim=-1", "2, largest=False"],
    "cummax": ["0", "-1"], "cumsum": ["0", "-1"], "cumprod": ["0", "-1"], "logcumsumexp": ["0", "-1"],
    "sort": ["", "0", "stable=True", "descending=True", "0, True", "dim=0, descending=True, stable=True"],
    "argsort": ["", "0", "stable=True", "descending=True"], "msort": [""],
    "unique": ["", "sorted=True", "return_inverse=True", "return_counts=True", "dim=0"],
}
SELECT_SOURCES = {**SOURCES, "repeats": "torch.tensor([2, 1, 2, 1, 2])", "nan": "torch.tensor([[1., float('nan'), 0]])"}


@pytest.mark.parametrize("op", list(SELECTING))
def test_selecting_reductions_pick_torchs_values_and_indices(op, torch):
    for src in SELECT_SOURCES.values():
        for args in SELECTING[op]:
            if op in ("median", "nanmedian", "logcumsumexp") and "dim=5" in args:
                continue  # torch checks the dim before the dtype, core the dtype first (both raise)
            same_call(torch, f"torch.{op}({src}{', ' if args else ''}{args})")


SPECIAL = lines("""
torch.arange(24.).reshape(2, 3, 4).sum(dtype=torch.float64)
torch.tensor([[3, 1], [2, 4]]).sum(dtype=torch.float32)
torch.tensor([[3, 1], [2, 4]]).mean()
torch.tensor([[3, 1], [2, 4]]).mean(dtype=torch.float32)
torch.tensor([[3, 1], [2, 4]]).float().mean(1, dtype=torch.float64)
torch.arange(24.).reshape(2, 3, 4).std(0, unbiased=False)
torch.arange(24.).reshape(2, 3, 4).std(correction=0)
torch.arange(24.).reshape(2, 3, 4).var(1, correction=2)
torch.ones(1).std()
torch.tensor([[1., 2], [3, 4]]).std(0, True, True)
torch.tensor([1, 2]).std()
torch.tensor([True, True]).sum()
torch.tensor([True, True]).prod()
torch.tensor([True, False]).cumsum(0)
torch.tensor([1, 2], dtype=torch.int8).sum()
# sum(dtype=) of an integer or bool tensor adds in that dtype (wrapping) instead of widening to int64
torch.tensor([100, 100], dtype=torch.int8).sum(dtype=torch.int8)
torch.tensor([1, 2], dtype=torch.uint8).sum(0, dtype=torch.uint8)
torch.tensor([[1, 2]], dtype=torch.int16).nansum(1, dtype=torch.int16)
torch.tensor([True, True]).sum(dtype=torch.bool)
# cumsum/cumprod have no bool kernel (asked for, or in place on a bool tensor); complex var_mean/std_mean are real
torch.tensor([[True]]).cumsum(0, dtype=torch.bool)
torch.tensor([1., 2.]).cumprod(0, dtype=torch.bool)
torch.tensor([True, False]).cumsum_(0)
torch.tensor(0.5).cumsum(0, dtype=torch.bool)
torch.tensor([1.5+1.5j, 2]).aminmax()
torch.tensor([[1.5+1.5j, 2]]).aminmax(dim=1)
torch.zeros(3, 0, dtype=torch.bool).cumprod(-1, dtype=torch.bool)
torch.tensor([100, 100], dtype=torch.int8).cumsum_(0)
torch.std_mean(torch.tensor([1j, 2]), -1)
# torch's cumsum adds onto a zero: a leading -0. comes out 0.
torch.tensor([-0., -0., 3.]).cumsum(0)
torch.tensor([[-0.], [-0.]], dtype=torch.bfloat16).cumsum(1)
torch.var_mean(torch.tensor([[1j, 2], [3, 4j]]), 0, keepdim=True, correction=0)
torch.tensor([1, 2], dtype=torch.uint8).cumsum(0)
torch.tensor([1, 2], dtype=torch.int32).prod()
torch.tensor([1, 2], dtype=torch.int16).cumprod(0)
torch.tensor([[1, 2]], dtype=torch.int32).cumsum(1, dtype=torch.float32)
torch.tensor([200, 200], dtype=torch.uint8).prod(dtype=torch.uint8)
torch.tensor([[1, 2], [3, 4]], dtype=torch.int32).prod(1, dtype=torch.int16)
torch.tensor([1., 2.]).prod(dtype=torch.int32)
torch.tensor([60000., 60000.], dtype=torch.float16).sum()
torch.tensor([60000., 60000.], dtype=torch.float16).mean()
torch.tensor([1., 2.], dtype=torch.bfloat16).mean()
torch.tensor([1., 2.], dtype=torch.float16).std()
torch.tensor([1., 2.], dtype=torch.float16).norm()
# empty inputs: identities, or torch's errors for reductions without one
torch.zeros(0, 3).sum(0)
torch.zeros(0, 3).max()
torch.zeros(0, 3).max(1)
torch.zeros(0, 3).mean()
torch.zeros(0, 3).prod(0)
torch.zeros(0, 3).argmax()
torch.zeros(0, 3).argmax(1)
torch.zeros(0, 3).amax(0)
torch.zeros(0, 3).median()
torch.zeros(0, 3).norm()
torch.zeros(0, 3).norm(p=-1)
torch.zeros(0, 3).norm(p=float('inf'), dim=1)
torch.linalg.vector_norm(torch.zeros(0), -2.5)
torch.kthvalue(torch.zeros(0, 3), 1, 0)
torch.unique(torch.tensor(2.), dim=0)
# NaN and ties
torch.tensor([1., float('nan'), 3.]).max()
torch.tensor([1., float('nan'), 3.]).argmax()
torch.tensor([1., float('nan'), 3.]).median()
torch.tensor([1, 2, 3, 4]).median()
torch.tensor([3., 1, 3, 1]).mode()
torch.tensor([2, 2, 1, 1, 3]).median()
torch.tensor([1, 3, 3, 2, 3]).argmax()
torch.tensor([[1, 3], [3, 3]]).max(1)
torch.sort(torch.tensor([3, 1, 2, 1, 3, 1]), stable=True)
torch.sort(torch.tensor([3, 1, 2, 1, 3, 1]), descending=True, stable=True)
torch.sort(torch.tensor([1., float('nan'), 0., float('nan'), -1]))
torch.sort(torch.tensor([1., float('nan'), 0., -1]), descending=True)
torch.topk(torch.tensor([1., 3, 3, 2, 3]), 2)
torch.topk(torch.tensor([1., 3, 3, 2, 3]), 6)
torch.topk(torch.tensor([1., float('nan'), 3]), 2)
torch.kthvalue(torch.tensor([1., 3, 3, 2, 3]), 3)
torch.kthvalue(torch.tensor([1., 3, 3, 2, 3]), 0)
torch.cummax(torch.tensor([1, 3, 3, 2]), 0)
torch.cummin(torch.tensor([[3, 1, 2], [1, 1, 0]]), 0)
torch.tensor([1., 2, 3, 4]).quantile(0.5)
torch.tensor([1., 2, 3, 4]).quantile(torch.tensor([0.1, 0.9]))
torch.tensor([1., 2, 3, 4]).quantile(0.3, interpolation='nearest')
torch.tensor([-float('inf'), -float('inf')]).logsumexp(0)
torch.tensor([float('inf'), 1.]).logsumexp(0)
torch.tensor([[3, 1], [2, 4]]).logsumexp(0)
torch.tensor([1., 2.]).logsumexp(dim=None)
# all/any over no dims reduce nothing (unlike sum's dim=())
torch.all(torch.arange(6.).reshape(2, 3), ())
torch.any(torch.tensor([[0, 3], [1, 0]], dtype=torch.uint8), dim=[])
torch.any(torch.zeros(0, 3), (), True)
torch.tensor([[0, 3], [1, 0]], dtype=torch.uint8).all(1)
# norms: torch.norm sends 'nuc' (and 'fro' over three dims) to linalg.matrix_norm
torch.arange(24.).reshape(2, 3, 4).norm(p='nuc', dim=(1, 2))
torch.arange(6.).reshape(2, 3).norm(p='nuc')
torch.arange(24.).reshape(2, 3, 4).norm(p='nuc')
torch.arange(24.).reshape(2, 3, 4).norm(p='fro', dim=(0, 1, 2))
torch.arange(24.).reshape(2, 3, 4).norm(p='nuc', dim=(0, 1), keepdim=True)
torch.arange(6.).reshape(2, 3).norm(p='abc')
torch.norm(torch.arange(24.).reshape(2, 3, 4), 1, True)
torch.arange(24.).reshape(2, 3, 4).norm(p=float('inf'), dim=1)
torch.arange(24.).reshape(2, 3, 4).norm(p=0)
torch.linalg.matrix_norm(torch.ones(2, 3), dim=(0, 0))
torch.linalg.matrix_norm(torch.ones(2, 3), 'nuc', dim=(1,))
torch.linalg.matrix_norm(torch.ones(2, 3), 1, dim=(0, 5))
torch.tensor([1., 2, 3]).dist(torch.tensor([0., 0, 0]))
torch.trace(torch.arange(9).reshape(3, 3))
torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([0.5, 1., 2.]))
torch.searchsorted(torch.tensor([1, 3, 5]), torch.tensor([3, 4]), right=True)
""")


@pytest.mark.parametrize("code", SPECIAL)
def test_reduction_corner_matches_torch(code, torch):
    same_call(torch, code)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("op", ["nansum(1)", "nanmean(0)", "nansum()", "logcumsumexp(1)", "sum(0)", "mean(1)", "std()",
                                "norm(dim=1)", "cumsum(1)", "softmax(1)", "logsumexp(1)", "sum(1, dtype=torch.float32)",
                                "sum(dtype=torch.float64)"])
def test_half_precision_reductions_accumulate_as_torch(op, dtype, torch):
    """Bit for bit: half types accumulate in float32 and round once (NumPy's nansum and a running logaddexp of
    float16 added in float16: up to 33 % off for bfloat16 nanmean), float32 in PyTorch's order."""
    a = np.random.default_rng(0).uniform(-2, 2, (37, 53)).astype(np.float32)
    a[3, 5] = a[7, 0] = np.nan if op.startswith("nan") else a[3, 5]
    # (float32 logsumexp's exp and log are MKL's vector math: core._mkl_vml's steps on an AMD CPU)
    same_call(torch, f"torch.tensor(a).to(torch.{dtype}).{op}.double()", names={"a": a}, rtol=0, atol=0)


_shapes = st.lists(st.integers(0, 4), min_size=1, max_size=4)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(shape=_shapes, data=st.data(), keepdim=st.booleans(),
       op=st.sampled_from(["sum", "mean", "amax", "amin", "std", "var", "all", "any", "logsumexp", "nansum", "norm"]),
       dtype=st.sampled_from(["float32", "float64", "int64", "bool"]))
def test_random_shapes_and_dim_tuples_reduce_like_torch(shape, data, keepdim, op, dtype, torch):
    dims = data.draw(st.lists(st.integers(-len(shape), len(shape) - 1), min_size=1, max_size=len(shape), unique=True))
    n = 1
    for s in shape:
        n *= s
    src = f"(torch.arange({n}) % 5 - 2).reshape({tuple(shape)}).to(torch.{dtype})"
    same_call(torch, f"torch.{op}({src}, dim={tuple(dims)}, keepdim={keepdim})", rtol=1e-4)
