"""core.testing.assert_close and make_tensor against torch.testing: same verdicts, error types and messages."""

import numpy as np
import pytest

import core


def _outcome(assert_close, actual, expected, **kwargs):
    try:
        assert_close(actual, expected, **kwargs)
    except Exception as exc:  # the type and message are what we compare
        return type(exc).__name__, str(exc)
    return None


def _both(torch, build, **kwargs):
    """Run assert_close on the same values built by ``build(lib)`` in core and torch."""
    ours = _outcome(core.testing.assert_close, *build(core), **kwargs)
    theirs = _outcome(torch.testing.assert_close, *build(torch), **kwargs)
    if ours is not None:  # type names differ by their package only
        ours = (ours[0], ours[1].replace("<class 'core.Tensor'>", "<class 'torch.Tensor'>"))
    assert ours == theirs
    return ours


CASES = {
    "close float32": lambda lib: (lib.tensor([1.0, 2.0, 3.0]), lib.tensor([1.0, 2.0 + 1e-6, 3.0])),
    "float32 mismatch": lambda lib: (lib.tensor([1.0, 2.0, 3.0]), lib.tensor([1.0, 2.1, 3.0])),
    "float64 tolerances": lambda lib: (lib.tensor([1.0, 2.0], dtype=lib.float64),
                                       lib.tensor([1.0, 2.0 + 1e-6], dtype=lib.float64)),
    "2-d index": lambda lib: (lib.tensor([[1.0, 2.0], [3.0, 4.0]]), lib.tensor([[1.0, 2.0], [3.0, 4.5]])),
    "dtype mismatch": lambda lib: (lib.tensor([1.0], dtype=lib.float64), lib.tensor([1.0])),
    "shape mismatch": lambda lib: (lib.tensor([1.0, 2.0]), lib.tensor([1.0, 2.0, 3.0])),
    "integers": lambda lib: (lib.tensor([1, 2, 3]), lib.tensor([1, 3, 3])),
    "integer vs zero": lambda lib: (lib.tensor([1, 5]), lib.tensor([1, 0])),
    "booleans": lambda lib: (lib.tensor([True, False]), lib.tensor([True, True])),
    "nan": lambda lib: (lib.tensor([1.0, float("nan")]), lib.tensor([1.0, float("nan")])),
    "inf": lambda lib: (lib.tensor([1.0, 2.0]), lib.tensor([1.0, float("inf")])),
    "zero-dim": lambda lib: (lib.tensor(1.0), lib.tensor(1.5)),
    "needs grad": lambda lib: (lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([1.0, 2.0])),
    "atol edge": lambda lib: (lib.tensor([0.0, 1.0]), lib.tensor([2e-5, 1.0])),
    "python floats": lambda lib: (1.0, 1.1),
    "python ints": lambda lib: (1, 2),
    "float vs int": lambda lib: (1.0, 1),
    "python bools": lambda lib: (True, False),
    "none": lambda lib: (None, 1),
    "tensor vs float": lambda lib: (lib.tensor(1.0), 1.0),
    "strings": lambda lib: ("ab", "ac"),
    "nested sequence": lambda lib: ([[1, {"a": 2}]], [[1, {"a": 3}]]),
    "sequence length": lambda lib: ([1, 2], [1, 2, 3]),
    "mapping keys": lambda lib: ({"a": 1}, {"b": 1}),
    "mapping of tensors": lambda lib: ({"w": lib.tensor([1.0])}, {"w": lib.tensor([1.5])}),
    "numpy arrays": lambda lib: (np.array([1.0, 2.0]), np.array([1.0, 2.5])),
    "numpy scalars": lambda lib: (np.float32(1), np.float32(1.5)),
}


@pytest.mark.parametrize("case", CASES)
def test_assert_close_gives_torchs_verdict_and_message(torch, case):
    _both(torch, CASES[case])


def test_assert_close_options_behave_as_torchs(torch):
    pair = CASES["2-d index"]
    assert _both(torch, pair, rtol=0.2, atol=0.0) is None
    assert _both(torch, lambda lib: (lib.tensor([1.0]), lib.tensor([1.0])), rtol=1e-3)[0] == "ValueError"
    assert _both(torch, CASES["nan"], equal_nan=True) is None
    assert _both(torch, lambda lib: (lib.tensor([1.0, 2.0]), lib.tensor([1.0, 2.5], dtype=lib.float64)),
                 check_dtype=False)[0] == "AssertionError"
    assert _both(torch, lambda lib: (lib.ones(2, 3).t(), lib.ones(3, 2)), check_stride=True)[0] == "AssertionError"
    assert _both(torch, CASES["float32 mismatch"], msg="custom") == ("AssertionError", "custom")
    ours = _outcome(core.testing.assert_close, *pair(core), msg=lambda text: "ctx: " + text)
    assert ours[1].startswith("ctx: Tensor-likes are not close!")


def test_core_testing_is_a_submodule_of_core():
    assert hasattr(core, "testing")
    from core.testing import assert_close, make_tensor  # noqa: F401


def test_assert_allclose_is_deprecated_and_ignores_dtype(torch):
    with pytest.warns(FutureWarning, match="assert_close"):
        core.testing.assert_allclose(core.tensor([1.0, 2.0]), [1.0, 2.0])
    with pytest.raises(AssertionError):
        with pytest.warns(FutureWarning):
            core.testing.assert_allclose(core.tensor([1.0, 2.0]), core.tensor([1.0, 3.0], dtype=core.float64))


@pytest.mark.parametrize("kwargs", [dict(dtype="float32"), dict(dtype="float64", low=-1, high=1),
                                    dict(dtype="int64"), dict(dtype="uint8"), dict(dtype="bool"),
                                    dict(dtype="int32", low=3, high=5)])
def test_make_tensor_draws_torchs_values_with_the_same_seed(torch, kwargs):
    kwargs = dict(kwargs)
    name = kwargs.pop("dtype")
    results = []
    for lib in (core, torch):
        lib.manual_seed(3)
        results.append(lib.testing.make_tensor(2, 5, dtype=getattr(lib, name), device="cpu", **kwargs))
    ours, theirs = results
    assert str(ours.dtype) == str(theirs.dtype) and tuple(ours.shape) == tuple(theirs.shape)
    assert np.array_equal(ours.numpy(), theirs.numpy())


def test_make_tensor_options_match_torch(torch):
    for lib in (core, torch):
        lib.manual_seed(0)
    ours = core.testing.make_tensor((3, 4), dtype=core.float32, device="cpu", noncontiguous=True,
                                    requires_grad=True)
    theirs = torch.testing.make_tensor((3, 4), dtype=torch.float32, device="cpu", noncontiguous=True,
                                       requires_grad=True)
    assert not ours.is_contiguous() and ours.stride() == theirs.stride() and ours.requires_grad
    assert np.array_equal(ours.detach().numpy(), theirs.detach().numpy())
    zeros = core.testing.make_tensor(50, dtype=core.int64, device="cpu", low=0, high=2, exclude_zero=True)
    assert bool((zeros != 0).all())


@pytest.mark.parametrize("kwargs", [dict(dtype="int64", requires_grad=True), dict(dtype="float32", low=2, high=1),
                                    dict(dtype="float32", low=float("nan")), dict(dtype="uint8", low=-5, high=-1)])
def test_make_tensor_rejects_what_torch_rejects(torch, kwargs):
    kwargs = dict(kwargs)
    name = kwargs.pop("dtype")
    errors = []
    for lib in (core, torch):
        with pytest.raises(ValueError) as info:
            lib.testing.make_tensor(3, dtype=getattr(lib, name), device="cpu", **kwargs)
        errors.append(str(info.value).split(",")[0])
    assert errors[0] == errors[1]
