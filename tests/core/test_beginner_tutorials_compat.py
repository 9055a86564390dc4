"""What pytorch/tutorials' beginner path (Learn the Basics, the 60-minute blitz, the examples) needed from core.

Each test checks one behaviour those tutorials rely on against PyTorch itself (the ``torch`` fixture), so the
behaviour stays right without the corpus text (tests/external), which is not in the repository.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_error, check_grads


@pytest.mark.parametrize("inplace", [True, False])
def test_scatter_takes_a_zero_dim_index_as_one_element(torch, inplace):
    # the Transforms tutorial's one-hot label: zeros(10).scatter_(0, torch.tensor(y), value=1)
    def fn(lib, label):
        z = lib.zeros(10)
        return z.scatter_(0, label, value=1) if inplace else z.scatter(dim=0, index=label, value=1)

    check(fn, [np.array(3)], torch)


def test_scatter_and_scatter_add_take_a_zero_dim_index_and_source(torch):
    check(lambda lib, i, s: lib.zeros(5).scatter(0, i, s), [np.array(3), np.array(7.0, np.float32)], torch)
    check(lambda lib, i, s: lib.ones(5).scatter_add(0, i, s), [np.array(4), np.array(2.0, np.float32)], torch)


def test_gather_with_a_zero_dim_index_gives_a_zero_dim_result_and_its_gradient(torch):
    check(lambda lib, x, i: lib.gather(x, 0, i), [np.arange(5.0, dtype=np.float32), np.array(2)], torch)
    check_grads(lambda lib, x: lib.gather(x, 0, lib.tensor(2)), [np.arange(5.0, dtype=np.float32)], torch)


def test_scatter_refuses_an_index_of_other_rank_naming_self_and_gather_naming_input(torch):
    check_error(lambda lib, x: x.scatter_(1, lib.tensor(1), value=1), [np.zeros((2, 3), np.float32)], torch,
                match="same number of dimensions as self tensor")
    check_error(lambda lib, x: x.scatter_add(1, lib.tensor([1]), lib.ones(1)), [np.zeros((2, 3), np.float32)],
                torch, match="same number of dimensions as self tensor")
    check_error(lambda lib, x: lib.gather(x, 1, lib.tensor(1)), [np.zeros((2, 3), np.float32)], torch,
                match="same number of dimensions as input tensor")


def _edge_names(node):
    """The class names ``print(node)`` shows (torch's ``AccumulateGrad.name()`` has a C++ namespace; core's not)."""
    return [None if fn is None else type(fn).__name__ for fn, _ in node.next_functions]


@pytest.mark.parametrize("bias", [True, False])
def test_linear_node_lists_its_edges_in_torchs_order(torch, bias):
    # the 60-minute blitz walks loss.grad_fn.next_functions[0][0].next_functions[0][0]: the bias's AccumulateGrad;
    # the weight comes last, through weight.t()'s TBackward0
    names = []
    for lib in (core, torch):
        lib.manual_seed(0)
        layer = lib.nn.Linear(3, 2, bias=bias)
        x = lib.randn(4, 3, requires_grad=True)
        names.append(_edge_names(layer(lib.relu(x)).grad_fn))
    ours, theirs = names
    assert ours == theirs and ours[-1] == "TBackward0"


def test_linear_gradients_with_the_reordered_edges_match_torch(torch):
    def fn(lib, x, w, b):
        return lib.nn.functional.linear(x, w, b)

    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in [(4, 3), (2, 3), (2,)]]
    check_grads(fn, arrays, torch)
    check_grads(fn, [rng.standard_normal((5, 4, 3)).astype(np.float32), *arrays[1:]], torch)
    check_grads(lambda lib, x, w: lib.nn.functional.linear(x, w), arrays[:2], torch)


def test_blitz_walk_from_the_loss_reaches_the_last_layers_bias(torch):
    names = []
    for lib in (core, torch):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU(), lib.nn.Linear(3, 2))
        loss = lib.nn.MSELoss()(net(lib.randn(1, 4)), lib.randn(1, 2))
        first = loss.grad_fn.next_functions[0][0]
        names.append([type(n).__name__ for n in (loss.grad_fn, first, first.next_functions[0][0],
                                                 first.next_functions[1][0])])
    assert names[0] == names[1]


@pytest.mark.parametrize("name", ["Adam", "AdamW"])
def test_adam_and_adamw_print_their_param_groups_as_torch_does(torch, name):
    # print(optimizer) in a tutorial: AdamW is an Adam whose groups say decoupled_weight_decay=True
    texts = []
    for lib in (core, torch):
        params = [lib.nn.Parameter(lib.ones(2))]
        texts.append(repr(getattr(lib.optim, name)(params, lr=1e-3)))
    assert texts[0] == texts[1]


def test_adam_with_decoupled_weight_decay_steps_as_torchs_adamw_and_adam(torch):
    def run(lib, decoupled):
        lib.manual_seed(0)
        layer = lib.nn.Linear(4, 3)
        opt = lib.optim.Adam(layer.parameters(), lr=0.1, weight_decay=0.5, decoupled_weight_decay=decoupled)
        for _ in range(3):
            opt.zero_grad()
            layer(lib.ones(2, 4)).pow(2).sum().backward()
            opt.step()
        return layer.weight.detach().numpy().copy(), opt.param_groups[0]["decoupled_weight_decay"]

    for decoupled in (False, True):
        (ours, flag), (theirs, their_flag) = run(core, decoupled), run(torch, decoupled)
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)
        assert flag is their_flag is decoupled


def test_adamw_stays_decoupled_after_loading_an_adam_state_dict(torch):
    flags = []
    for lib in (core, torch):
        params = [lib.nn.Parameter(lib.ones(2))]
        adamw = lib.optim.AdamW(params)
        adamw.load_state_dict(lib.optim.Adam(params).state_dict())
        flags.append(adamw.param_groups[0]["decoupled_weight_decay"])
    assert flags == [True, True]


def _message(lib, fn):
    try:
        fn(lib)
    except RuntimeError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("case", [
    lambda L: L.nn.Linear(3, 2)(L.ones(4, 3, dtype=L.float64)),  # the classic: a float64 NumPy batch into a layer
    lambda L: L.nn.Linear(3, 2)(L.ones(5, 4, 3, dtype=L.float64)),
    lambda L: L.nn.Linear(3, 2)(L.ones(3, dtype=L.float64)),
    lambda L: L.nn.Linear(3, 2)(L.ones(4, 3, dtype=L.int64)),
    lambda L: L.nn.functional.linear(L.ones(4, 3), L.ones(2, 3), L.ones(2, dtype=L.float64)),
    lambda L: L.addmm(L.ones(2), L.ones(4, 3, dtype=L.float64), L.ones(3, 2)),
    lambda L: L.addmm(L.ones(2), L.ones(4, 3), L.ones(3, 2, dtype=L.float64)),
    lambda L: L.addmv(L.ones(4), L.ones(4, 3), L.ones(3, dtype=L.float64)),
    lambda L: L.baddbmm(L.ones(1, 4, 2, dtype=L.float64), L.ones(1, 4, 3), L.ones(1, 3, 2)),
    lambda L: L.addbmm(L.ones(4, 2), L.ones(1, 4, 3, dtype=L.float64), L.ones(1, 3, 2)),
])
def test_matrix_product_dtype_mismatches_raise_torchs_messages(torch, case):
    ours, theirs = _message(core, case), _message(torch, case)
    assert theirs is not None and ours == theirs


@pytest.mark.parametrize("case", [
    lambda L: L.nn.Conv2d(1, 1, 3)(L.ones(1, 1, 4, 4, dtype=L.float64)),  # the bias is compared first
    lambda L: L.nn.Conv1d(1, 1, 3)(L.ones(1, 1, 4, dtype=L.uint8)),
    lambda L: L.nn.functional.conv2d(L.ones(1, 1, 4, 4), L.ones(1, 1, 3, 3), L.ones(1, dtype=L.float16)),
    lambda L: L.nn.functional.conv2d(L.ones(1, 1, 4, 4), L.ones(1, 1, 3, 3, dtype=L.float64)),
    lambda L: L.nn.ConvTranspose2d(1, 1, 3)(L.ones(1, 1, 4, 4, dtype=L.float64)),  # the weight is compared first
])
def test_convolution_dtype_mismatches_raise_torchs_messages(torch, case):
    ours, theirs = _message(core, case), _message(torch, case)
    assert theirs is not None and ours == theirs


_LOSS_CASES = {
    "bce": lambda F, x, t: F.binary_cross_entropy(x.sigmoid(), t.sigmoid()),
    "bce_sum_weight": lambda F, x, t: F.binary_cross_entropy(x.sigmoid(), t.sigmoid(), weight=(t * 0 + 2).detach(),
                                                             reduction="sum"),
    "bce_none": lambda F, x, t: F.binary_cross_entropy(x.sigmoid(), t.sigmoid(), reduction="none"),
    "smooth_l1": lambda F, x, t: F.smooth_l1_loss(x, t),
    "smooth_l1_beta": lambda F, x, t: F.smooth_l1_loss(x, t, beta=0.5, reduction="sum"),
    "huber": lambda F, x, t: F.huber_loss(x, t, delta=0.7),
    "huber_none": lambda F, x, t: F.huber_loss(x, t, reduction="none"),
    "soft_margin": lambda F, x, t: F.soft_margin_loss(x, t.detach()),  # torch refuses a target that needs grad
}


@pytest.mark.parametrize("name", list(_LOSS_CASES))
def test_single_kernel_losses_match_torch_in_value_gradients_and_node_name(torch, name):
    rng = np.random.default_rng(5)
    arrays = [rng.standard_normal((6, 4)).astype(np.float32) * 2 for _ in range(2)]
    fn = _LOSS_CASES[name]
    ours, _ = check_grads(lambda lib, x, t: fn(lib.nn.functional, x, t), arrays, torch, rtol=2e-5, atol=1e-6)
    names = []
    for lib in (core, torch):
        x, t = (lib.tensor(a, requires_grad=True) for a in arrays)
        names.append(type(fn(lib.nn.functional, x if name.startswith("bce") else x, t).grad_fn).__name__)
    if not name.startswith("bce"):  # bce's inputs pass through sigmoid first: its node is one step further
        assert names[0] == names[1]


@pytest.mark.parametrize("name", ["binary_cross_entropy", "smooth_l1_loss", "huber_loss", "soft_margin_loss"])
def test_single_kernel_losses_print_torchs_grad_fn_and_give_second_derivatives(torch, name):
    rng = np.random.default_rng(6)
    x0 = rng.uniform(0.05, 0.95, 5).astype(np.float32)
    t0 = rng.uniform(0.0, 1.0, 5).astype(np.float32)
    out = []
    for lib in (core, torch):
        x = lib.tensor(x0, requires_grad=True)
        loss = getattr(lib.nn.functional, name)(x, lib.tensor(t0))
        (g,) = lib.autograd.grad(loss, x, create_graph=True)
        (gg,) = lib.autograd.grad(g.pow(2).sum(), x)
        out.append((repr(loss).split("grad_fn=")[1], g.detach().numpy(), gg.numpy()))
    assert out[0][0] == out[1][0]
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(out[0][2], out[1][2], rtol=1e-4, atol=1e-6)


def test_soft_margin_loss_refuses_a_target_that_requires_grad_as_torch_does(torch):
    check_error(lambda lib, x, t: lib.nn.functional.soft_margin_loss(x, t.requires_grad_()),
                [np.ones(3, np.float32), np.ones(3, np.float32)], torch, match="not differentiable with respect to")


@pytest.mark.parametrize("shapes,dim", [(((4, 5), (4, 5)), 1), (((5,), (3, 5)), -1), (((2, 3, 4), (2, 3, 4)), 0)])
def test_cosine_similarity_normalises_each_input_first_as_torch_does(torch, shapes, dim):
    rng = np.random.default_rng(8)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    out, _ = check_grads(lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b, dim=dim), arrays, torch)
    assert type(out.grad_fn).__name__ == "SumBackward1"


def test_cosine_similarity_clamps_a_zero_norm_outside_autograd(torch):
    # the clamp of a norm below eps happens under no_grad in torch: the gradient is that of x / ||x||
    arrays = [np.array([1e-9, 0.0, 0.0], np.float32), np.array([1.0, 2.0, 3.0], np.float32)]
    check_grads(lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b, dim=0, eps=1e-6), arrays, torch,
                rtol=1e-4)


def test_cosine_similarity_takes_integers_with_a_float_but_refuses_two_integer_inputs(torch):
    check(lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b), [np.ones((2, 3), np.int64),
                                                                       np.ones((2, 3), np.float32)], torch)
    check_error(lambda lib, a, b: lib.nn.functional.cosine_similarity(a, b), [np.ones((2, 3), np.int64)] * 2, torch,
                match="expected common dtype to be floating point, yet common dtype is Long")


def test_torch_random_module_seeds_and_forks_the_default_generator_as_torch_does(torch):
    draws = []
    for lib in (core, torch):
        lib.random.manual_seed(7)
        with lib.random.fork_rng():
            inside = lib.rand(3).tolist()
        after = lib.rand(3).tolist()
        with lib.random.fork_rng(enabled=False):
            lib.rand(1)
        draws.append((inside, after, lib.rand(2).tolist(), lib.random.initial_seed()))
    assert draws[0] == draws[1]
    assert draws[0][0] == draws[0][1]  # the fork gave back the state it started from


class _Halving:
    """A callable object as lr_lambda: its fields travel in the state dict, as torch's LambdaLR keeps them."""

    def __init__(self):
        self.rate = 0.5

    def __call__(self, epoch):
        return self.rate ** epoch


_SCHEDULERS = {
    "StepLR": lambda S, o: S.StepLR(o, 2, gamma=0.5),
    "ExponentialLR": lambda S, o: S.ExponentialLR(o, 0.9),
    "CosineAnnealingLR": lambda S, o: S.CosineAnnealingLR(o, T_max=4),
    "MultiStepLR": lambda S, o: S.MultiStepLR(o, [1, 3], 0.1),
    "LambdaLR": lambda S, o: S.LambdaLR(o, lambda e: 0.95 ** e),
    "LambdaLR_object": lambda S, o: S.LambdaLR(o, _Halving()),
    "MultiplicativeLR": lambda S, o: S.MultiplicativeLR(o, lambda e: 0.9),
    "OneCycleLR": lambda S, o: S.OneCycleLR(o, max_lr=0.1, total_steps=5, anneal_strategy="linear"),
    "LinearLR": lambda S, o: S.LinearLR(o, start_factor=0.5, total_iters=3),
    "CosineAnnealingWarmRestarts": lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=2),
}


@pytest.mark.parametrize("name", list(_SCHEDULERS))
def test_scheduler_state_dicts_have_torchs_keys_in_torchs_order(torch, name):
    states = []
    for lib in (core, torch):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0, momentum=0.9)
        sched = _SCHEDULERS[name](lib.optim.lr_scheduler, opt)
        for _ in range(3):
            opt.step()
            sched.step()
        states.append(sched.state_dict())
    assert list(states[0]) == list(states[1])
    assert {k: v for k, v in states[0].items() if k != "_last_lr"} == \
        {k: v for k, v in states[1].items() if k != "_last_lr"}
    np.testing.assert_allclose(states[0]["_last_lr"], states[1]["_last_lr"], rtol=1e-12)


def test_lambda_lr_loads_a_callable_objects_fields_back(torch):
    rates = []
    for lib in (core, torch):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0)
        source = lib.optim.lr_scheduler.LambdaLR(opt, _Halving())
        source.lr_lambdas[0].rate = 0.25
        target = lib.optim.lr_scheduler.LambdaLR(opt, _Halving())
        target.load_state_dict(source.state_dict())
        rates.append(target.lr_lambdas[0].rate)
    assert rates == [0.25, 0.25]


class _Doubler:
    """Built per library in the test below: a custom Function that saves its output."""

    @staticmethod
    def make(lib):
        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x * 2
                ctx.save_for_backward(y)
                return y

            @staticmethod
            def backward(ctx, g):
                (y,) = ctx.saved_tensors
                return g * 2 + y * 0

        return Double


@pytest.mark.parametrize("case", ["exp_output", "tanh_output", "input_of_mul", "custom_output"])
def test_modified_saved_tensor_error_names_the_forward_op_as_torch_does(torch, case):
    def run(lib):
        a = lib.ones(2, requires_grad=True)
        if case == "input_of_mul":
            b = a * 1
            c = b * b
            b.add_(1)
        else:
            make = {"exp_output": lambda t: t.exp(), "tanh_output": lambda t: t.tanh(),
                    "custom_output": lambda t: _Doubler.make(lib).apply(t)}[case]
            c = make(a)
            c.mul_(2)
        c.sum().backward()

    ours, theirs = _message(core, lambda lib: run(lib)), _message(torch, lambda lib: run(lib))
    assert theirs is not None and ours == theirs


@pytest.mark.parametrize("value, dtype", [(1, "float32"), (2.5, "float32"), (2.5, "int64"), (True, "int64"),
                                          (-1, "bool")])
def test_copy_of_a_number_fills_the_tensor_as_torch_does(torch, value, dtype):
    results = []
    for lib in (core, torch):
        t = lib.zeros(2, 3, dtype=getattr(lib, dtype))
        results.append(t.copy_(value))
    assert_same(results[0], results[1])


def test_copy_of_a_number_records_a_copy_and_refuses_a_leaf_as_torch_does(torch):
    for lib in (core, torch):
        x = lib.zeros(2, requires_grad=True).clone()
        x.copy_(3).sum().backward()
        with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
            lib.zeros(2, requires_grad=True).copy_(1)


@pytest.mark.parametrize("eps", [0.3, 0.5, 0.6, 1.0])
def test_logit_with_an_eps_clamps_as_torchs_kernel_does_even_past_one_half(torch, eps):
    x = np.array([0.0, 0.3, 0.45, 0.55, 0.999, 1.0, -0.2, 1.5], np.float32)
    assert_same(core.logit(core.tensor(x), eps), torch.logit(torch.tensor(x), eps))
