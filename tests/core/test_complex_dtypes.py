"""Complex dtypes against torch: names and flags, promotion, creation and conversion, printing (compared as
the exact text torch prints), seeded sampling, and the errors torch raises for complex inputs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from core import _warn_once


def _same_text(expr: str, torch) -> None:
    """``expr`` (with ``L`` the library) gives the same repr in core and torch."""
    ours, theirs = eval(expr, {"L": core, "np": np}), eval(expr, {"L": torch, "np": np})
    assert repr(ours) == repr(theirs), f"{expr}\ncore:  {ours!r}\ntorch: {theirs!r}"


DTYPE_FACTS = [
    "(L.complex64, L.cfloat, L.complex128, L.cdouble, L.complex32, L.chalf)",
    "(L.complex64.is_complex, L.complex64.is_floating_point, L.complex64.is_signed, L.complex64.itemsize)",
    "(L.complex128.itemsize, L.complex32.itemsize, L.complex32.is_complex)",
    "(L.float32.to_complex(), L.float64.to_complex(), L.complex64.to_real(), L.complex128.to_real())",
    "L.finfo(L.complex64)", "L.finfo(L.complex128)",
    "[L.promote_types(a, b) for a in (L.float32, L.float64, L.int64, L.bool, L.float16) "
    "for b in (L.complex64, L.complex128)]",
    "(L.can_cast(L.complex64, L.float64), L.can_cast(L.float64, L.complex64), L.can_cast(L.complex128, L.complex64))",
    "(L.result_type(L.tensor([1]), 1j), L.result_type(L.tensor([1.], dtype=L.float64), 1j), "
    "L.result_type(L.tensor(1j), L.tensor([1.], dtype=L.float64)), L.result_type(L.tensor([1j]), 2.5))",
]

CREATION_AND_PRINTING = [
    "L.tensor(1+2j)", "L.tensor([1j, 2])", "L.tensor([1.+2.j, 3.-1.j])", "L.tensor([[1.5+2j, -3-1j], [0.001j, 1e5]])",
    "L.tensor([1+1j], dtype=L.complex128)", "L.tensor([1e10+1j])", "L.tensor([1.5e-5j, 1])", "L.tensor([0.0, -0.0j])",
    "L.tensor([float('nan')+1j, float('inf')*1j])", "L.tensor([[1.5+0.5j]*5]*2)", "L.tensor([100000.0+1j, 1j])",
    "L.tensor([1.123456+2.2j, -3-1e-3j])", "L.tensor([1+1j], requires_grad=True)", "L.tensor([], dtype=L.complex64)",
    "L.zeros(2, 0, dtype=L.cfloat)", "L.zeros(2, dtype=L.complex64)", "L.ones(2, dtype=L.cdouble)",
    "L.full((2,), 1+2j)", "L.full((2,), 2, dtype=L.cfloat)", "L.eye(2, dtype=L.complex64)",
    "L.zeros_like(L.ones(2), dtype=L.complex128)", "L.tensor([1, 2]).to(L.complex64)", "L.tensor([1.5]).cfloat()",
    "L.tensor([1.5]).cdouble()", "L.from_numpy(np.array([1+1j, 2]))", "L.tensor(np.array([1j], np.complex64))",
    "L.tensor(1+1j).item()", "L.tensor([[1j, 2]]).tolist()", "L.tensor([1+1j]).numpy()", "L.tensor([1j]).type()",
    "L.tensor([1j]).element_size()", "(L.tensor([1j]).is_complex(), L.is_complex(L.tensor([1.])))",
    "(L.tensor([1j]).is_floating_point(), L.tensor([1j]).is_signed())", "complex(L.tensor(1-2j))",
    "L.tensor([[1+2j, 3]]).T", "L.tensor([[1+2j, 3], [4, 5j]]).mT",
    "L.tensor(np.arange(2000.0).reshape(40, 50) * (1 + 0.5j))", "L.tensor([1e6 + 1e-5j, 2, 3j], dtype=L.complex128)",
]


@pytest.mark.parametrize("expr", DTYPE_FACTS)
def test_complex_dtype_facts_and_promotion_match_torch(torch, expr):
    _same_text(expr, torch)


@pytest.mark.parametrize("expr", CREATION_AND_PRINTING)
def test_complex_tensors_are_made_converted_and_printed_as_torch_does(torch, expr):
    _same_text(expr, torch)


def test_complex_printing_follows_the_default_dtype_like_torch(torch):
    for lib in (core, torch):
        lib.set_default_dtype(lib.float64)
    try:
        _same_text("(L.tensor([1j]), L.tensor([1j], dtype=L.complex64), L.ones(2) * 1j)", torch)
    finally:
        for lib in (core, torch):
            lib.set_default_dtype(lib.float32)


@pytest.mark.parametrize("expr", ["L.randn(5, dtype=L.cfloat)", "L.randn(2, 3, dtype=L.complex128)",
                                  "L.rand(3, dtype=L.cfloat)", "L.randn((), dtype=L.cfloat)",
                                  "L.randn_like(L.zeros(17, dtype=L.cfloat))",
                                  "L.rand_like(L.zeros(2, 2, dtype=L.cdouble))"])
def test_seeded_complex_samples_are_torchs_numbers(torch, expr):
    for lib in (core, torch):
        lib.manual_seed(3)
    _same_text(expr, torch)


def test_complex32_is_a_name_core_cannot_store():
    assert repr(core.chalf) == "torch.complex32" and core.complex32.is_complex
    for make in (lambda: core.zeros(1, dtype=core.complex32), lambda: core.tensor([1j]).to(core.chalf)):
        with pytest.raises(TypeError, match="NumPy has no complex32"):
            make()


ERRORS = [
    ("lambda L: L.tensor([1j]) < L.tensor([2j])", '"lt_cpu" not implemented'),
    ("lambda L: L.tensor([1j]) >= 0", '"ge_cpu" not implemented'),
    ("lambda L: L.tensor([1j]).max()", '"max_all" not implemented'),
    ("lambda L: L.tensor([1j]).max(0)", "max\\(\\): does not support complex input"),
    ("lambda L: L.tensor([1j]).amin()", '"min_values_cpu" not implemented'),
    ("lambda L: L.tensor([1j]).argmax()", "does not support complex input"),
    ("lambda L: L.tensor([1j]).clamp(0, 1)", "clamp is not supported for complex types"),
    ("lambda L: L.tensor([1j]).relu()", "clamp is not supported for complex types"),
    ("lambda L: L.tensor([1j]).floor()", "floor is not supported for complex inputs"),
    ("lambda L: L.tensor([1j]).round()", '"round_vml_cpu" not implemented'),
    ("lambda L: L.tensor([1j]).sign()", "Please use torch.sgn instead"),
    ("lambda L: L.tensor([1j, 2]).sort()", "Sort does not support complex dtypes"),
    ("lambda L: L.tensor([1j, 2]).topk(1)", "topk does not support complex dtypes"),
    ("lambda L: L.arange(3, dtype=L.complex64)", '"arange_cpu" not implemented'),
    ("lambda L: L.tensor([1.]).imag", "imag is not implemented for tensors with non-complex dtypes"),
    ("lambda L: L.view_as_real(L.tensor([1.]))", "view_as_real is only supported for complex tensors"),
    ("lambda L: L.view_as_complex(L.ones(3))", "last dimension of size 2"),
    ("lambda L: L.tensor([[1j, 2]]) @ L.tensor([[1.], [2.]])", "c10::complex<float> != float"),
    ("lambda L: (L.tensor([1j], requires_grad=True) * 2).sum().backward()",
     "grad can be implicitly created only for real scalar outputs"),
]


@pytest.mark.parametrize("expr, match", ERRORS)
def test_complex_inputs_raise_torchs_errors(torch, expr, match):
    fn = eval(expr)
    with pytest.raises(Exception) as theirs:
        fn(torch)
    with pytest.raises(type(theirs.value), match=match):
        fn(core)


def test_casting_complex_to_real_warns_and_keeps_the_real_part(torch):
    # NOTE: both warn once per process (TORCH_WARN_ONCE), whichever test casts first; set_warn_always makes it
    # every time, so this test passes in any order
    for lib in (core, torch):
        lib.set_warn_always(True)
        try:
            with pytest.warns(UserWarning, match="discards the imaginary part"):
                out = lib.tensor([1.5 + 2j]).float()
        finally:
            lib.set_warn_always(False)
        assert out.tolist() == [1.5]


def test_casting_complex_to_real_warns_once_per_process(monkeypatch):
    monkeypatch.setattr(_warn_once, "_warned", set())  # as in a fresh process
    counts = []
    for _ in range(2):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            core.tensor([1.5 + 2j]).to(core.float64)
        counts.append(sum("discards the imaginary part" in str(w.message) for w in seen))
    assert counts == [1, 0]
