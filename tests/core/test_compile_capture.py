"""core.compile captures a step's ops once and replays them: every replayed value equals the eager one.

Each test runs the same training or computation twice from the same seed, once eagerly and once through
``core.compile``, and compares losses, gradients and parameters exactly (a replay runs the very same
kernels in the same order, so nothing may differ, not even the last bit).
"""

import contextlib
import gc
import weakref

import numpy as np
import pytest

import core
import core.nn.functional as F
from core.autograd.capture_codegen import GENERATE_AFTER

nn = core.nn


def _points(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 2)).astype(np.float32)
    y = (x[:, :1] * x[:, 1:] > 0).astype(np.float32)
    return core.tensor(x), core.tensor(y)


def _train(make_model, loss_of, compiled, optimizer="SGD", steps=12, lr=0.1, seed=0):
    """Losses, final parameters and the compiled function (when compiled) of ``steps`` training steps."""
    core.manual_seed(seed)
    model = make_model()
    opt = getattr(core.optim, optimizer)(model.parameters(), lr=lr)
    x, y = _points()

    def step(x, y):
        return loss_of(model(x), y)

    fn = core.compile(step) if compiled else step
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = fn(x, y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, [p.detach().numpy().copy() for p in model.parameters()], fn, model


def _tanh_mlp():
    return nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))


def _assert_same_training(eager, compiled):
    assert compiled[0] == eager[0]
    for a, b in zip(eager[1], compiled[1]):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("optimizer", ["SGD", "Adam", "RMSprop"])
def test_a_compiled_training_step_equals_the_eager_step_exactly(optimizer):
    eager = _train(_tanh_mlp, F.binary_cross_entropy_with_logits, False, optimizer)
    compiled = _train(_tanh_mlp, F.binary_cross_entropy_with_logits, True, optimizer)
    _assert_same_training(eager, compiled)
    fn = compiled[2]
    assert fn.reason is None and fn.captures == 1 and fn.replays == 11


class _ScaleShift(nn.Module):
    """x * w + b with a (1,) shift: AddBackward0 hands the shift a (64, 1) gradient the engine sums back."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 1)
        self.w = nn.Parameter(core.tensor([0.5]))
        self.b = nn.Parameter(core.tensor([0.1]))

    def forward(self, x):
        return self.lin(x) * self.w + self.b


@pytest.mark.parametrize("optimizer", ["SGD", "Adam"])
def test_a_replayed_step_sums_broadcast_gradients_back_to_their_parameters_shapes(optimizer):
    eager = _train(_ScaleShift, F.binary_cross_entropy_with_logits, False, optimizer)
    compiled = _train(_ScaleShift, F.binary_cross_entropy_with_logits, True, optimizer)
    _assert_same_training(eager, compiled)
    assert compiled[2].replays == 11
    assert [p.grad.shape for p in compiled[3].parameters()] == [p.shape for p in compiled[3].parameters()]


def test_dropout_draws_a_new_mask_every_replay_as_eager_code_does():
    def model():
        return nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Dropout(0.3), nn.Linear(16, 1))

    eager = _train(model, F.binary_cross_entropy_with_logits, False)
    compiled = _train(model, F.binary_cross_entropy_with_logits, True)
    _assert_same_training(eager, compiled)
    assert compiled[2].reason is None and compiled[2].replays == 11


def test_batch_norm_replays_its_batch_statistics_and_running_averages_like_eager():
    def model():
        return nn.Sequential(nn.Linear(2, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 1))

    eager = _train(model, F.binary_cross_entropy_with_logits, False)
    compiled = _train(model, F.binary_cross_entropy_with_logits, True)
    _assert_same_training(eager, compiled)
    for name in ("running_mean", "running_var"):
        np.testing.assert_array_equal(getattr(eager[3][1], name).numpy(), getattr(compiled[3][1], name).numpy())
    assert compiled[3][1].num_batches_tracked.item() == 12
    assert compiled[2].reason is None and compiled[2].replays == 11


def test_running_statistics_written_outside_an_op_make_the_step_run_eagerly():
    def model():
        # (one channel of 2 positions: PyTorch refuses instance norm over a single spatial element when training)
        return nn.Sequential(nn.Unflatten(1, (1, 2)), nn.InstanceNorm1d(1, track_running_stats=True), nn.Flatten(),
                             nn.Linear(2, 1))

    eager = _train(model, F.binary_cross_entropy_with_logits, False)
    compiled = _train(model, F.binary_cross_entropy_with_logits, True)
    _assert_same_training(eager, compiled)
    assert "running statistics outside an op" in compiled[2].reason and compiled[2].replays == 0


def test_a_conv_net_with_pooling_and_cross_entropy_replays_like_eager():
    def model():
        return nn.Sequential(nn.Unflatten(1, (1, 1, 2)), nn.Conv2d(1, 4, (1, 2)), nn.ReLU(), nn.Flatten(),
                             nn.Linear(4, 3))

    def loss(out, y):
        return F.cross_entropy(out, y[:, 0].long())

    eager = _train(model, loss, False)
    compiled = _train(model, loss, True)
    _assert_same_training(eager, compiled)
    assert compiled[2].reason is None


def test_the_replayed_loss_has_one_compiled_grad_fn_and_keeps_its_value_after_the_next_call():
    core.manual_seed(0)
    model = _tanh_mlp()
    fn = core.compile(lambda x, y: F.binary_cross_entropy_with_logits(model(x), y))
    x, y = _points()
    first = fn(x, y)
    second = fn(x, y)
    assert second.grad_fn.name() == "CompiledFunctionBackward"
    kept = second.item()
    second.backward()
    with core.no_grad():
        for p in model.parameters():
            p.add_(1.0)
    third = fn(x, y)
    assert second.item() == kept and third.item() != kept
    assert first.grad_fn.name() == "CompiledFunctionBackward"  # the first call too, as PyTorch's (with its own
    assert first.grad_fn is not second.grad_fn  # values: test_compiled_grad_fn_oracle)


def test_a_new_shape_or_a_frozen_parameter_captures_again():
    core.manual_seed(0)
    model = _tanh_mlp()
    fn = core.compile(lambda x: model(x).sum())
    x, _ = _points(64)
    small, _ = _points(10)
    for _ in range(2):
        fn(x).backward()
        fn(small).backward()
    assert fn.captures == 2 and fn.replays == 2
    model[0].weight.requires_grad_(False)
    model[0].weight.grad = None
    fn(x).backward()
    fn(x).backward()
    assert fn.captures == 3 and model[0].weight.grad is None and model[0].bias.grad is not None


def test_gradients_reach_an_argument_that_requires_grad_even_through_its_own_history():
    w = core.tensor([0.5, -1.0, 2.0], requires_grad=True)
    fn = core.compile(lambda a, b: (a * b).tanh().sum())
    expected = None
    for _ in range(3):
        base = core.tensor([1.0, 2.0, 3.0], requires_grad=True)
        a = base * 2  # a non-leaf argument: its gradient must flow on to ``base``
        fn(a, w).backward()
        if expected is None:
            expected = base.grad.clone()
        assert core.equal(base.grad, expected)
    assert fn.replays == 2
    ref_w = core.tensor([0.5, -1.0, 2.0], requires_grad=True)
    for _ in range(3):
        (core.tensor([2.0, 4.0, 6.0]) * ref_w).tanh().sum().backward()
    assert core.equal(w.grad, ref_w.grad)


def test_a_call_before_the_previous_backward_runs_eagerly_so_both_gradients_are_right():
    w = core.tensor([1.0, 2.0], requires_grad=True)
    fn = core.compile(lambda x: (x * w).pow(2).sum())
    x1, x2 = core.tensor([1.0, 1.0]), core.tensor([3.0, -1.0])
    fn(x1).backward()  # capture
    a = fn(x1)
    b = fn(x2)  # a still waits for its backward: this call must not overwrite a's saved values
    (a + b).backward()
    with core.no_grad():
        expected = 2 * (2 * (x1 * w) * x1) + 2 * (x2 * w) * x2  # the first call, then a + b
    assert core.equal(w.grad, expected)


def test_a_second_backward_after_a_later_replay_is_refused_with_a_clear_message():
    w = core.tensor([1.0, 2.0], requires_grad=True)
    fn = core.compile(lambda x: (x * w).exp().sum())
    x = core.tensor([0.5, 0.25])
    fn(x)
    old = fn(x)
    old.backward(retain_graph=True)
    fn(x)
    with pytest.raises(RuntimeError, match="call backward"):
        old.backward()


def test_calls_under_no_grad_replay_without_a_graph():
    core.manual_seed(0)
    model = _tanh_mlp()
    fn = core.compile(model)
    x, _ = _points()
    with core.no_grad():
        outs = [fn(x) for _ in range(3)]
        eager = model(x)
    assert all(core.equal(o, eager) for o in outs) and outs[-1].grad_fn is None
    assert fn.replays == 2


def test_several_results_in_a_tuple_and_a_dict_come_back_with_the_eager_values():
    core.manual_seed(0)
    model = _tanh_mlp()
    fn = core.compile(lambda x, y: {"logits": model(x), "pair": (model(x).sum(), y.mean())})
    x, y = _points()
    for _ in range(3):
        out = fn(x, y)
        out["pair"][0].backward()
    eager = model(x)
    assert core.equal(out["logits"], eager) and core.equal(out["pair"][1], y.mean())
    assert out["pair"][0].grad_fn.name() == "CompiledFunctionBackward" and fn.replays == 2


@pytest.mark.parametrize("body, reason", [
    (lambda m, x: m(x).sum() * float(m(x).mean().item()), "reads a tensor's value"),
    (lambda m, x: (m(x) + core.randn(64, 1)).sum(), "random numbers outside an op"),
    (lambda m, x: (m(x) - m(x).detach().mean()).pow(2).sum(), "intermediate's memory"),
    (lambda m, x: _with_hook(m(x)).sum(), "hook"),
    (lambda m, x: _with_backward(m(x).sum()), "backward pass"),
    (lambda m, x: (m(x) * core.nn.init.ones_(core.empty(64, 1))).sum(), "outside an op"),
])
def test_what_a_replay_would_get_wrong_makes_it_run_eagerly_and_says_why(body, reason):
    def losses(compiled):
        core.manual_seed(0)
        model = _tanh_mlp()
        fn = core.compile(lambda x: body(model, x)) if compiled else (lambda x: body(model, x))
        x, _ = _points()
        out = []
        for _ in range(3):
            loss = fn(x)
            if loss.requires_grad:
                loss.backward()
            out.append(loss.item())
        return out, fn

    eager, (compiled, fn) = losses(False), losses(True)
    assert compiled == eager[0]
    assert reason in fn.reason and fn.replays == 0


def _with_hook(t):
    t.register_hook(lambda g: g * 2)
    return t


def _with_backward(loss):
    loss.backward(retain_graph=True)
    return loss.detach()


def test_a_compiled_module_keys_on_its_training_flag_and_still_answers_as_the_module():
    core.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 4), nn.Dropout(0.5), nn.Linear(4, 1))
    compiled = core.compile(model)
    assert list(compiled.parameters()) == list(model.parameters())
    x, _ = _points()
    compiled(x), compiled(x)
    compiled.eval()
    with core.no_grad():
        assert core.equal(compiled(x), model(x))
    assert compiled.captures == 2


def test_compile_keeps_pytorchs_signature_and_disable_returns_the_function():
    def double(x):
        return 2 * x

    assert core.compile(double, disable=True) is double
    decorated = core.compile(mode="reduce-overhead", fullgraph=True)(double)
    assert [decorated(core.tensor(3.0)).item() for _ in range(3)] == [6.0, 6.0, 6.0]
    with pytest.raises(RuntimeError, match="expected a callable"):
        core.compile(3)


@pytest.mark.parametrize("body", [
    lambda buf, w, x: (buf.add_(x), (x * w).sum())[1],
    lambda buf, w, x: (buf.zero_(), buf.add_(x), (buf * w).sum())[2],
    lambda buf, w, x: (buf.__setitem__(0, 5.0), (buf * w * x).sum())[1],
    lambda buf, w, x: (buf.copy_(x * 3), (buf * w).sum())[1],
    lambda buf, w, x: (buf.fill_(2.0), buf.mul_(x), (buf * w).sum())[2],
    lambda buf, w, x: (buf.fill_(1.0), buf.exp_(), (buf * w).sum())[2],
    lambda buf, w, x: (buf.mul_(0.5), (buf * w * x).sum())[1],
], ids=["add_", "zero_ add_", "setitem", "copy_", "fill_ mul_", "exp_", "mul_ alone"])
@pytest.mark.parametrize("steps", [4, GENERATE_AFTER + 4])
def test_in_place_writes_to_a_buffer_without_grad_are_replayed(body, steps):
    """Also once the program runs generated (``steps`` past GENERATE_AFTER), where a step that only views a captured
    tensor is skipped: an in-place op on one (its output the buffer itself) is not such a view."""
    def run(compiled):
        w = core.tensor([1.0, 2.0], requires_grad=True)
        buf = core.ones(2)
        fn = core.compile(lambda x: body(buf, w, x)) if compiled else (lambda x: body(buf, w, x))
        seen = []
        for i in range(steps):
            loss = fn(core.tensor([1.0 + i, -1.0]))
            loss.backward()
            seen.append((loss.item(), buf.tolist(), w.grad.tolist()))
        return seen, fn

    eager, (compiled, fn) = run(False)[0], run(True)
    assert compiled == eager and fn.reason is None and fn.replays == steps - 1


def test_ops_another_thread_runs_during_a_capture_are_not_recorded():
    import threading
    import time

    w = core.tensor([1.0, 2.0], requires_grad=True)
    started, finish = threading.Event(), threading.Event()
    other = []

    def busy():  # ops in another thread while the main thread records
        started.set()
        while not finish.is_set():
            other.append((core.ones(2) * 3).sum())

    def body(x):
        started.wait()
        y = (x * w).sum()
        for _ in range(20):
            seen = len(other)
            while len(other) == seen:  # the other thread runs an op in the middle of the recording
                time.sleep(0.0001)
            y = y + (x * w).sum()
        return y

    thread = threading.Thread(target=busy)
    thread.start()
    try:
        fn = core.compile(body)
        fn(core.tensor([1.0, 1.0])).backward()
    finally:
        finish.set()
        thread.join()
    plan = next(iter(fn._plans.values()))
    assert fn.reason is None and len(plan._steps) == 62  # 2 + 20 x (mul, sum, add): this thread's ops only
    grads = w.grad.clone()
    w.grad = None
    fn(core.tensor([1.0, 1.0])).backward()
    assert fn.replays == 1 and core.equal(w.grad, grads)


def test_a_named_tuple_result_replays_and_an_object_holding_tensors_runs_eagerly():
    from collections import namedtuple
    from dataclasses import dataclass

    Out = namedtuple("Out", "loss logits")

    @dataclass
    class Box:
        loss: object

    w = core.tensor([1.0, -2.0], requires_grad=True)
    as_tuple = core.compile(lambda x: Out((x * w).sum(), x * w))
    as_object = core.compile(lambda x: Box((x * w).sum()))
    for i in range(3):
        x = core.tensor([1.0 + i, 2.0])
        out = as_tuple(x)
        assert isinstance(out, Out) and out.loss.item() == (x * w).sum().item()
        assert as_object(x).loss.item() == (x * w).sum().item()
        del out  # a result waiting for its backward would make the next call run eagerly
    assert as_tuple.replays == 2 and as_object.replays == 0
    assert "returns a Box" in as_object.reason


_GRAD_FREE_BODIES = {
    "constants added": lambda x, y: x + y,
    "constants multiplied": lambda x, y: x * y,
    "small matmul": lambda x, y: (x.reshape(3, 1) @ y.reshape(1, 3)).sum(0),
    "basic index": lambda x, y: x[1] + y,
    "sum of a constant": lambda x, y: x.sum() + y,
    "comparison and where": lambda x, y: core.where(x > 0, x, y),
    "comparison as float": lambda x, y: (x < y).float(),
    "argmax": lambda x, y: x.argmax() + y,
    "isnan and logical_not": lambda x, y: core.logical_not(x.isnan()).float() * x,
    "any": lambda x, y: x.gt(4).any().float() + y,
    "argsort": lambda x, y: x.argsort().float(),
    "bucketize": lambda x, y: core.bucketize(x, core.tensor([0.0, 1.0, 2.0])).float(),
}


@pytest.mark.parametrize("body", list(_GRAD_FREE_BODIES.values()), ids=list(_GRAD_FREE_BODIES))
def test_values_computed_from_arguments_without_grad_are_recomputed_on_every_replay(body):
    w = core.ones(3, requires_grad=True)
    fn = core.compile(lambda x, y: (body(x, y) * w).sum())
    calls = [(core.tensor([1.0, 2.0, 3.0]), core.tensor([1.0, 1.0, 1.0])),
             (core.tensor([-4.0, 5.0, 0.5]), core.tensor([2.0, -1.0, 3.0])),
             (core.tensor([float("nan"), 0.25, -1.0]), core.tensor([0.0, 7.0, -2.0]))]
    for x, y in calls:
        got = fn(x, y)
        got.backward()
        want = (body(x, y) * w).sum()
        np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())
    assert fn.reason is None and fn.replays == 2


@pytest.mark.parametrize("body", [
    lambda x: x[x > 0].sum(),
    lambda x: x.nonzero().float().sum(),
    lambda x: x.masked_select(x > 0).sum(),
    lambda x: x.unique().sum(),
    lambda x: core.repeat_interleave(x, (x > 0).long()).sum(),
], ids=["boolean index", "nonzero", "masked_select", "unique", "repeat_interleave by counts"])
def test_a_result_whose_shape_depends_on_the_values_makes_the_step_run_eagerly(body):
    w = core.ones(1, requires_grad=True)
    fn = core.compile(lambda x: body(x) * w)
    for x in (core.tensor([1.0, -2.0, 3.0]), core.tensor([-1.0, 2.0, 0.5])):
        got = fn(x)
        np.testing.assert_array_equal(got.detach().numpy(), (body(x) * w).detach().numpy())
    assert fn.replays == 0 and fn.reason is not None


def test_blocking_the_shortcuts_during_a_capture_leaves_them_on_afterwards_even_when_it_raises():
    from core.autograd import shortcuts

    def broken(x):
        raise ValueError("boom")

    with pytest.raises(ValueError):
        core.compile(broken)(core.ones(2))
    assert shortcuts.state.ok
    with core.autograd.forward_ad.dual_level():
        assert not shortcuts.state.ok
    assert shortcuts.state.ok


def test_copying_an_arguments_values_into_a_new_tensor_makes_the_step_run_eagerly():
    w = core.ones(2, requires_grad=True)
    fn = core.compile(lambda x: (core.tensor(x) * w).sum())
    with pytest.warns(UserWarning, match="copy construct"):
        got = [fn(core.tensor([1.0, 2.0])).item(), fn(core.tensor([3.0, 5.0])).item()]
    assert got == [3.0, 8.0] and "reads a tensor's value" in fn.reason


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
def test_a_replay_routes_every_output_of_a_multi_output_op_and_sums_a_diamond_like_eager():
    """Outputs of one node (split, unbind) read their gradients from neighbouring slots; an intermediate used
    twice sums both gradients; an argument used twice gets both as one exit; anomaly mode takes the checks."""
    def f(x, w):
        a, b, c = (x * w).split([1, 2, 1], dim=1)
        h = a.tanh() * b.sum(1, keepdim=True)
        rows = h.unbind(0)
        return (rows[0] * rows[-1]).sum() + (h * c).sum() + (x * x).mean()

    rng = np.random.default_rng(7)
    x0, w0 = rng.standard_normal((5, 4)).astype(np.float32), rng.standard_normal(4).astype(np.float32)
    eager = []
    for compiled in (False, True):
        fn = core.compile(f) if compiled else f
        got = []
        for step in range(4):
            x, w = core.tensor(x0 + step, requires_grad=True), core.tensor(w0, requires_grad=True)
            with core.autograd.detect_anomaly() if step == 3 else contextlib.nullcontext():
                out = fn(x, w)
                out.backward()
            got.append((out.item(), x.grad.numpy().copy(), w.grad.numpy().copy()))
        if compiled:
            assert fn.replays == 3
        eager.append(got)
    for (le, gxe, gwe), (lc, gxc, gwc) in zip(*eager):
        assert le == lc
        np.testing.assert_array_equal(gxe, gxc)
        np.testing.assert_array_equal(gwe, gwc)


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
def test_replays_long_after_the_backward_program_settled_route_multi_output_ops_and_diamonds_like_eager():
    """After GENERATE_AFTER replays the program runs as generated functions (``core.autograd.capture_codegen``):
    unbind's unused rows still take the engine's checked call inside it, a diamond still sums in the same order,
    and anomaly mode (the third generated step) goes back to the checked program for that one step."""
    def f(x, w):
        a, b, c = (x * w).split([1, 2, 1], dim=1)
        h = a.tanh() * b.sum(1, keepdim=True)
        rows = h.unbind(0)
        return (rows[0] * rows[-1]).sum() + (h * c).sum() + (x * x).mean() + (h.exp() * h).sum()

    rng = np.random.default_rng(3)
    x0, w0 = rng.standard_normal((5, 4)).astype(np.float32), rng.standard_normal(4).astype(np.float32)
    steps = GENERATE_AFTER + 6
    runs = []
    for fn in (f, core.compile(f)):
        got = []
        for step in range(steps):
            x, w = core.tensor(x0 * (1 + step / steps), requires_grad=True), core.tensor(w0, requires_grad=True)
            with core.autograd.detect_anomaly() if step == steps - 3 else contextlib.nullcontext():
                out = fn(x, w)
                out.backward()
            got.append((out.item(), x.grad.numpy().copy(), w.grad.numpy().copy()))
        runs.append(got)
    assert fn.replays == steps - 1
    for (le, gxe, gwe), (lc, gxc, gwc) in zip(*runs):
        assert le == lc
        np.testing.assert_array_equal(gxe, gxc)
        np.testing.assert_array_equal(gwe, gwc)


@pytest.mark.parametrize("both", [[False] * (GENERATE_AFTER + 4) + [True] * 3,
                                  [True] * (GENERATE_AFTER + 4) + [False] * 2 + [True] * 2])
def test_a_second_result_that_gets_a_gradient_only_in_some_steps_still_gets_the_eager_gradients(both):
    """The backward program settles while only the loss gets a gradient and later steps backpropagate through the
    auxiliary result too (its nodes were never checked: the engine's checked call every time), or the other way
    round (checked nodes then get no gradient, and take the checked call for those steps)."""
    def f(x, w):
        h = (x @ w).tanh()
        return h.pow(2).mean(), (h * 3).sum()

    rng = np.random.default_rng(5)
    x, w0 = core.tensor(rng.standard_normal((6, 3)).astype(np.float32)), rng.standard_normal((3, 2)).astype(np.float32)
    runs = []
    for fn in (f, core.compile(f)):
        w = core.tensor(w0, requires_grad=True)
        got = []
        for step in range(len(both)):
            loss, aux = fn(x, w)
            (loss + aux if both[step] else loss).backward()
            got.append((loss.item(), aux.item(), w.grad.numpy().copy()))
            w.grad = None
            with core.no_grad():
                w.sub_(0.1)
        runs.append(got)
    assert fn.replays == len(both) - 1
    for eager, compiled in zip(*runs):
        assert eager[:2] == compiled[:2]
        np.testing.assert_array_equal(eager[2], compiled[2])


def test_a_new_dtype_or_shape_after_many_replays_captures_again_and_matches_eager():
    """A settled plan (generated forward and backward) is only one key's: a float64 batch or a smaller batch
    records its own plan, and each replays with eager values."""
    core.manual_seed(0)
    model = _tanh_mlp()
    fn = core.compile(lambda x: model(x).sum())
    x, _ = _points(64)
    for _ in range(GENERATE_AFTER + 2):
        fn(x).backward()
    assert fn.captures == 1 and fn.replays == GENERATE_AFTER + 1
    for batch in (x[:10].clone(), x.double()):
        if batch.dtype == core.float64:
            model.double()
        for _ in range(4):
            model.zero_grad()
            out = fn(batch)
            out.backward()
            got = [out.item()] + [p.grad.clone() for p in model.parameters()]
            model.zero_grad()
            eager = model(batch).sum()
            eager.backward()
            assert got[0] == eager.item()
            assert all(core.equal(g, p.grad) for g, p in zip(got[1:], model.parameters()))
    assert fn.captures == 3 and fn.replays == GENERATE_AFTER + 7


def test_a_dropped_compiled_function_frees_its_last_arrays_without_the_cycle_collector():
    """A long-lived plan's generated functions hold its shells (and so the last replay's arrays); dropping the
    compiled function must free them at once, as dropping an eager graph does, not at the next gc run."""
    w = core.tensor([1.0, 2.0], requires_grad=True)
    fn = core.compile(lambda x: (x * w).tanh() * 3)
    x = core.tensor([0.5, 1.0])
    gc.disable()
    try:
        for _ in range(GENERATE_AFTER + 3):
            out = fn(x)
            out.sum().backward()
        last = weakref.ref(out._data)
        del out, fn
        assert last() is None
    finally:
        gc.enable()


def test_a_settled_replay_views_a_weight_anew_after_its_array_is_replaced_and_keeps_the_view_otherwise():
    """The generated forward skips ``weight.t()`` while the weight keeps its array (updated in place by the
    optimizer); a weight given a new array (``p.data = ...``, ``set_``) or one written in place outside the
    optimizer must still give the eager step's values."""
    def run(compiled):
        core.manual_seed(0)
        model = _tanh_mlp()
        opt = core.optim.SGD(model.parameters(), lr=0.1)
        x, y = _points()
        fn = core.compile(lambda x, y: F.mse_loss(model(x), y)) if compiled else \
            (lambda x, y: F.mse_loss(model(x), y))
        losses = []
        for i in range(GENERATE_AFTER + 12):
            if i == GENERATE_AFTER + 3:
                with core.no_grad():
                    model[0].weight.data = model[0].weight.data * 0.5  # a new array
            if i == GENERATE_AFTER + 6:
                with core.no_grad():
                    model[2].weight.mul_(-1.0)  # the same array, new values
            if i == GENERATE_AFTER + 8:
                with core.no_grad():
                    model[4].weight.set_(model[4].weight.detach().clone() + 1)  # a new storage
            opt.zero_grad()
            loss = fn(x, y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, [p.detach().numpy().copy() for p in model.parameters()], fn

    eager, compiled = run(False), run(True)
    _assert_same_training(eager, compiled)
    assert compiled[2].captures == 1


def test_several_views_of_parameters_and_buffers_replay_like_eager_once_settled():
    """Views of parameters and of a buffer (``t()``, an index, ``view``/``expand``, ``transpose``, a view of a view),
    with the buffer written in place and a parameter given a new array after the program settled."""
    def run(compiled):
        core.manual_seed(0)
        w, b = core.randn(3, 4, requires_grad=True), core.randn(4, requires_grad=True)
        buf = core.randn(4, 3)
        opt = core.optim.SGD([w, b], lr=0.05)

        def f(x):
            y = x @ w.t().t() + w[0] + b.view(1, 4).expand(5, 4)
            z = y * buf.t().sum() + w.transpose(0, 1).t()[1]
            return (z * z).mean() + w.view(-1)[2:5].sum()

        fn = core.compile(f) if compiled else f
        x = core.randn(5, 3)
        losses = []
        for i in range(GENERATE_AFTER + 10):
            if i == GENERATE_AFTER + 3:
                with core.no_grad():
                    buf.mul_(2.0)
            if i == GENERATE_AFTER + 6:
                with core.no_grad():
                    w.data = w.data.clone() * 0.5
            opt.zero_grad()
            loss = fn(x)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, [w.detach().numpy().copy(), b.detach().numpy().copy()], fn

    eager, compiled = run(False), run(True)
    _assert_same_training(eager, compiled)
    assert compiled[2].captures == 1 and next(iter(compiled[2]._plans.values()))._fixed_views
