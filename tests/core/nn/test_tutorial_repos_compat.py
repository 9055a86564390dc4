"""Behaviour that small tutorial repositories (nlp-tutorial, PyTorchZeroToAll, Machine-Learning-Collection) rely on,
checked against PyTorch: what they print, and the errors old code meets."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import raised


@pytest.mark.parametrize("loss", ["cross_entropy", "nll_loss"])
@pytest.mark.parametrize("shape", [(1, 5), (3, 5), (2, 3, 4)])
def test_a_0d_target_for_a_batch_reports_torchs_batch_size_message(torch, loss, shape):
    # char-RNN code passes target[c] (0-d) for a [1, C] output: torch names the target's batch size 0
    messages = []
    for lib in (torch, core):
        with pytest.raises(ValueError) as info:
            getattr(lib.nn.functional, loss)(lib.zeros(*shape), lib.tensor(1))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


_NOT_TENSORS = [1, 2.5, [1.0, 2.0]]



@pytest.mark.parametrize("value", _NOT_TENSORS)
@pytest.mark.parametrize("call", ["nn.functional.softmax(x, dim=1)", "nn.functional.log_softmax(x, dim=0)",
                                  "nn.functional.softmin(x, dim=0)", "nn.functional.softmax(x)",
                                  "nn.Softmax(dim=1)(x)", "softmax(x, 1)", "log_softmax(x, 0)"])
def test_softmax_of_a_non_tensor_fails_as_in_torch(torch, value, call):
    # aladdinpersson's ResNet ends with self.softmax(1): torch's functional form calls input.softmax (AttributeError),
    # torch.softmax checks its argument (TypeError)
    got = [raised(lambda lib=lib: eval("lib." + call, {"lib": lib, "x": value})) for lib in (torch, core)]
    assert got[0] is not None
    assert got[0] == got[1]


def test_functional_softmax_keeps_dtype_and_implicit_dim(torch):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for lib in (torch, core):
        with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
            lib.nn.functional.softmax(lib.tensor(x))
    ours = core.nn.functional.log_softmax(core.tensor(x), dim=1, dtype=core.float64)
    theirs = torch.nn.functional.log_softmax(torch.tensor(x), dim=1, dtype=torch.float64)
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12)
    np.testing.assert_allclose(core.nn.functional.softmin(core.tensor(x), dim=0).numpy(),
                               torch.nn.functional.softmin(torch.tensor(x), dim=0).numpy(), rtol=1e-6)


_EINSUMS = [("ij,jk->ik", [(2, 3), (3, 4)]), ("i,i->", [(3,), (3,)]), ("nqhd,nkhd->nhqk", [(2, 3, 2, 4), (2, 5, 2, 4)]),
            ("nhql,nlhd->nqhd", [(2, 2, 3, 5), (2, 5, 2, 4)]), ("ij->ji", [(2, 3)]), ("ii->i", [(3, 3)]),
            ("ij->", [(2, 3)]), ("ii", [(3, 3)]), ("i,j->ij", [(2,), (3,)]), ("ij,ij->ij", [(2, 3), (2, 3)]),
            ("ij,ij->i", [(2, 3), (2, 3)]), ("ij,k->i", [(2, 3), (4,)]), ("i,j,k->ijk", [(2,), (3,), (4,)]),
            ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("...ij,...jk->...ik", [(2, 2, 3), (2, 3, 4)])]


@pytest.mark.parametrize("equation, shapes", _EINSUMS, ids=[e for e, _ in _EINSUMS])
def test_einsum_results_print_the_grad_fn_torch_lowers_to(torch, equation, shapes):
    # attention written with einsum (a transformer from scratch) prints grad_fn=<ViewBackward0> in torch
    arrays = [np.random.default_rng(0).standard_normal(s).astype(np.float32) for s in shapes]
    names = []
    for lib in (torch, core):
        out = lib.einsum(equation, *[lib.tensor(a, requires_grad=True) for a in arrays])
        names.append(out.grad_fn.name())
    assert names[0] == names[1]


@pytest.mark.parametrize("fn, shape, size", [("adaptive_avg_pool2d", (2, 8, 5, 7), 1),
                                             ("adaptive_avg_pool2d", (3, 5, 7), (1, 1)),
                                             ("adaptive_avg_pool2d", (2, 3, 1, 7), (None, 1)),
                                             ("adaptive_avg_pool3d", (1, 2, 3, 4, 5), 1)])
def test_global_average_pooling_is_torchs_mean(torch, fn, shape, size):
    # ResNet/EfficientNet heads (AdaptiveAvgPool2d(1)) print grad_fn=<MeanBackward1> and sum in mean's order
    a = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    outs = [getattr(lib.nn.functional, fn)(lib.tensor(a, requires_grad=True), size) for lib in (torch, core)]
    assert outs[0].grad_fn.name() == outs[1].grad_fn.name() == "MeanBackward1"
    np.testing.assert_array_equal(outs[1].detach().numpy(), outs[0].detach().numpy())
    for out in outs:
        out.sum().backward()


def test_rrelu_training_draws_torchs_slopes_and_gradients(torch):
    values = [[-1.0, 2.0, 0.0], [-3.0, -0.5, 4.0]]
    got = []
    for lib in (torch, core):
        lib.manual_seed(0)
        x = lib.tensor(values, requires_grad=True)
        y = lib.nn.functional.rrelu(x, training=True)
        y.sum().backward()
        slope = lib.nn.RReLU(0.1, 0.3)(lib.tensor([-1.0, -2.0], dtype=lib.float64))
        got.append((y.detach().numpy(), x.grad.numpy(), y.grad_fn.name(), slope.numpy(), lib.rand(2).numpy()))
    for theirs, ours in zip(*got):
        if isinstance(theirs, str):
            assert ours == theirs
        else:
            np.testing.assert_array_equal(ours, theirs)


class _Half:
    def __init__(self):
        self.k = 0.5

    def __call__(self, x):
        return self.k


@pytest.mark.parametrize("scale_fn", [None, lambda x: 1.0, _Half()], ids=["none", "lambda", "callable"])
def test_cyclic_lr_state_dict_keeps_the_custom_scale_fn_as_torch_does(torch, scale_fn):
    got = []
    for lib in (torch, core):
        opt = lib.optim.SGD(lib.nn.Linear(2, 2).parameters(), lr=0.1, momentum=0.9)
        sched = lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, step_size_up=2, scale_fn=scale_fn)
        for _ in range(3):
            opt.step()
            sched.step()
        state = sched.state_dict()
        again = lib.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, step_size_up=2, scale_fn=scale_fn)
        again.load_state_dict(state)
        opt.step()
        again.step()
        got.append((list(state.items()), again.get_last_lr()))
    assert got[0] == got[1]


def _hooked_call(lib):
    """A Linear with forward, forward-pre and full backward hooks; what each hook saw and the module returned."""
    seen = []
    m = lib.nn.Linear(2, 1)
    with lib.no_grad():
        m.weight.fill_(1.0)
        m.bias.zero_()
    m.register_forward_pre_hook(lambda mod, args: seen.append(("pre", args[0].grad_fn is None)))
    m.register_forward_hook(lambda mod, args, out: seen.append(("fwd", out.grad_fn.name())) or out * 3)
    m.register_full_backward_hook(lambda mod, gi, go: seen.append(("bwd", gi[0].tolist(), go[0].tolist())))
    x = lib.ones(1, 2, requires_grad=True)
    out = m(x)
    seen.append(("out", out.grad_fn.name(), out.tolist()))
    out.sum().backward()
    seen.append(("x.grad", x.grad.tolist()))
    return seen


def test_forward_hooks_see_the_raw_output_before_backward_hooks_wrap_it(torch):
    # PyTorch hooks the outputs for full backward hooks after the forward hooks ran (and on what they return)
    assert _hooked_call(core) == _hooked_call(torch)


_KERNELS = [("mish", {}, "MishBackward0"), ("hardswish", {}, "HardswishBackward0"),
            ("hardsigmoid", {}, "HardsigmoidBackward0"), ("logsigmoid", {}, "LogSigmoidBackward0"),
            ("glu", {"dim": 1}, "GluBackward0"), ("celu", {"alpha": 0.7}, "CeluBackward0"),
            ("softshrink", {"lambd": 0.3}, "SoftshrinkBackward0"),
            ("hardshrink", {"lambd": 0.3}, "HardshrinkBackward0")]


@pytest.mark.parametrize("name, kw, node", _KERNELS, ids=[k[0] for k in _KERNELS])
def test_one_kernel_activations_match_torchs_values_gradients_and_node(torch, name, kw, node):
    # an activations tutorial prints nn.Mish()(x) with grad_fn=<MishBackward0>; values as torch's kernel rounds them
    a = (np.random.default_rng(2).standard_normal((64, 6)) * 4).astype(np.float32)
    a[0, :4] = [-3.0, 3.0, 0.3, -0.3]  # the piecewise functions' edges
    results = []
    for lib in (torch, core):
        x = lib.tensor(a, requires_grad=True)
        y = getattr(lib.nn.functional, name)(x, **kw)
        (g,) = lib.autograd.grad((y * y).sum(), x, create_graph=name != "hardsigmoid")  # (torch has no 2nd)
        gg = lib.autograd.grad(g.sum(), x, allow_unused=True, materialize_grads=True)[0] if g.requires_grad else g
        results.append((y.grad_fn.name(), y.detach().numpy(), g.detach().numpy(), gg.detach().numpy()))
    (tn, ty, tg, tgg), (cn, cy, cg, cgg) = results
    assert cn == tn == node
    if name in ("mish", "logsigmoid"):  # exp, log1p, tanh rounded once each; torch's SLEEF ones differ by an ulp
        np.testing.assert_allclose(cy, ty, rtol=3e-7, atol=1e-7)
    else:
        np.testing.assert_array_equal(cy, ty)
    np.testing.assert_allclose(cg, tg, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(cgg, tgg, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", ["mish", "hardswish", "hardsigmoid"])
def test_one_kernel_activations_work_in_place_as_torchs(torch, name):
    a = np.linspace(-5, 5, 11, dtype=np.float32)
    outs = []
    for lib in (torch, core):
        x = lib.tensor(a)
        y = getattr(lib.nn.functional, name)(x, inplace=True)
        outs.append((y is x, x.numpy().copy()))
    assert outs[0][0] and outs[1][0]
    np.testing.assert_allclose(outs[1][1], outs[0][1], rtol=3e-7)


@pytest.mark.parametrize("shape, weight", [((2, 3, 4, 4), [0.1, 0.2, 0.3]), ((5, 3), [0.25]), ((6,), [0.3]),
                                           ((2, 3, 5), [0.1, -0.2, 0.5])])
def test_prelu_is_torchs_kernel_with_its_gradients(torch, shape, weight):
    # SRGAN's PReLU(num_parameters=C) layers print grad_fn=<PreluKernelBackward0> in torch
    a = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    got = []
    for lib in (torch, core):
        x = lib.tensor(a, requires_grad=True)
        w = lib.tensor(weight, requires_grad=True)
        y = lib.nn.functional.prelu(x, w)
        (y * y).sum().backward()
        got.append((y.grad_fn.name(), y.detach().numpy(), x.grad.numpy(), w.grad.numpy()))
    assert got[0][0] == got[1][0] == "PreluKernelBackward0"
    np.testing.assert_array_equal(got[1][1], got[0][1])
    np.testing.assert_allclose(got[1][2], got[0][2], rtol=1e-6)
    np.testing.assert_allclose(got[1][3], got[0][3], rtol=1e-5)


def test_prelu_of_a_1d_input_takes_one_channel_as_torch(torch):
    messages = []
    for lib in (torch, core):
        with pytest.raises(RuntimeError) as info:
            lib.nn.functional.prelu(lib.ones(3), lib.tensor([0.1, 0.2, 0.3]))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_pixel_shuffle_and_unshuffle_are_torchs_primitives(torch):
    a = np.random.default_rng(4).standard_normal((2, 8, 3, 5)).astype(np.float32)
    got = []
    for lib in (torch, core):
        x = lib.tensor(a, requires_grad=True)
        y = lib.nn.PixelShuffle(2)(x)
        z = lib.nn.functional.pixel_unshuffle(y * y, 2)
        z.sum().backward()
        got.append((y.grad_fn.name(), z.grad_fn.name(), y.detach().numpy(), z.detach().numpy(), x.grad.numpy()))
    assert got[0][:2] == got[1][:2] == ("PixelShuffleBackward0", "PixelUnshuffleBackward0")
    for theirs, ours in zip(got[0][2:], got[1][2:]):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("name", ["i0", "i0e", "i1", "i1e"])
def test_bessel_functions_name_their_nodes_as_torch(torch, name):
    nodes = [getattr(lib.special, name)(lib.ones(2, requires_grad=True)).grad_fn.name() for lib in (torch, core)]
    assert nodes[0] == nodes[1]


def test_instance_norm_is_torchs_batch_norm_route_bit_for_bit(torch):
    # CycleGAN's InstanceNorm2d: values, running statistics and the ViewBackward0 node as torch's
    a = (np.random.default_rng(5).standard_normal((2, 3, 7, 9)) * 3 + 1).astype(np.float32)
    got = []
    for lib in (torch, core):
        lib.manual_seed(0)
        m = lib.nn.InstanceNorm2d(3, affine=True, track_running_stats=True)
        y = m(lib.tensor(a, requires_grad=True))
        m.eval()
        got.append((y.grad_fn.name(), y.detach().numpy(), m.running_mean.numpy(), m.running_var.numpy(),
                    m(lib.tensor(a)).detach().numpy()))
    assert got[0][0] == got[1][0] == "ViewBackward0"
    for theirs, ours in zip(got[0][1:], got[1][1:]):
        np.testing.assert_array_equal(ours, theirs)


def test_instance_norm_over_one_spatial_element_is_refused_as_in_torch(torch):
    messages = []
    for lib in (torch, core):
        with pytest.raises(ValueError) as info:
            lib.nn.functional.instance_norm(lib.ones(4, 2, 1))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_cross_entropy_with_class_probabilities_prints_as_torch(torch, smoothing):
    # mixup / soft-label code prints its loss: tensor(2.1192, grad_fn=<DivBackward1>) in torch
    a = np.random.default_rng(0).standard_normal((5, 7)).astype(np.float32)
    t = np.random.default_rng(1).random((5, 7)).astype(np.float32)
    t /= t.sum(1, keepdims=True)
    got = []
    for lib in (torch, core):
        x = lib.tensor(a, requires_grad=True)
        loss = lib.nn.functional.cross_entropy(x, lib.tensor(t), label_smoothing=smoothing)
        loss.backward()
        got.append((str(loss), x.grad.numpy()))
    assert got[0][0] == got[1][0]
    np.testing.assert_allclose(got[1][1], got[0][1], rtol=1e-6)


@pytest.mark.parametrize("p", [2.0, 1.0])
def test_pairwise_distance_prints_torchs_norm_node(torch, p):
    # a Siamese network prints its distances: tensor([...], grad_fn=<NormBackward1>)
    a = np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32)
    b = np.random.default_rng(1).standard_normal((4, 5)).astype(np.float32)
    got = []
    for lib in (torch, core):
        x = lib.tensor(a, requires_grad=True)
        d = lib.nn.PairwiseDistance(p=p)(x, lib.tensor(b))
        d.sum().backward()
        got.append((str(d), x.grad.numpy()))
    assert got[0][0] == got[1][0]
    np.testing.assert_allclose(got[1][1], got[0][1], rtol=1e-6)


_ACCELERATOR_CALLS = ["empty_cache", "memory_allocated", "max_memory_allocated", "memory_reserved", "memory_stats",
                      "reset_peak_memory_stats", "current_stream", "get_memory_info", "get_device_capability",
                      "empty_host_cache", "current_device_index"]


@pytest.mark.skipif(core.cuda.is_available(), reason="checks the answers of a machine without an accelerator")
@pytest.mark.parametrize("name", _ACCELERATOR_CALLS)
def test_accelerator_queries_without_a_device_fail_as_torchs(torch, name):
    # PyTorch 2.6+ examples call torch.accelerator.* (pytorch/examples' device setup)
    got = []
    for lib in (torch, core):
        with pytest.raises(RuntimeError) as info:
            getattr(lib.accelerator, name)()
        got.append(str(info.value))
    assert got[0] == got[1] == "Cannot access accelerator device when none is available."


@pytest.mark.skipif(core.cuda.is_available(), reason="checks the answers of a machine without an accelerator")
def test_accelerator_device_index_switches_only_for_an_index(torch):
    for lib in (torch, core):
        with lib.accelerator.device_index(None):
            pass
        with pytest.raises(RuntimeError, match="none is available"):
            with lib.accelerator.device_index(0):
                pass
        with pytest.raises(RuntimeError, match="none is available"):
            lib.accelerator.set_device_index(0)
    with pytest.warns(FutureWarning, match="Use `set_device_index` instead"), pytest.raises(RuntimeError):
        core.accelerator.set_device_idx(0)


def test_torch_c_generator_is_the_generator_class(torch):
    assert torch._C.Generator is torch.Generator
    assert core._C.Generator is core.Generator
    assert isinstance(core.Generator().manual_seed(1), core._C.Generator)


@pytest.mark.parametrize("label", ["scalar", "array", "nested"])
def test_checkpoints_holding_numpy_objects_load_as_in_torch(torch, tmp_path, label):
    # torch.save({'best_acc': np.float64(...)}) then torch.load(path): refused since PyTorch 2.6 (weights_only)
    def make(lib):
        return {"scalar": {"best_acc": np.float64(0.5)}, "array": {"losses": np.arange(3.0)},
                "nested": [1, {"t": lib.ones(2), "n": np.int64(3)}]}[label]

    got = []
    for lib in (torch, core):
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save(make(lib), path)
        with pytest.raises(Exception) as info:
            lib.load(path)
        full = lib.load(path, weights_only=False)
        got.append((type(info.value).__name__, str(info.value), repr(full).replace("core.", "torch.")))
    assert got[1] == got[0]


def test_a_numpy_checkpoint_loads_when_its_globals_are_allowed_as_in_torch(torch, tmp_path):
    scalar = np.float64(0).__reduce__()[0]
    got = []
    for lib in (torch, core):
        lib.save({"acc": np.float64(0.25)}, tmp_path / f"{lib.__name__}.pt")
        with pytest.raises(Exception) as info, lib.serialization.safe_globals([scalar]):
            lib.load(tmp_path / f"{lib.__name__}.pt")  # NumPy's dtype is a global of its own
        with lib.serialization.safe_globals([scalar, np.dtype, type(np.dtype(np.float64))]):
            loaded = lib.load(tmp_path / f"{lib.__name__}.pt")
        got.append((type(info.value).__name__, str(info.value), loaded, type(loaded["acc"])))
    assert got[1] == got[0] and got[0][2] == {"acc": 0.25} and got[0][3] is np.float64


def test_linear_algebra_results_are_instances_of_torchs_return_types(torch):
    # code checks isinstance(torch.linalg.eig(A), torch.return_types.linalg_eig)
    got = []
    for lib in (torch, core):
        a = lib.tensor([[2.0, 1.0], [1.0, 2.0]])
        got.append([isinstance(lib.linalg.eig(a), lib.return_types.linalg_eig),
                    isinstance(lib.linalg.eigh(a), lib.return_types.linalg_eigh),
                    isinstance(lib.linalg.qr(a), lib.return_types.linalg_qr),
                    isinstance(lib.linalg.svd(a), lib.return_types.linalg_svd),
                    isinstance(lib.svd(a), lib.return_types.svd), isinstance(lib.linalg.svd(a), lib.return_types.svd)])
    assert got[1] == got[0] == [True, True, True, True, True, False]
