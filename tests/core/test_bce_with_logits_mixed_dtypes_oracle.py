"""``binary_cross_entropy_with_logits`` of an input and a target of two float dtypes, as PyTorch 2.13 computes it.

PyTorch's kernel writes ``(1 - target).mul_(input).sub_(log_sigmoid(input))`` in place, so the loss takes the
target's dtype: float64 logits (``torch.tensor([log_odds(.9), ...])`` of NumPy floats) with float32 labels give a
float32 loss ("Deep Learning with PyTorch Step-by-Step", chapter 3), and each gradient keeps its leaf's dtype.
"""

import numpy as np
import pytest

from tests.core.oracle import assert_same, check_grads, inputs

RNG = np.random.default_rng(3)
LOGITS = RNG.normal(0, 3, (4, 5))
LABELS = (RNG.uniform(size=(4, 5)) > 0.4).astype(np.float64)
SOFT = RNG.uniform(size=(4, 5))
POS = np.array([3.0, 0.5, 1.0, 2.0, 4.0])
WEIGHT = np.array([1.0, 2.0, 0.5, 1.5, 3.0])


def _loss(x_dtype, t_dtype, reduction="mean", pos=None, weight=None, target=LABELS):
    def fn(lib, x, t, *extra):
        kw = {}
        if pos is not None:
            kw["pos_weight"] = extra[0].to(getattr(lib, pos))
        if weight is not None:
            kw["weight"] = extra[-1].to(getattr(lib, weight))
        return lib.nn.functional.binary_cross_entropy_with_logits(
            x.to(getattr(lib, x_dtype)), t.to(getattr(lib, t_dtype)), reduction=reduction, **kw)
    arrays = [LOGITS, target] + ([POS] if pos else []) + ([WEIGHT] if weight else [])
    return fn, arrays


@pytest.mark.parametrize("x_dtype, t_dtype", [("float64", "float32"), ("float32", "float64"),
                                              ("float32", "float16"), ("float16", "float32")])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_the_loss_takes_the_targets_dtype(torch, x_dtype, t_dtype, reduction):
    import core
    fn, arrays = _loss(x_dtype, t_dtype, reduction, target=SOFT)
    ours, theirs = fn(core, *inputs(core, arrays)), fn(torch, *inputs(torch, arrays))
    assert_same(ours, theirs, rtol=1e-3 if "float16" in (x_dtype, t_dtype) else 1e-6)


@pytest.mark.parametrize("pos, weight", [("float32", None), ("float64", None), (None, "float64"),
                                         ("float64", "float32")])
def test_pos_weight_and_weight_keep_the_targets_dtype(torch, pos, weight):
    import core
    fn, arrays = _loss("float64", "float32", "mean", pos, weight)
    ours, theirs = fn(core, *inputs(core, arrays)), fn(torch, *inputs(torch, arrays))
    assert_same(ours, theirs, rtol=1e-6)


@pytest.mark.parametrize("x_dtype, t_dtype", [("float64", "float32"), ("float32", "float64")])
@pytest.mark.parametrize("pos", [None, "float32"])
def test_each_gradient_keeps_its_leafs_dtype(torch, x_dtype, t_dtype, pos):
    def fn(lib, x, t, p):
        kw = {} if pos is None else {"pos_weight": p.detach().to(getattr(lib, pos))}
        return lib.nn.functional.binary_cross_entropy_with_logits(x, t, **kw)
    arrays = [LOGITS.astype(x_dtype), SOFT.astype(t_dtype), POS]
    check_grads(fn, arrays, torch)


def test_the_step_by_step_dummy_logits_print_as_a_float32_loss(torch):
    import core
    for lib in (core, torch):
        logits = lib.tensor([np.log(.9 / .1), np.log(.2 / .8)])  # float64: NumPy floats
        loss = lib.nn.BCEWithLogitsLoss()(logits, lib.tensor([1.0, 0.0]))
        assert repr(loss) == "tensor(0.1643)"
