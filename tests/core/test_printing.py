"""Tensor reprs match PyTorch's text exactly (same construction in both libraries)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import core

# torch builds on the CPU, so its reprs never carry the device suffix core prints for CUDA tensors.
pytestmark = pytest.mark.cpu_only

nan, inf = float("nan"), float("inf")

# Each entry builds the same tensor with ``lib`` = core or torch; the reprs must be identical.
CASES = {
    "chapter_grad_x": lambda lib: lib.tensor([1.5, -0.5]),
    "chapter_grad_w": lambda lib: lib.tensor([2.0, 3.0]),
    "chapter_grad_b": lambda lib: lib.tensor(1.0),
    "int64_vector": lambda lib: lib.tensor([1, 2, 3]),
    "bool_vector": lambda lib: lib.tensor([True, False]),
    "bool_scalar": lambda lib: lib.tensor(True),
    "int_scalar": lambda lib: lib.tensor(-7),
    "negative_int_scalar_width": lambda lib: lib.tensor([-100, 5, 20]),
    "sci_small_and_large": lambda lib: lib.tensor([1e-5, 1e5]),
    "sci_scalar": lambda lib: lib.tensor(1e-5),
    "sci_large_scalar": lambda lib: lib.tensor(-1e10),
    "sci_big_values": lambda lib: lib.tensor([123456789.0, 1.0]),
    "sci_ratio_over_1000": lambda lib: lib.tensor([0.5, 600.25]),
    "integer_valued_floats": lambda lib: lib.tensor([1.0, 2.0]),
    "integer_valued_large_floats": lambda lib: lib.tensor([1.0, 1000.0]),
    "zeros_float": lambda lib: lib.tensor([0.0, 0.0]),
    "negative_zero": lambda lib: lib.tensor([-0.0, 1.0]),
    "nan_inf_ints": lambda lib: lib.tensor([nan, inf, 1.0]),
    "nan_inf_fraction": lambda lib: lib.tensor([nan, 1.5, -inf]),
    "only_nan": lambda lib: lib.tensor(nan),
    "only_inf": lambda lib: lib.tensor([inf, -inf]),
    "matrix_int": lambda lib: lib.arange(12).reshape(3, 4),
    "matrix_float": lambda lib: lib.arange(24.0).reshape(2, 3, 4),
    "four_dims": lambda lib: lib.ones(2, 2, 2, 2),
    "bool_matrix": lambda lib: lib.tensor([[True, False], [False, True]]),
    "fractions_wrap_at_linewidth": lambda lib: lib.arange(100.0) / 7,
    "long_int_wraps": lambda lib: lib.arange(60) * 1000003,
    "summarized_1d": lambda lib: lib.arange(2000),
    "summarized_1001": lambda lib: lib.arange(1001),
    "not_summarized_1000": lambda lib: lib.arange(1000),
    "summarized_2d": lambda lib: lib.arange(2000.0).reshape(40, 50),
    "summarized_3d": lambda lib: lib.arange(3000.0).reshape(10, 15, 20),
    "summarized_full": lambda lib: lib.full((300, 300), 2.5),
    "summarized_wide_rows": lambda lib: lib.arange(3000).reshape(2, 1500),
    "float64_shows_dtype": lambda lib: lib.tensor([1.0, 2.0], dtype=lib.float64),
    "float64_sci": lambda lib: lib.tensor([[1e10, 1.0]], dtype=lib.float64),
    "float64_long_suffix_wraps": lambda lib: lib.linspace(0, 1, 50, dtype=lib.float64),
    "float64_linspace_7": lambda lib: lib.linspace(-1, 1, 7, dtype=lib.float64),
    "float16": lambda lib: lib.tensor([1.5, 2.25], dtype=lib.float16),
    "float16_fraction": lambda lib: lib.tensor([0.1, 0.2, 0.3], dtype=lib.float16) * 1000,
    "float16_sci": lambda lib: lib.tensor([1e-3, 60000.0], dtype=lib.float16),
    "int32": lambda lib: lib.tensor([1, 2], dtype=lib.int32),
    "int8_range": lambda lib: lib.arange(-5, 5, dtype=lib.int8),
    "int16_matrix": lambda lib: lib.arange(6, dtype=lib.int16).reshape(2, 3),
    "uint8": lambda lib: lib.tensor([1, 255], dtype=lib.uint8),
    "empty_default": lambda lib: lib.tensor([]),
    "empty_2d": lambda lib: lib.zeros(0, 3),
    "empty_int32": lambda lib: lib.tensor([], dtype=lib.int32),
    "empty_int64_2d": lambda lib: lib.zeros(2, 0, dtype=lib.int64),
    "empty_bool": lambda lib: lib.zeros(0, dtype=lib.bool),
    "empty_float64_3d": lambda lib: lib.zeros(1, 0, 2, dtype=lib.float64),
    "requires_grad": lambda lib: lib.tensor([1.0, 2.0], requires_grad=True),
    "requires_grad_scalar": lambda lib: lib.tensor(3.0, requires_grad=True),
    "grad_fn_add": lambda lib: lib.tensor([1.0, 2.0], requires_grad=True) + 1,
    "grad_fn_mul_float64": lambda lib: lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True) * 2,
    "grad_fn_summarized": lambda lib: lib.ones(40, 40, requires_grad=True) * 3,
    "grad_fn_wraps_to_new_line": lambda lib: lib.arange(16.0).reshape(4, 4).requires_grad_() * 1.2345,
    "transposed_view": lambda lib: lib.arange(6.0).reshape(2, 3).t(),
    "full_sci_1e20": lambda lib: lib.full((3,), 1e20),
    "thousand_steps": lambda lib: lib.arange(30.0).reshape(5, 6) * 1000.5,
    "mixed_magnitudes": lambda lib: lib.tensor([[1e-4, 1.0], [3.5, 1e3]]),
    "tiny_below_threshold": lambda lib: lib.tensor([9.9e-5, 1.0]),
    "eye": lambda lib: lib.eye(3),
    "eye_int": lambda lib: lib.eye(2, dtype=lib.int32),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_repr_matches_pytorch_text(name, torch):
    build = CASES[name]
    ours, theirs = build(core), build(torch)
    assert repr(ours) == repr(theirs)
    assert str(ours) == repr(ours)


# Values from NumPy so both libraries print the very same numbers.
ARRAYS = {
    "random_normal_matrix": np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32),
    "random_uniform_big": np.random.default_rng(1).random((50, 40)).astype(np.float32),
    "random_3d_float64": np.random.default_rng(2).standard_normal((2, 3, 4)),
    "random_ints_wide": np.random.default_rng(3).integers(-10**9, 10**9, (3, 7)),
    "random_sci": np.random.default_rng(4).standard_normal(12).astype(np.float32) * 1e6,
    "random_float16": np.random.default_rng(5).standard_normal((3, 3)).astype(np.float16),
    "random_bool_big": np.random.default_rng(6).random((40, 30)) > 0.5,
    "random_long_vector": np.random.default_rng(7).standard_normal(500).astype(np.float32),
    "random_int32_3d_big": np.random.default_rng(8).integers(0, 100, (12, 10, 10)).astype(np.int32),
}


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_repr_of_numpy_data_matches_pytorch(name, torch):
    arr = ARRAYS[name]
    assert repr(core.tensor(arr)) == repr(torch.tensor(arr))


@pytest.fixture
def restore_printoptions(torch):
    yield
    core.set_printoptions(profile="default")
    torch.set_printoptions(profile="default")


@pytest.mark.parametrize("options", [
    {"precision": 2},
    {"precision": 8},
    {"threshold": 5},
    {"edgeitems": 1, "threshold": 10},
    {"edgeitems": 0, "threshold": 10},
    {"linewidth": 40},
    {"sci_mode": True},
    {"sci_mode": False},
    {"profile": "short"},
    {"profile": "full"},
    {"profile": "full", "precision": 2},
])
def test_set_printoptions_changes_reprs_like_pytorch(options, torch, restore_printoptions):
    core.set_printoptions(**options)
    torch.set_printoptions(**options)
    for name in ("fractions_wrap_at_linewidth", "summarized_2d", "matrix_int", "sci_small_and_large",
                 "summarized_1d", "chapter_grad_x", "summarized_3d", "bool_matrix"):
        assert repr(CASES[name](core)) == repr(CASES[name](torch)), name


def test_printoptions_context_manager_restores_the_options(restore_printoptions):
    before = core._tensor_str.get_printoptions()
    with core._tensor_str.printoptions(precision=2):
        assert repr(core.tensor([1.12345])) == "tensor([1.12])"
    assert core._tensor_str.get_printoptions() == before
    assert repr(core.tensor([1.12345])) == "tensor([1.1235])"


def test_default_dtype_float64_hides_its_dtype_and_shows_float32(torch):
    old = core.get_default_dtype()
    try:
        core.set_default_dtype(core.float64)
        torch.set_default_dtype(torch.float64)
        for build in (lambda lib: lib.tensor([1.5, 2.0]), lambda lib: lib.tensor([1.5], dtype=lib.float32),
                      lambda lib: lib.zeros(0), lambda lib: lib.tensor([], dtype=lib.float32)):
            assert repr(build(core)) == repr(build(torch))
    finally:
        core.set_default_dtype(old)
        torch.set_default_dtype(torch.float32)


def test_size_dtype_and_device_reprs_match_pytorch(torch):
    for build in (lambda lib: lib.Size([32, 3, 224, 224]), lambda lib: lib.Size([]), lambda lib: lib.Size([5]),
                  lambda lib: lib.zeros(2, 3).shape, lambda lib: lib.float32, lambda lib: lib.int64,
                  lambda lib: lib.half, lambda lib: lib.bool, lambda lib: lib.device("cpu"),
                  lambda lib: lib.device("cuda"), lambda lib: lib.device("cuda:1"), lambda lib: lib.device("cuda", 0),
                  lambda lib: lib.finfo(lib.float32), lambda lib: lib.finfo(lib.float16),
                  lambda lib: lib.iinfo(lib.int8),
                  lambda lib: lib.iinfo(lib.int64)):
        assert repr(build(core)) == repr(build(torch))
        assert str(build(core)) == str(build(torch))


def test_printing_the_chapters_shape_line():
    x = core.randn(32, 3, 224, 224)
    assert f"{x.shape} {x.dtype} {x.device}" == "torch.Size([32, 3, 224, 224]) torch.float32 cpu"


def test_format_of_a_zero_dim_tensor_formats_its_value(torch):
    for spec in (".2f", ">8", "", ".3e"):
        assert format(core.tensor(2.5), spec) == format(torch.tensor(2.5), spec)


@pytest.mark.skipif(not core.cuda.is_available(), reason="needs a CUDA GPU with CuPy")
def test_cuda_tensors_print_their_device():
    assert repr(core.tensor([1.0, 2.0], device="cuda")) == "tensor([1., 2.], device='cuda:0')"
    assert repr(core.tensor([1, 2], dtype=core.int32, device="cuda")) == \
        "tensor([1, 2], device='cuda:0', dtype=torch.int32)"
    assert repr(core.tensor([1.0], device="cuda", requires_grad=True)) == \
        "tensor([1.], device='cuda:0', requires_grad=True)"


_floats = st.floats(allow_nan=True, allow_infinity=True, width=32)


@given(st.lists(st.lists(_floats, min_size=3, max_size=3), min_size=1, max_size=5))
def test_repr_of_any_float32_matrix_matches_pytorch(rows):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: oracle test skipped")
    arr = np.array(rows, dtype=np.float32)
    assert repr(core.tensor(arr)) == repr(torch.tensor(arr))


@given(st.lists(st.integers(-2**62, 2**62), min_size=0, max_size=30))
def test_repr_of_any_int64_vector_matches_pytorch(values):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: oracle test skipped")
    assert repr(core.tensor(values, dtype=core.int64)) == repr(torch.tensor(values, dtype=torch.int64))
