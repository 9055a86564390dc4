"""Layer, group, batch and instance norm on the CPU accept parameters of another dtype than the input only as
float32 ones for a float16 or bfloat16 input, and raise PyTorch's "mixed dtype (CPU)" errors otherwise: Whisper's
LayerNorm normalises ``x.float()`` and a model made ``.half()`` then stops there, in torch as in core."""

import itertools

import pytest

import core
from tests.core.oracle import check, check_error

DTYPES = ["float32", "float16", "bfloat16", "float64"]


def _norms(lib, x, w):
    F = lib.nn.functional
    c = x.shape[1]
    stats = (lib.zeros(c, dtype=w.dtype), lib.ones(c, dtype=w.dtype))
    return [F.layer_norm(x, (x.shape[-1],), w[:x.shape[-1]], None), F.group_norm(x, 2, w, w),
            F.batch_norm(x, *stats, w, None, False), F.batch_norm(x, None, None, w, w, True),
            F.instance_norm(x, weight=w)]


@pytest.mark.parametrize("x_dtype, w_dtype", list(itertools.product(DTYPES, DTYPES)))
def test_parameters_of_another_dtype_follow_torchs_rule(torch, x_dtype, w_dtype):
    def run(which):
        def fn(lib, _):
            x = lib.arange(24.0).reshape(2, 4, 3).sin().to(getattr(lib, x_dtype))
            w = (lib.arange(4.0) / 4 + 0.5).to(getattr(lib, w_dtype))
            out = _norms(lib, x, w)[which]
            return str(out.dtype).split(".")[-1], out.float()
        return fn
    for which in range(5):
        try:
            torch_ok = run(which)(torch, None) is not None
        except RuntimeError:
            torch_ok = False
        if torch_ok:
            check(run(which), [0], torch, rtol=1e-2, atol=1e-2)
        else:
            ours = check_error(run(which), [0], torch, match=r"^mixed dtype \(CPU\): ")
            with pytest.raises(RuntimeError) as theirs:
                run(which)(torch, None)
            assert str(ours) == str(theirs.value)


def test_whispers_float_layer_norm_on_a_half_model_raises(torch):
    for lib in (core, torch):
        ln = lib.nn.LayerNorm(8).half()
        with pytest.raises(RuntimeError, match="expect parameter to have scalar type of Float"):
            ln(lib.randn(2, 8).float())
