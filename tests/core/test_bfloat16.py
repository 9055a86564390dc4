"""bfloat16 tensors against torch, element for element: creation (including the random factories, bit for bit
with torch's generator), conversion, ``item``/``tolist``/``numpy``, promotion with tensors and Python numbers,
save/load, and a small network's forward, gradients and optimizer steps in bfloat16."""

from __future__ import annotations

import io

import numpy as np
import pytest

import core

VALUES = [[0.1, -1.7, 2.3], [3.14159, 0.001, -250.5]]


def _same_repr(make, torch):
    """``make(lib)`` for core and torch, printed: equal text means equal values, dtype and grad_fn."""
    ours, theirs = make(core), make(torch)
    assert repr(ours) == repr(theirs)


CREATION = {
    "tensor": lambda lib: lib.tensor(VALUES, dtype=lib.bfloat16),
    "zeros": lambda lib: lib.zeros(2, 3, dtype=lib.bfloat16),
    "ones": lambda lib: lib.ones(2, dtype=lib.bfloat16),
    "full": lambda lib: lib.full((2,), 1.7, dtype=lib.bfloat16),
    "arange": lambda lib: lib.arange(0, 3, 0.3, dtype=lib.bfloat16),
    "linspace": lambda lib: lib.linspace(0, 1, 7, dtype=lib.bfloat16),
    "empty_shape": lambda lib: (lib.empty(2, 3, dtype=lib.bfloat16).shape, lib.empty(2, dtype=lib.bfloat16).dtype),
    "bfloat16_method": lambda lib: lib.tensor(VALUES).bfloat16(),
    "to": lambda lib: lib.tensor(VALUES).to(lib.bfloat16),
    "type": lambda lib: lib.tensor(VALUES).type(lib.bfloat16),
    "float_back": lambda lib: lib.tensor(VALUES, dtype=lib.bfloat16).float(),
    "long": lambda lib: lib.tensor(VALUES, dtype=lib.bfloat16).long(),
    "half": lambda lib: lib.tensor(VALUES, dtype=lib.bfloat16).half(),
    "item": lambda lib: lib.tensor(0.1, dtype=lib.bfloat16).item(),
    "tolist": lambda lib: lib.tensor(VALUES, dtype=lib.bfloat16).tolist(),
    "sizes": lambda lib: (lib.ones(3, dtype=lib.bfloat16).element_size(), lib.ones(3, dtype=lib.bfloat16).nbytes),
    "is_floating_point": lambda lib: lib.ones(1, dtype=lib.bfloat16).is_floating_point(),
    "requires_grad": lambda lib: lib.ones(2, dtype=lib.bfloat16, requires_grad=True),
    "zeros_like": lambda lib: lib.zeros_like(lib.tensor(VALUES, dtype=lib.bfloat16)),
    "type_name": lambda lib: lib.ones(1, dtype=lib.bfloat16).type(),
    "view_as_int16": lambda lib: lib.tensor(VALUES, dtype=lib.bfloat16).view(lib.int16),
}


@pytest.mark.parametrize("name", list(CREATION))
def test_bfloat16_creation_and_conversion_match_torch(torch, name):
    _same_repr(CREATION[name], torch)


def _seeded(make):
    def run(lib):
        lib.manual_seed(0)
        return make(lib), lib.rand(1)  # the draw after shows the generator was left where torch's is

    return run


RANDOM = {
    "rand": lambda lib: lib.rand(40, dtype=lib.bfloat16),
    "randn": lambda lib: lib.randn(4, 9, dtype=lib.bfloat16),
    "normal_": lambda lib: lib.empty(17, dtype=lib.bfloat16).normal_(1.0, 2.0),
    "uniform_": lambda lib: lib.empty(16, dtype=lib.bfloat16).uniform_(-2, 3),
    "randint": lambda lib: lib.randint(0, 100, (20,), dtype=lib.bfloat16),
    "randn_like": lambda lib: lib.randn_like(lib.ones(3, 7, dtype=lib.bfloat16)),
    "dropout": lambda lib: lib.nn.functional.dropout(lib.ones(20, dtype=lib.bfloat16), 0.5),
    "kaiming_uniform_": lambda lib: lib.nn.init.kaiming_uniform_(lib.empty(4, 5, dtype=lib.bfloat16)),
}


@pytest.mark.parametrize("name", list(RANDOM))
def test_bfloat16_random_factories_draw_torchs_numbers(torch, name):
    _same_repr(_seeded(RANDOM[name]), torch)


def test_numpy_refuses_bfloat16_with_torchs_type_error(torch):
    for lib in (core, torch):
        with pytest.raises(TypeError, match="Got unsupported ScalarType BFloat16"):
            lib.ones(2, dtype=lib.bfloat16).numpy()


def _x(lib):
    return lib.tensor(VALUES, dtype=lib.bfloat16)


PROMOTION = {
    "plus_float16": lambda lib: _x(lib) + lib.ones(3, dtype=lib.float16),
    "plus_float32": lambda lib: _x(lib) + lib.ones(3),
    "plus_int64": lambda lib: _x(lib) + lib.ones(3, dtype=lib.long),
    "plus_python_float": lambda lib: _x(lib) + 2.7,
    "python_float_plus": lambda lib: 2.7 + _x(lib),
    "times_python_int": lambda lib: _x(lib) * 3,
    "plus_0d_float32": lambda lib: _x(lib) + lib.tensor(2.7),
    "compare": lambda lib: _x(lib) > 0.5,
}


@pytest.mark.parametrize("name", list(PROMOTION))
def test_bfloat16_promotes_with_tensors_and_numbers_as_torch(torch, name):
    _same_repr(PROMOTION[name], torch)


# NOTE: each op below rounds once from float32 in both libraries, so the results are bit for bit torch's.
EXACT = {
    "add": lambda lib: _x(lib) + _x(lib),
    "div": lambda lib: _x(lib) / 3.0,
    "pow": lambda lib: _x(lib).abs() ** 1.5,
    "exp": lambda lib: _x(lib).exp(),
    "log": lambda lib: _x(lib).abs().log(),
    "tanh": lambda lib: _x(lib).tanh(),
    "sigmoid": lambda lib: _x(lib).sigmoid(),
    "gelu": lambda lib: lib.nn.functional.gelu(_x(lib)),
    "gelu_tanh": lambda lib: lib.nn.functional.gelu(_x(lib), approximate="tanh"),
    "silu": lambda lib: lib.nn.functional.silu(_x(lib)),
    "round": lambda lib: _x(lib).round(),
    "addcmul": lambda lib: lib.addcmul(_x(lib), _x(lib), _x(lib), value=0.5),
    "sum": lambda lib: _x(lib).sum(),
    "sum_dim": lambda lib: _x(lib).sum(0),
    "sum_to_float32": lambda lib: _x(lib).sum(dtype=lib.float32),
    "mean": lambda lib: _x(lib).mean(1),
    "var": lambda lib: _x(lib).var(),
    "norm": lambda lib: _x(lib).norm(),
    "matmul": lambda lib: _x(lib) @ _x(lib).T,
    "bmm": lambda lib: lib.bmm(_x(lib)[None], _x(lib).T[None]),
    "dot": lambda lib: lib.dot(_x(lib)[0], _x(lib)[1]),
    "linear": lambda lib: lib.nn.functional.linear(_x(lib), _x(lib), _x(lib)[0, :2]),
    "softmax": lambda lib: _x(lib).softmax(-1),
    "log_softmax": lambda lib: _x(lib).log_softmax(-1),
    "log_softmax_dim0": lambda lib: _x(lib).log_softmax(0),
    "layer_norm": lambda lib: lib.nn.functional.layer_norm(_x(lib), (3,), _x(lib)[0], _x(lib)[1]),
    "cross_entropy": lambda lib: lib.nn.functional.cross_entropy(_x(lib), lib.tensor([0, 2])),
    "mse_loss": lambda lib: lib.nn.functional.mse_loss(_x(lib), _x(lib) * 0.5),
    "conv2d": lambda lib: lib.nn.functional.conv2d(_x(lib)[None, None], _x(lib)[None, None, :, :2]),
    "index_and_cat": lambda lib: lib.cat([_x(lib)[:, [0, 2]], _x(lib)[:, :1]], 1),
    "masked_fill": lambda lib: _x(lib).masked_fill(_x(lib) > 0, -1e9),
    "where": lambda lib: lib.where(_x(lib) > 0, _x(lib), 0.0),
}


@pytest.mark.parametrize("name", list(EXACT))
def test_bfloat16_ops_equal_torchs_bit_for_bit(torch, name):
    _same_repr(EXACT[name], torch)


def _within_bfloat16_steps(ours, theirs, steps: int) -> bool:
    """Whether every element is within ``steps`` bfloat16 epsilons (2 ** -7) of the tensor's largest magnitude:
    a cancellation near zero leaves tiny elements many steps apart that are still as accurate."""
    a, b = (np.asarray(t.detach().float().tolist(), dtype=np.float64) for t in (ours, theirs))
    return bool(np.all(np.abs(a - b) <= steps * 2.0 ** -7 * np.abs(b).max()))


def test_bfloat16_log_softmax_of_random_rows_equals_torchs(torch):
    outs = []
    for lib in (core, torch):
        lib.manual_seed(0)
        outs.append((lib.randn(6, 40) * 3).bfloat16().log_softmax(-1))
    assert repr(outs[0]) == repr(outs[1])


def test_bfloat16_attention_is_within_one_bfloat16_step_of_torchs(torch):
    # NOTE: as torch's CPU flash kernel, core rounds the exponentials to bfloat16 before their product with V and
    # divides by the row sums after it; the kernel's blocked online softmax still differs in the last bit of ~2%
    outs = []
    for lib in (core, torch):
        lib.manual_seed(0)
        q, k, v = (lib.randn(2, 2, 30, 8, dtype=lib.bfloat16) for _ in range(3))
        outs.append(lib.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True))
    assert outs[0].dtype == core.bfloat16
    assert _within_bfloat16_steps(*outs, 1)
    same = np.asarray(outs[0].float().tolist()) == np.asarray(outs[1].float().tolist())
    assert same.mean() > 0.95


def _net(lib):
    lib.manual_seed(0)
    net = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.GELU(), lib.nn.LayerNorm(8), lib.nn.Linear(8, 3))
    net = net.to(lib.bfloat16)
    lib.manual_seed(1)
    return net, lib.randn(5, 4).to(lib.bfloat16), lib.tensor([0, 2, 1, 1, 0])


def test_a_bfloat16_network_forward_and_loss_equal_torchs(torch):
    def loss(lib):
        net, x, y = _net(lib)
        return lib.nn.functional.cross_entropy(net(x), y)

    _same_repr(loss, torch)


@pytest.mark.parametrize("optimizer", ["SGD", "Adam"])
def test_bfloat16_gradients_and_steps_stay_within_two_bfloat16_steps_of_torchs(torch, optimizer):
    # NOTE: the layer norm's backward differs from torch's bfloat16 kernel in the last bit for about half the
    # elements (torch keeps some of its partial sums in bfloat16); those differences then reach every earlier
    # gradient, so gradients and stepped weights are compared within two bfloat16 steps.
    results = []
    for lib in (core, torch):
        net, x, y = _net(lib)
        opt = getattr(lib.optim, optimizer)(net.parameters(), lr=0.01)
        lib.nn.functional.cross_entropy(net(x), y).backward()
        grads = [p.grad.clone() for p in net.parameters()]
        opt.step()
        results.append((grads, list(net.parameters())))
    for ours, theirs in zip(results[0][0] + results[0][1], results[1][0] + results[1][1]):
        assert ours.dtype == core.bfloat16 and repr(theirs.dtype) == "torch.bfloat16"
        assert _within_bfloat16_steps(ours, theirs, 2)


def test_a_bfloat16_state_dict_survives_save_and_load():
    net, _, _ = _net(core)
    buf = io.BytesIO()
    core.save(net.state_dict(), buf)
    buf.seek(0)
    loaded = core.load(buf)
    for name, value in net.state_dict().items():
        assert loaded[name].dtype == core.bfloat16
        assert repr(loaded[name]) == repr(value)


def test_low_precision_and_unsigned_tensors_survive_save_and_load():
    data = {"e4m3": core.tensor([1.5, 2.25], dtype=core.float8_e4m3fn),
            "u16": core.tensor([1, 7000], dtype=core.uint16), "e5m2": core.tensor([1.5, -3.0], dtype=core.float8_e5m2),
            "scalar": core.tensor(2.5, dtype=core.bfloat16)}
    buf = io.BytesIO()
    core.save(data, buf)
    buf.seek(0)
    assert {k: repr(v) for k, v in core.load(buf).items()} == {k: repr(v) for k, v in data.items()}


def test_assert_close_compares_bfloat16_tensors_and_reports_as_torch(torch):
    messages = []
    for lib in (core, torch):
        x = lib.tensor(VALUES, dtype=lib.bfloat16)
        lib.testing.assert_close(x, x.clone())
        with pytest.raises(AssertionError) as caught:
            lib.testing.assert_close(x, x * 1.1)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


OPTIMIZERS = [("SGD", {"lr": 0.1}), ("SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01}),
              ("Adam", {"lr": 0.01}), ("Adam", {"lr": 0.1, "weight_decay": 0.5, "amsgrad": True}),
              ("AdamW", {"lr": 0.1, "weight_decay": 0.5}), ("RMSprop", {"lr": 0.01, "momentum": 0.9}),
              ("RMSprop", {"lr": 0.01, "centered": True, "weight_decay": 0.1}),
              ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.01})]


@pytest.mark.parametrize("name, options", OPTIMIZERS)
def test_bfloat16_training_steps_equal_torchs_bit_for_bit(torch, name, options):
    def run(lib):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.GELU(), lib.nn.Linear(8, 3)).to(lib.bfloat16)
        lib.manual_seed(1)
        x, y = lib.randn(5, 4).to(lib.bfloat16), lib.tensor([0, 2, 1, 1, 0])
        opt = getattr(lib.optim, name)(net.parameters(), **options)
        losses = []
        for _ in range(3):
            opt.zero_grad()
            loss = lib.nn.functional.cross_entropy(net(x), y)
            loss.backward()
            opt.step()
            losses.append(loss)
        return repr(losses) + repr([p.grad for p in net.parameters()]) + repr(list(net.parameters()))

    assert run(core) == run(torch)


ADD_FORMS = {
    "add_alpha": lambda lib, p, g: p.clone().add_(g, alpha=-0.1),
    "sub_alpha": lambda lib, p, g: lib.sub(p, g, alpha=0.3),
    "times_number": lambda lib, p, g: p * 1.1,
    "over_number": lambda lib, p, g: p / 2.7,
    "cube": lambda lib, p, g: p ** 3,
    "inverse_square": lambda lib, p, g: p ** -2,
    "addcmul_": lambda lib, p, g: p.clone().addcmul_(g, g, value=-0.1),
    "addcdiv_": lambda lib, p, g: p.clone().addcdiv_(g, g.abs() + 1, value=-0.01),
    "lerp_": lambda lib, p, g: p.clone().lerp_(g, 0.1),
}


@pytest.mark.parametrize("n", [7, 40, 1000])
@pytest.mark.parametrize("name", list(ADD_FORMS))
def test_bfloat16_scalar_and_fused_forms_round_as_torchs_kernels(torch, name, n):
    # NOTE: add(alpha=) takes alpha as a bfloat16 and, in its vectorised loop's tail (n % 32), rounds alpha * y
    # first; mul/div keep a Python number in float32; x ** 3 and x ** -2 round x * x first
    def run(lib):
        lib.manual_seed(0)
        p, g = lib.randn(n).bfloat16(), lib.randn(n).bfloat16()
        return ADD_FORMS[name](lib, p, g).float().tolist()

    assert run(core) == run(torch)


@pytest.mark.parametrize("training", [True, False])
def test_bfloat16_batch_norm_of_images_equals_torchs(torch, training):
    # NOTE: training normalises with the batch mean and invstd kept in bfloat16, as PyTorch's kernel; the running
    # variance may still differ in its last bit, and 2-d (N, C) batches in ~20% of outputs (another kernel)
    def run(lib):
        lib.manual_seed(0)
        bn = lib.nn.BatchNorm2d(3).to(lib.bfloat16).train(training)
        if not training:
            bn.running_mean.normal_()
            bn.running_var.uniform_(0.5, 2)
        x = (lib.randn(4, 3, 5, 5) * 2 + 1).bfloat16().requires_grad_()
        y = bn(x)
        (y.float() * lib.linspace(-1, 1, y.numel()).reshape(y.shape)).sum().backward()
        return repr(y) + repr(x.grad) + repr(bn.weight.grad) + repr(bn.bias.grad) + repr(bn.running_mean.dtype)

    assert run(core) == run(torch)
