"""float32 ``log1p``, ``softplus`` and ``logsigmoid`` round as PyTorch 2.13's CPU kernels do, bit for bit.

``torch.log1p`` maps SLEEF's ``log1pf_u10`` over every element (its VML map pads a tail or a strided row into a
vector); softplus's kernel takes SLEEF's ``exp`` and ``log1p`` for two vectors at a time and glibc's ``expf`` and
``log1pf`` for the last ``n % 32`` elements; log_sigmoid's takes SLEEF's for all. SLEEF's log1p is not correctly
rounded (about 1 result in 15 is the other neighbour), so core's log1p rounded once from float64 differed from
torch's in the last bit of many elements, and so did every softplus (VAEs' and Step-by-Step's) and log-sigmoid.
"""

import numpy as np
import pytest

import core
from core._sleef import log1pf_u10

RNG = np.random.default_rng(11)
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, -1.0, -1.5, 1e38, 3e38, 1e-30, -0.999999, 20.0, 21.0],
                   dtype=np.float32)
VALUES = np.concatenate([SPECIAL, RNG.normal(0, 5, 4000), np.exp(RNG.uniform(-30, 10, 4000)),
                         RNG.uniform(-1, 0, 2000)]).astype(np.float32)


def _bits(x):
    return np.asarray(x).view(np.uint32)


def _same_bits(ours, theirs):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    nan = np.isnan(ours) & np.isnan(theirs) & (np.signbit(ours) == np.signbit(theirs))
    assert ((_bits(ours) == _bits(theirs)) | nan).all(), \
        f"{int((~((_bits(ours) == _bits(theirs)) | nan)).sum())} of {ours.size} elements differ"


def _calls(lib):
    F = lib.nn.functional
    return {
        "log1p": lib.log1p,
        "softplus": F.softplus,
        "softplus beta 2 threshold 5": lambda t: F.softplus(t, beta=2.0, threshold=5.0),
        "logsigmoid": F.logsigmoid,
        "Softplus module": lib.nn.Softplus(),
        "LogSigmoid module": lib.nn.LogSigmoid(),
    }


@pytest.mark.parametrize("size", [VALUES.size, 45, 7])
@pytest.mark.parametrize("name", list(_calls(core)))
def test_float32_results_equal_torchs_bit_for_bit(torch, one_thread, name, size):
    x = VALUES[:size]
    _same_bits(_calls(core)[name](core.tensor(x)).numpy(), _calls(torch)[name](torch.tensor(x)).numpy())


@pytest.mark.parametrize("name", list(_calls(core)))
def test_a_strided_input_rounds_as_torchs(torch, one_thread, name):
    x = VALUES[:4000].reshape(40, 100)
    ours = _calls(core)[name](core.tensor(x)[:, :37]).numpy()
    _same_bits(ours, _calls(torch)[name](torch.tensor(x)[:, :37]).numpy())


def test_log1pf_u10_is_torchs_vectorised_log1p(torch):
    _same_bits(log1pf_u10(VALUES), torch.log1p(torch.tensor(VALUES)).numpy())


def test_log1p_of_other_dtypes_still_matches(torch):
    for dtype in ("float64", "float16", "bfloat16"):
        x = VALUES[VALUES > -1][:500]
        ours = core.log1p(core.tensor(x).to(getattr(core, dtype))).double().numpy()
        theirs = torch.log1p(torch.tensor(x).to(getattr(torch, dtype))).double().numpy()
        np.testing.assert_allclose(ours, theirs, rtol=1e-15 if dtype == "float64" else 0)


# positive values in [2^-36, 1e38] without special values: core's shorter route (as a loss's log1p(exp(-|x|)))
PLAIN = np.concatenate([np.exp(RNG.uniform(-24.9, 87.5, 6000)), RNG.uniform(0, 1, 2000),
                        [2.0 ** -36, 1e38, 1.0, 0.5, 1.5]]).astype(np.float32)


@pytest.mark.parametrize("size", [PLAIN.size, 200, 33, 1])
def test_log1p_of_positive_values_without_special_ones_equals_torchs(torch, one_thread, size):
    x = PLAIN[-size:]
    _same_bits(core.log1p(core.tensor(x)).numpy(), torch.log1p(torch.tensor(x)).numpy())


def test_a_training_steps_logits_loss_equals_torchs(torch, one_thread):
    logits = RNG.normal(0, 3, (200, 1)).astype(np.float32)
    labels = (RNG.uniform(0, 1, (200, 1)) < 0.5).astype(np.float32)
    results = []
    for lib in (core, torch):
        x = lib.tensor(logits, requires_grad=True)
        loss = lib.nn.functional.binary_cross_entropy_with_logits(x, lib.tensor(labels))
        loss.backward()
        results.append((loss.detach().numpy(), x.grad.numpy()))
    _same_bits(results[0][0], results[1][0])
    _same_bits(results[0][1], results[1][1])


# positive values from 2^-125 up with some below 2^-36 (a confident logit's exp(-|x|)): the plain route, d itself there
TINY_AND_PLAIN = np.concatenate([np.exp(RNG.uniform(-86, -25, 500)), PLAIN[:1500],
                                 [2.0 ** -125, 2.0 ** -36, 1e-30]]).astype(np.float32)


@pytest.mark.parametrize("size", [TINY_AND_PLAIN.size, 200, 33])
def test_log1p_of_tiny_values_beside_plain_ones_equals_torchs(torch, one_thread, size):
    x = TINY_AND_PLAIN[-size:].copy()
    x[::5] = TINY_AND_PLAIN[: x[::5].size]
    _same_bits(core.log1p(core.tensor(x)).numpy(), torch.log1p(torch.tensor(x)).numpy())
    _same_bits(core.nn.functional.logsigmoid(core.tensor(-np.log(x))).numpy(),
               torch.nn.functional.logsigmoid(torch.tensor(-np.log(x))).numpy())
