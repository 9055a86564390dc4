"""``reduction='elementwise_mean'``, the name of ``'mean'`` before PyTorch 1.0, as PyTorch 2.13 takes it.

Tutorials of 2018 still pass it (``nn.CrossEntropyLoss(reduction='elementwise_mean')``). PyTorch's losses that read
the reduction through ``_Reduction.get_enum`` compute the mean and warn that the name is deprecated; the few that check
the name in Python themselves (``poisson_nll_loss``, ``gaussian_nll_loss``, ``multilabel_soft_margin_loss``,
``triplet_margin_with_distance_loss``) raise their ValueError."""

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, raised

DEPRECATED = "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead."
RNG = np.random.default_rng(0)
X = RNG.uniform(0.1, 0.9, (4, 3)).astype(np.float32)
Y = (RNG.uniform(size=(4, 3)) > 0.5).astype(np.float32)
C = np.array([1, 0, 2, 1])
SIGNS = np.array([1.0, -1.0, 1.0, -1.0], dtype=np.float32)


def _losses(lib):
    F, t = lib.nn.functional, lib.tensor
    x, y, c, s = t(X), t(Y), t(C), t(SIGNS)
    return {
        "l1_loss": lambda r: F.l1_loss(x, y, reduction=r),
        "mse_loss": lambda r: F.mse_loss(x, y, reduction=r),
        "smooth_l1_loss": lambda r: F.smooth_l1_loss(x, y, reduction=r),
        "huber_loss": lambda r: F.huber_loss(x, y, reduction=r),
        "cross_entropy": lambda r: F.cross_entropy(x, c, reduction=r),
        "nll_loss": lambda r: F.nll_loss(x, c, reduction=r),
        "binary_cross_entropy": lambda r: F.binary_cross_entropy(x, y, reduction=r),
        "binary_cross_entropy_with_logits": lambda r: F.binary_cross_entropy_with_logits(x, y, reduction=r),
        "kl_div": lambda r: F.kl_div(x, y, reduction=r),
        "soft_margin_loss": lambda r: F.soft_margin_loss(x, y * 2 - 1, reduction=r),
        "multilabel_margin_loss": lambda r: F.multilabel_margin_loss(x, t([[1, -1, 0]] * 4), reduction=r),
        "multi_margin_loss": lambda r: F.multi_margin_loss(x, c, reduction=r),
        "hinge_embedding_loss": lambda r: F.hinge_embedding_loss(x, y * 2 - 1, reduction=r),
        "margin_ranking_loss": lambda r: F.margin_ranking_loss(x[:, 0], x[:, 1], s, reduction=r),
        "cosine_embedding_loss": lambda r: F.cosine_embedding_loss(x, y + 0.1, s, reduction=r),
        "triplet_margin_loss": lambda r: F.triplet_margin_loss(x, y, x + 1, reduction=r),
        "ctc_loss": lambda r: F.ctc_loss(t(X[:, :1].repeat(3, 1)).log_softmax(1).reshape(4, 1, 3), t([[1, 2]]),
                                         t([4]), t([2]), reduction=r),
        "CrossEntropyLoss": lambda r: lib.nn.CrossEntropyLoss(reduction=r)(x, c),
        "MSELoss": lambda r: lib.nn.MSELoss(reduction=r)(x, y),
        "BCELoss": lambda r: lib.nn.BCELoss(reduction=r)(x, y),
        "NLLLoss": lambda r: lib.nn.NLLLoss(reduction=r)(x, c),
    }


def _with_warnings(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn()
    return out, [str(w.message) for w in caught if issubclass(w.category, UserWarning) and "elementwise" in
                 str(w.message)]


@pytest.mark.parametrize("name", list(_losses(core)))
def test_elementwise_mean_is_the_mean_with_torchs_deprecation_warning(torch, name):
    ours, our_warnings = _with_warnings(lambda: _losses(core)[name]("elementwise_mean"))
    theirs, their_warnings = _with_warnings(lambda: _losses(torch)[name]("elementwise_mean"))
    assert_same(ours, theirs)
    assert our_warnings == their_warnings == [DEPRECATED]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # kl_div's 'mean' warns that it is not 'batchmean'
        assert_same(ours, _losses(core)[name]("mean"))


def _refusing(lib):
    F, t = lib.nn.functional, lib.tensor
    x, y = t(X), t(Y)
    return {
        "poisson_nll_loss": lambda r: F.poisson_nll_loss(x, y, reduction=r),
        "gaussian_nll_loss": lambda r: F.gaussian_nll_loss(x, y, lib.ones(4, 3), reduction=r),
        "multilabel_soft_margin_loss": lambda r: F.multilabel_soft_margin_loss(x, y, reduction=r),
        "triplet_margin_with_distance_loss": lambda r: F.triplet_margin_with_distance_loss(x, y, x + 1, reduction=r),
    }


@pytest.mark.parametrize("reduction", ["elementwise_mean", "average"])
@pytest.mark.parametrize("name", list(_refusing(core)))
def test_losses_that_check_the_name_in_python_refuse_it_as_torch_does(torch, name, reduction):
    ours = raised(lambda: _refusing(core)[name](reduction))
    assert ours is not None and ours == raised(lambda: _refusing(torch)[name](reduction))


@pytest.mark.parametrize("name", ["multi_margin_loss", "multilabel_soft_margin_loss"])
@pytest.mark.parametrize("flags", [{"size_average": False}, {"reduce": False}])
def test_legacy_size_average_and_reduce_flags_choose_the_reduction(torch, name, flags):
    def run(lib):
        F, t = lib.nn.functional, lib.tensor
        fn = F.multi_margin_loss if name == "multi_margin_loss" else F.multilabel_soft_margin_loss
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(t(X), t(C) if name == "multi_margin_loss" else t(Y), **flags)
    assert_same(run(core), run(torch))
