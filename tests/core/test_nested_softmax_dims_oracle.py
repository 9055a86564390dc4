"""softmax and log_softmax of a nested tensor over the dims torch refuses: the batch dim (each layout's message) and,
for log_softmax only, a jagged tensor's ragged dim (torch's jagged kernel runs softmax there, not log_softmax). The
error type and message are torch's; the dims torch accepts still give its values."""

import warnings

import numpy as np
import pytest

import core

CALLS = {
    "F.softmax": lambda lib, nt, d: lib.nn.functional.softmax(nt, dim=d),
    "F.log_softmax": lambda lib, nt, d: lib.nn.functional.log_softmax(nt, dim=d),
    "torch.log_softmax": lambda lib, nt, d: lib.log_softmax(nt, d),
    "Tensor.softmax": lambda lib, nt, d: nt.softmax(d),
    "Tensor.log_softmax": lambda lib, nt, d: nt.log_softmax(d),
    # Python composites torch's nested tensor runs as written (F.softmin: (-input).softmax(dim)) or aliases
    "F.softmin": lambda lib, nt, d: lib.nn.functional.softmin(nt, dim=d),
    "F.softmin float64": lambda lib, nt, d: lib.nn.functional.softmin(nt, dim=d, dtype=lib.float64),
    "special.softmax": lambda lib, nt, d: lib.special.softmax(nt, d),
    "special.log_softmax": lambda lib, nt, d: lib.special.log_softmax(nt, d),
}


def _outcome(lib, layout, call, dim):
    lib.manual_seed(0)
    parts = [lib.arange(6.0).reshape(2, 3) / 7, lib.arange(12.0).reshape(4, 3).cos()]
    with warnings.catch_warnings():  # (the strided layout's prototype-stage warning, both libraries' once)
        warnings.simplefilter("ignore")
        nt = lib.nested.nested_tensor(parts, layout=getattr(lib, layout))
    try:
        out = CALLS[call](lib, nt, dim)
    except Exception as e:  # (the outcome compared: the error's type and message)
        return type(e).__name__, str(e)
    return "ok", [p.tolist() for p in out.unbind()]


@pytest.mark.parametrize("dim", [0, 1, 2, -1, -2])
@pytest.mark.parametrize("call", list(CALLS))
def test_nested_softmax_over_each_dim_matches_torch(torch, call, dim):
    ours, theirs = _outcome(core, "jagged", call, dim), _outcome(torch, "jagged", call, dim)
    if theirs[0] != "ok":
        assert ours == theirs
        return
    assert ours[0] == "ok"
    for c, t in zip(ours[1], theirs[1], strict=True):
        np.testing.assert_allclose(c, t, rtol=1e-6)


@pytest.mark.parametrize("call", ["F.softmax", "Tensor.softmax"])
def test_strided_nested_softmax_over_the_batch_dim_raises_torchs_error(torch, call):
    assert _outcome(core, "strided", call, 0) == _outcome(torch, "strided", call, 0)


@pytest.mark.parametrize("layout", ["jagged", "strided"])
@pytest.mark.parametrize("call", ["F.softmin", "special.softmax"])
@pytest.mark.parametrize("dim", [1, -1])
def test_nested_softmin_and_special_softmax_compute_torchs_bits(torch, layout, call, dim):
    """(They raised NotImplementedError for every dim: the composites reached no nested kernel.)"""
    ours, theirs = _outcome(core, layout, call, dim), _outcome(torch, layout, call, dim)
    assert ours[0] == theirs[0] == "ok"
    for c, t in zip(ours[1], theirs[1], strict=True):
        np.testing.assert_array_equal(np.array(c, np.float32).view(np.uint32), np.array(t, np.float32).view(np.uint32))


def test_nested_softmin_without_a_dim_warns_and_refuses_the_batch_dim_as_torch(torch):
    def run(lib):
        nt = lib.nested.nested_tensor([lib.ones(2, 3), lib.ones(1, 3)], layout=lib.jagged)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(RuntimeError) as error:
                lib.nn.functional.softmin(nt)
        return str(error.value), [str(w.message) for w in caught if "softmin" in str(w.message)]

    ours, theirs = run(core), run(torch)
    assert ours == theirs
