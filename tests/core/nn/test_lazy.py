"""Lazy modules against torch: placeholders, repr before and after, in-place materialisation, outputs."""

import numpy as np
import pytest

import core
from core import nn


def _load_from_torch(ours, theirs):
    ours.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})


def test_lazy_linear_prints_and_becomes_linear_as_in_torch(torch):
    ours, theirs = nn.LazyLinear(256), torch.nn.LazyLinear(256)
    assert repr(ours) == repr(theirs)
    assert repr(ours.weight) == repr(theirs.weight) == "<UninitializedParameter>"
    ours(core.rand(2, 20))
    theirs(torch.rand(2, 20))
    assert repr(ours) == repr(theirs)
    assert type(ours) is nn.Linear and type(ours.weight) is nn.Parameter
    assert tuple(ours.weight.shape) == (256, 20) and tuple(ours.bias.shape) == (256,)


def test_lazy_linear_draws_what_the_eager_linear_draws():
    core.manual_seed(3)
    lazy = nn.LazyLinear(4)
    lazy(core.zeros(1, 5))
    core.manual_seed(3)
    eager = nn.Linear(5, 4)
    assert core.equal(lazy.weight, eager.weight) and core.equal(lazy.bias, eager.bias)


def test_an_optimizer_built_before_the_first_call_trains_the_materialised_parameters():
    net = nn.Sequential(nn.LazyLinear(3), nn.Tanh(), nn.LazyLinear(1, bias=False))
    params = list(net.parameters())
    opt = core.optim.SGD(net.parameters(), lr=0.1)
    net(core.ones(2, 4)).sum().backward()
    before = net[0].weight.detach().clone()
    opt.step()
    assert [id(p) for p in net.parameters()] == [id(p) for p in params]
    assert not core.equal(before, net[0].weight)
    assert net[2].bias is None


def test_lazy_conv_and_batch_norm_stack_matches_torch_after_loading_its_weights(torch):
    def build(lib):
        return lib.nn.Sequential(lib.nn.LazyConv2d(6, kernel_size=5, padding=2), lib.nn.LazyBatchNorm2d(),
                                 lib.nn.Sigmoid(), lib.nn.Flatten(), lib.nn.LazyLinear(3), lib.nn.LazyBatchNorm1d())
    ours, theirs = build(core), build(torch)
    assert repr(ours) == repr(theirs)
    x = np.random.default_rng(0).standard_normal((4, 2, 8, 8)).astype(np.float32)
    ours(core.tensor(x))
    theirs(torch.tensor(x))
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    _load_from_torch(ours, theirs)
    out, expected = ours(core.tensor(x)), theirs(torch.tensor(x))
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name, shape", [("LazyConv1d", (2, 3, 9)), ("LazyConvTranspose1d", (2, 3, 9)),
                                         ("LazyConvTranspose2d", (2, 3, 5, 5)), ("LazyConv2d", (3, 5, 5))])
def test_lazy_convolutions_read_in_channels_from_batched_and_unbatched_input(torch, name, shape):
    ours = getattr(nn, name)(4, 3, stride=2)
    theirs = getattr(torch.nn, name)(4, 3, stride=2)
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    theirs(torch.tensor(x))
    ours(core.tensor(x))
    assert repr(ours) == repr(theirs)
    _load_from_torch(ours, theirs)
    np.testing.assert_allclose(ours(core.tensor(x)).detach().numpy(), theirs(torch.tensor(x)).detach().numpy(),
                               rtol=1e-5, atol=1e-6)


def test_lazy_conv_rejects_channels_not_divisible_by_groups(torch):
    with pytest.raises(ValueError, match="divisible by groups"):
        torch.nn.LazyConv2d(4, 3, groups=2)(torch.zeros(1, 3, 5, 5))
    with pytest.raises(ValueError, match="divisible by groups"):
        nn.LazyConv2d(4, 3, groups=2)(core.zeros(1, 3, 5, 5))


def test_lazy_batch_norm_without_affine_or_running_stats_keeps_them_none(torch):
    ours = nn.LazyBatchNorm1d(affine=False, track_running_stats=False)
    theirs = torch.nn.LazyBatchNorm1d(affine=False, track_running_stats=False)
    ours(core.ones(3, 4))
    theirs(torch.ones(3, 4))
    assert repr(ours) == repr(theirs)
    assert ours.weight is None and ours.running_mean is None


def _refusal(lib, call):
    """What ``call(placeholder weight)`` raises in ``lib``: type and message, addresses blanked."""
    import re

    try:
        call(lib, lib.nn.LazyLinear(3).weight)
    except Exception as exc:  # the error itself is compared
        return type(exc).__name__, re.sub("0x[0-9a-f]+", "0x?", str(exc))
    return "no error", ""


@pytest.mark.parametrize("name, args", [
    ("uniform_", ()), ("normal_", (0.0, 0.1)), ("constant_", (0.5,)), ("kaiming_uniform_", ()),
    ("trunc_normal_", ()), ("ones_", ()), ("zeros_", ()), ("eye_", ()), ("dirac_", ()), ("xavier_uniform_", ()),
    ("xavier_normal_", ()), ("kaiming_normal_", ()), ("orthogonal_", ()), ("sparse_", (0.5,))])
def test_nn_init_on_an_uninitialized_parameter_raises_torchs_error(torch, name, args):
    """skrl's model instantiators build LazyLinear layers and call ``nn.init.normal_`` on them before a forward:
    torch refuses (ValueError naming the function, or the first Tensor method it reaches); core initialised the
    empty placeholder and went on."""
    def call(lib, weight):
        return getattr(lib.nn.init, name)(weight, *args)

    assert _refusal(core, call) == _refusal(torch, call)


@pytest.mark.parametrize("method, args", [("dim", ()), ("ndimension", ()), ("numel", ()), ("nelement", ()),
                                          ("element_size", ()), ("fill_", (1.0,)), ("zero_", ()),
                                          ("normal_", ()), ("uniform_", ()), ("new_tensor", ([1.0],))])
def test_tensor_methods_on_an_uninitialized_parameter_raise_torchs_error(torch, method, args):
    def call(lib, weight):
        return getattr(weight, method)(*args)

    assert _refusal(core, call) == _refusal(torch, call)


def test_an_uninitialized_parameter_still_answers_size_as_torchs(torch):
    assert tuple(nn.LazyLinear(3).weight.size()) == tuple(torch.nn.LazyLinear(3).weight.size()) == (0,)
