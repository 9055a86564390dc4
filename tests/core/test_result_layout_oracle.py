"""Oracle tests for the layout of reductions', scans', sorts' and ``nonzero``'s results on permuted,
channels-last, expanded and sliced inputs: ``.stride()`` is torch's, values element for element.

torch allocates ``amax``/``amin``/``prod``/``all``/``any``/``count_nonzero``/``norm``/``nanmean``'s results and its
scans' (``cumsum``, ``cummax``, ``logcumsumexp``) and ``softmax``'s contiguous whatever the input's layout, where
NumPy keeps the input's order; ``sort``/``argsort`` keep a dense input's stride order (NumPy's gives C order);
an empty ``nonzero`` is (0, ndim) with strides (1, 0). A stride decides what ``view`` accepts afterwards, so a
learner's ``x.t().amax(0, keepdim=True).view(...)`` must behave as in torch.
"""

from __future__ import annotations

import pytest

from tests.core.oracle import assert_same


def _inputs(lib):
    """Inputs laid out in the ways a learner makes them: transposed, permuted, channels-last, expanded, sliced."""
    base = lib.arange(24.0).reshape(2, 3, 4) - 11.5
    return {"t": (lib.arange(6.0).reshape(2, 3) - 2.5).t(), "permute201": base.permute(2, 0, 1),
            "permute120": base.permute(1, 2, 0), "transpose02": base.transpose(0, 2),
            "channels_last": (lib.arange(120.0).reshape(2, 3, 4, 5) / 7 - 8).contiguous(
                memory_format=lib.channels_last),
            "expanded": lib.arange(3.0).reshape(3, 1).expand(3, 4), "sliced": lib.arange(24.0).reshape(4, 6)[:, ::2]}


OPS = {
    "amax_keepdim0": lambda x: x.amax(0, keepdim=True), "amax_keepdim_last": lambda x: x.amax(-1, keepdim=True),
    "amax1": lambda x: x.amax(1), "amin_keepdim1": lambda x: x.amin(1, keepdim=True),
    "aminmax": lambda x: tuple(x.aminmax(dim=1, keepdim=True)), "prod_keepdim1": lambda x: x.prod(1, keepdim=True),
    "prod0": lambda x: x.prod(0), "all_keepdim1": lambda x: (x > 0).all(1, keepdim=True),
    "any0": lambda x: (x > 0).any(0), "count_nonzero1": lambda x: x.count_nonzero(1),
    "norm_keepdim1": lambda x: x.norm(dim=1, keepdim=True), "vector_norm0": lambda x: x.norm(p=1, dim=0),
    "nanmean_keepdim1": lambda x: x.nanmean(1, keepdim=True),
    "sum_keepdim0": lambda x: x.sum(0, keepdim=True), "max_keepdim1": lambda x: tuple(x.max(1, keepdim=True)),
    "cumsum0": lambda x: x.cumsum(0), "cumsum1": lambda x: x.cumsum(1), "cumprod1": lambda x: x.cumprod(1),
    "cummax1": lambda x: tuple(x.cummax(1)), "logcumsumexp1": lambda x: x.logcumsumexp(1),
    "softmax0": lambda x: x.softmax(0), "softmax1": lambda x: x.softmax(1),
    "log_softmax_last": lambda x: x.log_softmax(-1), "double_softmax_last": lambda x: x.double().softmax(-1),
    "sort1": lambda x: tuple(x.sort(1)), "sort0_descending": lambda x: tuple(x.sort(0, descending=True)),
    "argsort1": lambda x: x.argsort(1), "msort": lambda x: x.msort(), "topk0": lambda x: tuple(x.topk(1, 0)),
}


@pytest.mark.parametrize("layout", ["t", "permute201", "permute120", "transpose02", "channels_last", "expanded",
                                    "sliced"])
@pytest.mark.parametrize("op", sorted(OPS))
def test_result_strides_and_values_match_torch(op, layout, torch):
    import core

    ours, theirs = OPS[op](_inputs(core)[layout]), OPS[op](_inputs(torch)[layout])
    assert_same(ours, theirs, rtol=1e-6, atol=1e-6, check_stride=True)


NONZERO_INPUTS = {"zeros2d": lambda lib: lib.zeros(3, 4), "empty": lambda lib: lib.zeros(0),
                  "empty3d": lambda lib: lib.zeros(2, 0, 3), "zeros1d": lambda lib: lib.zeros(3),
                  "zero0d": lambda lib: lib.tensor(0.0), "one0d": lambda lib: lib.tensor(1.0),
                  "ones2d": lambda lib: lib.ones(2, 3)}


@pytest.mark.parametrize("make", sorted(NONZERO_INPUTS))
def test_nonzero_strides_match_torch_also_when_nothing_is_found(make, torch):
    import core

    for fn in (lambda t: t.nonzero(), lambda t: t.argwhere(), lambda t: t.nonzero().t()):
        assert_same(fn(NONZERO_INPUTS[make](core)), fn(NONZERO_INPUTS[make](torch)), check_stride=True)
