"""``torch.autocast("cpu", dtype=torch.bfloat16)`` in core against torch: which ops run in bfloat16 (matmul,
linear, convolutions, attention), which in float32 (the losses) and which keep their inputs' dtype, the values
of the bfloat16 products, and a training step of a float32 model under autocast."""

from __future__ import annotations

import pytest

import core
from core.amp import _casting


def _inputs(lib):
    lib.manual_seed(0)
    return lib.randn(4, 8), lib.randn(3, 8), lib.randn(3)


OPS = {
    "linear": lambda lib, x, w, b: lib.nn.functional.linear(x, w, b),
    "matmul": lambda lib, x, w, b: x @ w.T,
    "mm": lambda lib, x, w, b: lib.mm(x, w.T),
    "bmm": lambda lib, x, w, b: lib.bmm(x[None], w.T[None]),
    "addmm": lambda lib, x, w, b: lib.addmm(b, x, w.T),
    "baddbmm": lambda lib, x, w, b: lib.baddbmm(lib.zeros(1, 4, 3), x[None], w.T[None]),
    "conv1d": lambda lib, x, w, b: lib.nn.functional.conv1d(x[None], w[:, :4, None].expand(3, 4, 2)),
    "softmax_of_a_product": lambda lib, x, w, b: (x @ w.T).softmax(-1),
    "log_softmax_of_a_product": lambda lib, x, w, b: (x @ w.T).log_softmax(-1),
    "softmax_of_float32": lambda lib, x, w, b: x.softmax(-1),
    "layer_norm_of_a_product": lambda lib, x, w, b: lib.nn.functional.layer_norm(x @ w.T, (3,)),
    "layer_norm_of_float32": lambda lib, x, w, b: lib.nn.functional.layer_norm(x, (8,)),
    "cross_entropy": lambda lib, x, w, b: lib.nn.functional.cross_entropy(x @ w.T, lib.tensor([0, 1, 2, 0])),
    "mse_loss": lambda lib, x, w, b: lib.nn.functional.mse_loss(x @ w.T, lib.zeros(4, 3)),
    "bce_with_logits": lambda lib, x, w, b: lib.nn.functional.binary_cross_entropy_with_logits(
        x @ w.T, lib.ones(4, 3)),
    "a_product_plus_float32": lambda lib, x, w, b: x @ w.T + b,
    "sum_of_a_product": lambda lib, x, w, b: (x @ w.T).sum(),
    "relu_of_a_product": lambda lib, x, w, b: (x @ w.T).relu(),
    "sdpa": lambda lib, x, w, b: lib.nn.functional.scaled_dot_product_attention(x[None], x[None], x[None]),
    "float64_matmul": lambda lib, x, w, b: x.double() @ w.double().T,
}


@pytest.mark.parametrize("name", list(OPS))
def test_each_op_under_cpu_autocast_returns_torchs_dtype(torch, name):
    dtypes = []
    for lib in (core, torch):
        x, w, b = _inputs(lib)
        with lib.autocast("cpu", dtype=lib.bfloat16):
            dtypes.append(repr(OPS[name](lib, x, w, b).dtype))
    assert dtypes[0] == dtypes[1]


@pytest.mark.parametrize("name", ["linear", "matmul", "addmm", "baddbmm", "cross_entropy", "mse_loss"])
def test_autocast_products_and_losses_equal_torchs_values(torch, name):
    outs = []
    for lib in (core, torch):
        x, w, b = _inputs(lib)
        with lib.autocast("cpu"):
            outs.append(repr(OPS[name](lib, x, w, b).detach()))
    assert outs[0] == outs[1]


def _step(lib):
    lib.manual_seed(3)
    model = lib.nn.Sequential(lib.nn.Linear(6, 5), lib.nn.ReLU(), lib.nn.Linear(5, 3))
    opt = lib.optim.SGD(model.parameters(), lr=0.1)
    x, y = lib.randn(8, 6), lib.tensor([0, 1, 2, 0, 1, 2, 0, 1])
    with lib.autocast(device_type="cpu", dtype=lib.bfloat16):
        out = model(x)
        loss = lib.nn.functional.cross_entropy(out, y)
    loss.backward()
    opt.step()
    return out, loss, model


def test_a_float32_model_trains_under_autocast_as_torchs_does(torch):
    (out, loss, model), (t_out, t_loss, t_model) = _step(core), _step(torch)
    assert (repr(out.dtype), repr(loss.dtype)) == (repr(t_out.dtype), repr(t_out.dtype).replace("bfloat16", "float32"))
    assert repr(loss) == repr(t_loss)
    for p, q in zip(model.parameters(), t_model.parameters()):
        assert repr(p.grad.dtype) == repr(q.grad.dtype) == "torch.float32"
        assert repr(p) == repr(q)


def test_autocast_state_queries_answer_as_torchs(torch):
    for lib in (core, torch):
        assert repr(lib.get_autocast_dtype("cpu")) == "torch.bfloat16"
        with lib.autocast("cpu", dtype=lib.float16):
            assert lib.is_autocast_enabled("cpu") and repr(lib.get_autocast_dtype("cpu")) == "torch.float16"
        assert not lib.is_autocast_enabled("cpu") and repr(lib.get_autocast_dtype("cpu")) == "torch.bfloat16"


def test_leaving_every_region_stops_the_per_op_casts():
    before = _casting.regions
    with core.autocast("cpu"):
        with core.autocast("cpu"):
            assert _casting.regions == before + 1  # one switch per thread: nesting keeps it on
        with core.autocast("cpu", enabled=False):
            assert _casting.regions == before
            x = core.ones(2, 2)
            assert (x @ x).dtype == core.float32
    assert _casting.regions == before
    x = core.ones(2, 2)
    assert (x @ x).dtype == core.float32
