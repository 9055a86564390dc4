"""``F.binary_cross_entropy`` of float32 inputs over 4,096 elements (a VAE's reconstruction loss on (128, 784)
sigmoid outputs) bit for bit as PyTorch computes it: its scalar kernel's glibc ``logf``/``log1pf`` (NumPy ports,
``core._glibc_logf``), then the reduction split among the threads as ATen's two-pass sum does."""

import numpy as np
import pytest

import core
from core import _glibc, _glibc_logf

pytestmark = pytest.mark.skipif(not _glibc_logf.available(), reason="the C library is not glibc's logf/log1pf: "
                                "core keeps the logs rounded once from float64 above 4096 elements")


def _sigmoid_outputs(shape, seed):
    rng = np.random.default_rng(seed)
    x = (1 / (1 + np.exp(-3 * rng.standard_normal(shape)))).astype(np.float32)
    x.flat[:4] = [0, 1, 1e-30, 1 - 2 ** -24]  # the clamp at -100 and log1p(-1)
    return x, rng.random(shape).astype(np.float32)


@pytest.mark.parametrize("shape", [(128, 784), (64, 4097), (4097,), (256, 784)], ids=str)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True], ids=["", "weight"])
def test_a_large_float32_bce_and_its_gradient_match_torch_bitwise(torch, shape, reduction, weighted):
    x, t = _sigmoid_outputs(shape, len(shape) + shape[-1])
    w = np.random.default_rng(1).random(shape[-1:]).astype(np.float32) if weighted else None
    results = []
    for lib in (core, torch):
        xi = lib.tensor(x, requires_grad=True)
        loss = lib.nn.functional.binary_cross_entropy(xi, lib.tensor(t), None if w is None else lib.tensor(w),
                                                      reduction=reduction)
        (loss.sum() if reduction == "none" else loss).backward()
        results.append((loss.detach().numpy(), xi.grad.numpy()))
    for c, tt in zip(*results, strict=True):
        assert c.dtype == tt.dtype and c.shape == tt.shape
        assert c.tobytes() == tt.tobytes()


def test_bce_of_a_transposed_input_matches_torch_bitwise(torch):
    x, t = _sigmoid_outputs((784, 128), 5)
    c = core.nn.functional.binary_cross_entropy(core.tensor(x).T, core.tensor(t).T, reduction="none")
    tt = torch.nn.functional.binary_cross_entropy(torch.tensor(x).T, torch.tensor(t).T, reduction="none")
    assert c.numpy().tobytes() == tt.numpy().tobytes() and c.stride() == tt.stride()


@pytest.mark.parametrize("seed", range(3))
def test_the_log_ports_give_the_c_librarys_bits(seed):
    rng = np.random.default_rng(seed)
    x = np.concatenate([rng.random(20000, np.float32), np.exp(rng.uniform(-87, 88, 5000)).astype(np.float32),
                        np.array([0, -0.0, 1, -1, np.inf, -np.inf, np.nan, 1e-45, 1e-40, 5.9604645e-08], np.float32)])
    for port, c_library, values in ((_glibc_logf.logf, _glibc.logf, np.abs(x)), (_glibc_logf.log1pf, _glibc.log1pf, -x),
                                    (_glibc_logf.log1pf, _glibc.log1pf, x)):
        with np.errstate(all="ignore"):
            assert port(values).view(np.uint32).tolist() == c_library(values).view(np.uint32).tolist()
