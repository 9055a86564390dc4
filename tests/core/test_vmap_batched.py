"""``vmap``'s batched path (``core._vmap_batched``) against torch: each family of batching rules, ``in_dims`` and
``out_dims``, nesting, per-sample gradients, Jacobians and Hessians; the loop still runs (with torch's results or
errors) where an op has no rule; and the batched and loop paths agree value for value."""

from __future__ import annotations

import numpy as np
import pytest

import core
from core import _vmap, _vmap_batched
from tests.core.oracle import assert_same, to_numpy

RNG = np.random.default_rng(0)
A = RNG.standard_normal((4, 3, 5)).astype(np.float32)
B = RNG.standard_normal((4, 5)).astype(np.float32)
M = RNG.standard_normal((5, 2)).astype(np.float32)
S = RNG.standard_normal(4).astype(np.float32)


@pytest.fixture
def batched_only(monkeypatch):
    """The loop must not run: a case that falls back fails."""
    def loop(*args, **kwargs):
        raise AssertionError("vmap fell back to its loop")
    monkeypatch.setattr(_vmap, "_run", loop)


@pytest.fixture
def loop_runs(monkeypatch):
    """Counts the loop's runs (the fallback)."""
    runs = []
    original = _vmap._run

    def counted(*args, **kwargs):
        runs.append(1)
        return original(*args, **kwargs)
    monkeypatch.setattr(_vmap, "_run", counted)
    return runs


def _both(torch, case, *arrays, **compare):
    ours = case(core, *(core.tensor(a) for a in arrays))
    theirs = case(torch, *(torch.tensor(a) for a in arrays))
    assert_same(ours, theirs, **compare)
    return ours


ELEMENTWISE = {
    "unary": lambda lib, a, b: lib.vmap(lambda x: x.exp().sin() * 2 - 1)(a),
    "broadcast-unbatched": lambda lib, a, b: lib.vmap(lambda x, y: x + y, in_dims=(0, None))(a, b[0]),
    "broadcast-both-ranks": lambda lib, a, b: lib.vmap(lambda x, y: x * y)(a, b),
    "scalar-reflected": lambda lib, a, b: lib.vmap(lambda x: 1 - 2 / (x ** 2 + 1))(a),
    "where-compare": lambda lib, a, b: lib.vmap(lambda x: lib.where(x > 0, x, x.abs() * 0.5))(a),
    "clamp-max": lambda lib, a, b: lib.vmap(lambda x, y: lib.maximum(x.clamp(-0.5, 0.5), y))(a, b),
    "activations": lambda lib, a, b: lib.vmap(lambda x: lib.nn.functional.gelu(x) + lib.nn.functional.silu(x)
                                              + lib.relu(x) + lib.tanh(x) + lib.sigmoid(x))(a),
    "in-place": lambda lib, a, b: lib.vmap(lambda x: x.clone().mul_(2).add_(1))(a),
    "like-factories": lambda lib, a, b: lib.vmap(lambda x: lib.ones_like(x) + lib.zeros_like(x) + x.new_ones(5))(a),
    "int-compare": lambda lib, a, b: lib.vmap(lambda x: (x > 0).long() + (x < 0).int())(a),
}


@pytest.mark.parametrize("name", list(ELEMENTWISE))
def test_elementwise_ops_run_batched_with_torchs_values(torch, batched_only, name):
    _both(torch, ELEMENTWISE[name], A, B)


REDUCTIONS = {
    "sum": lambda lib, a: lib.vmap(lambda x: x.sum())(a),
    "sum-dim": lambda lib, a: lib.vmap(lambda x: x.sum(0))(a),
    "mean-neg-dim-keepdim": lambda lib, a: lib.vmap(lambda x: x.mean(-1, keepdim=True))(a),
    "sum-dims": lambda lib, a: lib.vmap(lambda x: lib.sum(x, dim=(0, -1)))(a),
    "max-dim": lambda lib, a: lib.vmap(lambda x: x.max(1))(a),
    "max-all": lambda lib, a: lib.vmap(lambda x: x.max())(a),
    "amin-argmax": lambda lib, a: lib.vmap(lambda x: (x.amin(0), x.argmax(), x.argmax(1)))(a),
    "std-var": lambda lib, a: lib.vmap(lambda x: (x.std(), x.var(0, correction=0)))(a),
    "logsumexp": lambda lib, a: lib.vmap(lambda x: x.logsumexp(-1))(a),
    "softmax": lambda lib, a: lib.vmap(lambda x: (lib.softmax(x, -1), lib.nn.functional.log_softmax(x, dim=0)))(a),
    "cumsum": lambda lib, a: lib.vmap(lambda x: x.cumsum(1))(a),
    "all-any": lambda lib, a: lib.vmap(lambda x: ((x > 0).all(), (x > 0).any(0)))(a),
}


@pytest.mark.parametrize("name", list(REDUCTIONS))
def test_reductions_and_dim_ops_run_batched_with_torchs_values(torch, batched_only, name):
    _both(torch, REDUCTIONS[name], A)


PRODUCTS = {
    "vec-vec": lambda lib, a, b, m: lib.vmap(lambda x, y: x @ y)(b, b),
    "vec-mat-unbatched": lambda lib, a, b, m: lib.vmap(lambda x: x @ m)(b),
    "mat-mat-unbatched": lambda lib, a, b, m: lib.vmap(lambda x: x @ m)(a),
    "mat-vec": lambda lib, a, b, m: lib.vmap(lambda x, y: lib.mv(x, y))(a, b),
    "unbatched-mat-batched-vec": lambda lib, a, b, m: lib.vmap(lambda y: m.T @ y)(b),
    "mm-both": lambda lib, a, b, m: lib.vmap(lambda x, y: lib.mm(x, y))(a, a.transpose(1, 2)),
    "bmm": lambda lib, a, b, m: lib.vmap(lambda x: lib.bmm(x[None], x[None].mT))(a),
    "dot": lambda lib, a, b, m: lib.vmap(lib.dot)(b, b),
    "linear": lambda lib, a, b, m: lib.vmap(lambda x: lib.nn.functional.linear(x, m.T, m[0]))(a),
    "linear-batched-weight": lambda lib, a, b, m: lib.vmap(lambda w, x: lib.nn.functional.linear(x, w))(a, b),
    "einsum": lambda lib, a, b, m: lib.vmap(lambda x, y: lib.einsum("ij,jk,j->ik", x, m, y))(a, b),
}


@pytest.mark.parametrize("name", list(PRODUCTS))
def test_matrix_products_run_batched_with_torchs_values(torch, batched_only, name):
    _both(torch, PRODUCTS[name], A, B, M)


VIEWS = {
    "reshape-view": lambda lib, a: lib.vmap(lambda x: (x.reshape(-1), x.view(5, 3), x.flatten()))(a),
    "permute-transpose": lambda lib, a: lib.vmap(lambda x: (x.permute(1, 0), x.transpose(0, 1), x.t(), x.T, x.mT))(a),
    "unsqueeze-squeeze": lambda lib, a: lib.vmap(lambda x: (x.unsqueeze(0).unsqueeze(-1).squeeze(),
                                                            x[:1].squeeze(0), x.unsqueeze(1)))(a),
    "expand": lambda lib, a: lib.vmap(lambda x: (x[:1].expand(2, 3, 5), x[:, :1].expand_as(x)))(a),
    "indexing": lambda lib, a: lib.vmap(lambda x: (x[1], x[:, 2:], x[..., 0], x[None, -1],
                                                    x[:, lib.tensor([0, 4])]))(a),
    "select-narrow-movedim": lambda lib, a: lib.vmap(lambda x: (x.select(1, 2), x.narrow(1, 1, 3),
                                                                x.movedim(0, -1)))(a),
    "diagonal": lambda lib, a: lib.vmap(lambda x: (x.diagonal(), x.diagonal(1), lib.diagonal(x, 0, -1, 0)))(a),
    "index-tensors": lambda lib, a: lib.vmap(lambda x: (x[lib.tensor([0, 2]), 1:], x[lib.tensor([0, 2]), lib.tensor(
        [1, 4])], x[1, lib.tensor([0, 4])], x[lib.tensor([2, 0]), 3], x[:, lib.tensor([[1], [3]])]))(a),
    "cat-stack": lambda lib, a: lib.vmap(lambda x: (lib.cat([x, x * 2], -1), lib.stack([x, x.exp()], 1),
                                                    lib.cat([x, lib.ones(1, 5)])))(a),
    "split-chunk-unbind": lambda lib, a: lib.vmap(lambda x: (*x.split(2, 1), *x.chunk(3), *x.unbind(-1)))(a),
    "shape-queries": lambda lib, a: lib.vmap(lambda x: x * (x.dim() + x.size(-1) + x.numel() + len(x)
                                                            + x.shape[0]))(a),
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_views_and_joins_run_batched_with_torchs_values(torch, batched_only, name):
    _both(torch, VIEWS[name], A)


def test_indexing_by_batched_positions_runs_batched_as_torch(torch, batched_only):
    """Hugging Face's mask functions: nested vmaps of an index function reading a table at batched positions."""
    padding = RNG.integers(0, 2, (2, 6)).astype(bool)

    def case(lib, table, a):
        def allowed(b, h, q, k):
            return (k <= q) & table[b, k] & (a[b, h, q] > 0)

        inner = lib.vmap(lib.vmap(allowed, in_dims=(None, None, None, 0)), in_dims=(None, None, 0, None))
        mask = lib.vmap(lib.vmap(inner, in_dims=(None, 0, None, None)), in_dims=(0, None, None, None))
        rows = lib.vmap(lambda i: a[i, :, lib.tensor([4, 0])])(lib.arange(2))
        picks = lib.tensor([2, 0, 1, 1])
        return (mask(*(lib.arange(n) for n in (2, 3, 5, 6))), rows, lib.vmap(lambda x, i: x[i])(a, picks),
                lib.vmap(lambda i: a[:, i])(picks[:3]), lib.vmap(lambda x, i: x[1:, i])(a, picks))

    _both(torch, case, padding, A)


MORE_OPS = {
    "sort-topk": lambda lib, a: lib.vmap(lambda x: (x.sort(), x.argsort(0, descending=True), x.topk(2),
                                                    lib.sort(x, dim=0).values, x.kthvalue(2, 0)))(a),
    "tril-flip-repeat": lambda lib, a: lib.vmap(lambda x: (x.tril(), lib.triu(x, 1), x.flip(0, 1), lib.flip(x, (-1,)),
                                                           x.repeat(2, 1, 3)))(a),
    "norms": lambda lib, a: lib.vmap(lambda x: (x.norm(), x.norm(dim=1), lib.norm(x, 1, dim=0, keepdim=True),
                                                lib.linalg.vector_norm(x), lib.linalg.vector_norm(x, 1, dim=(0, 1)),
                                                lib.nn.functional.normalize(x),
                                                lib.nn.functional.normalize(x, dim=0)))(a),
    "gather-pad-one-hot-unflatten": lambda lib, a: lib.vmap(lambda x: (
        x.gather(1, lib.tensor([[0, 4], [1, 1], [2, 3]])), lib.nn.functional.pad(x, (1, 2)),
        lib.nn.functional.one_hot((x > 0).long().sum(0), 6), x.unflatten(1, (5, 1))))(a),
}


@pytest.mark.parametrize("name", list(MORE_OPS))
def test_sorting_norms_and_other_ops_run_batched_with_torchs_values(torch, batched_only, name):
    _both(torch, MORE_OPS[name], A)


def test_linalg_norm_of_a_matrix_falls_back_to_the_loop(torch, loop_runs):
    _both(torch, lambda lib, a: lib.vmap(lambda x: lib.linalg.norm(x, 2))(a), A)
    assert loop_runs


def test_nn_functional_losses_and_layers_run_batched_with_torchs_values(torch, batched_only):
    targets = np.array([[0, 2, 1], [1, 1, 0], [2, 0, 2], [0, 0, 1]])
    weight = RNG.standard_normal((7, 5)).astype(np.float32)

    def case(lib, a, b, t, w):
        F = lib.nn.functional
        return lib.vmap(lambda x, y, tt: (
            F.mse_loss(x[0], y), F.mse_loss(x[0], y, reduction="sum"), F.l1_loss(x[0], y, reduction="none"),
            F.cross_entropy(x, tt), F.cross_entropy(x[1], tt[0]), F.cross_entropy(x, tt, reduction="sum"),
            F.layer_norm(x, (5,)), F.embedding(tt, w), F.dropout(x, 0.5, training=False)))(a, b, t)

    _both(torch, case, A, B, targets, weight)


@pytest.mark.parametrize("case", [
    lambda lib, a, b: lib.vmap(lambda x, y: x - y, in_dims=(1, None))(a, b[0]),
    lambda lib, a, b: lib.vmap(lambda x: x.sum(0), in_dims=-1)(a),
    lambda lib, a, b: lib.vmap(lambda d: d["x"] @ d["y"], in_dims=({"x": 0, "y": 1},))({"x": b, "y": b.T}),
    lambda lib, a, b: lib.vmap(lambda x: (x * 2, x.sum(-1)), out_dims=(2, -1))(a),
    lambda lib, a, b: lib.vmap(lambda x: x.exp(), out_dims=1)(a),
    lambda lib, a, b: lib.vmap(lambda x, y: (x + 1, y), in_dims=(0, None), out_dims=(0, None))(a, b),
    lambda lib, a, b: lib.vmap(lambda x, y: y * 2, in_dims=(0, None))(a, b),  # an unbatched output broadcasts
    lambda lib, a, b: lib.vmap(lib.vmap(lambda x: x.sum() * x, in_dims=1), in_dims=0)(a),
    lambda lib, a, b: lib.vmap(lib.vmap(lambda x, y: x @ y, in_dims=(0, None)), in_dims=(0, 0))(a, b),
    lambda lib, a, b: lib.vmap(lambda x: x * 3, chunk_size=3)(a),
], ids=["in-dims-1-none", "negative-in-dim", "dict-in-dims", "tuple-out-dims", "out-dims-1", "out-dims-none",
        "unbatched-output", "nested", "nested-mixed", "chunk-size"])
def test_in_dims_out_dims_and_nesting_run_batched_as_torch(torch, batched_only, case):
    _both(torch, case, A, B)


def _mlp_params(lib):
    gen = np.random.default_rng(1)
    return {"0.weight": lib.tensor(gen.standard_normal((8, 5)).astype(np.float32)),
            "0.bias": lib.tensor(gen.standard_normal(8).astype(np.float32)),
            "2.weight": lib.tensor(gen.standard_normal((3, 8)).astype(np.float32)),
            "2.bias": lib.tensor(gen.standard_normal(3).astype(np.float32))}


def _mlp(lib):
    model = lib.nn.Sequential(lib.nn.Linear(5, 8), lib.nn.Tanh(), lib.nn.Linear(8, 3))
    return model


def test_per_sample_gradients_of_an_mlp_run_batched_as_torch(torch, batched_only):
    targets = np.array([0, 2, 1, 1])

    def case(lib, a, b, t):
        model = _mlp(lib)

        def loss(params, x, y):
            out = lib.func.functional_call(model, params, (x.unsqueeze(0),))
            return lib.nn.functional.cross_entropy(out, y.unsqueeze(0))

        grads = lib.vmap(lib.func.grad(loss), in_dims=(None, 0, 0))(_mlp_params(lib), b, t)
        return [grads[k] for k in sorted(grads)]

    _both(torch, case, A, B, targets)


def test_convolutions_pooling_and_per_sample_gradients_of_a_cnn_run_batched_as_torch(torch, batched_only):
    """The per_sample_grads tutorial's model, smaller: conv2d with the weights broadcast over the samples runs as one
    grouped convolution."""
    gen = np.random.default_rng(2)
    images = gen.standard_normal((3, 1, 8, 8)).astype(np.float32)
    targets = np.array([1, 0, 3])

    def case(lib, x, t):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Conv2d(1, 4, 3), lib.nn.ReLU(), lib.nn.Conv2d(4, 6, 3, padding=1),
                                  lib.nn.MaxPool2d(2), lib.nn.Flatten(), lib.nn.Linear(54, 5),
                                  lib.nn.LogSoftmax(dim=1))
        params = {k: v.detach() for k, v in model.named_parameters()}

        def loss(p, sample, target):
            return lib.nn.functional.nll_loss(lib.func.functional_call(model, p, (sample.unsqueeze(0),)),
                                              target.unsqueeze(0))

        grads = lib.vmap(lib.func.grad(loss), in_dims=(None, 0, 0))(params, x, t)
        bn = lib.nn.BatchNorm2d(1).eval()
        F = lib.nn.functional
        pooled = lib.vmap(lambda v: (F.avg_pool2d(v, 2), F.adaptive_max_pool2d(v, 3, return_indices=True),
                                     bn(v.unsqueeze(0)), F.conv1d(v[0], v[0, :, :3].unsqueeze(0))))(x)
        return [grads[k] for k in sorted(grads)], pooled

    _both(torch, case, images, targets, rtol=1e-4, atol=1e-5)


def test_vjp_jvp_and_jacrev_inside_vmap_run_batched_as_torch(torch, batched_only):
    def case(lib, a, b, m):
        f = lambda x: lib.tanh(x @ m).sum(0)  # noqa: E731
        vjp_rows = lib.vmap(lambda x: lib.func.vjp(f, x)[1](lib.ones(2)))(a)
        jvp_rows = lib.vmap(lambda x: lib.func.jvp(f, (x,), (lib.ones_like(x),)))(a)
        jac_rows = lib.vmap(lib.func.jacrev(f))(a)
        grads = lib.vmap(lib.func.grad(lambda x: f(x).pow(2).sum()))(a)
        return vjp_rows, jvp_rows, jac_rows, grads

    _both(torch, case, A, B, M)


def test_jacfwd_and_hessian_inside_vmap_run_batched_as_torch(torch, batched_only):
    """The jacobians_hessians tutorial's batch Jacobians and Hessians: vmap over jacfwd's batch of tangents."""
    def case(lib, a, b, m):
        def predict(x):
            return lib.tanh(x @ m + 0.5)

        return lib.vmap(lib.func.jacfwd(predict))(b), lib.vmap(lib.func.hessian(lambda x: predict(x).sum()))(b)

    _both(torch, case, A, B, M, rtol=1e-4, atol=1e-5)


def test_hessian_computes_jacrevs_rows_batched_under_jacfwd(torch, monkeypatch):
    from core import func

    def one_row_at_a_time(*args, **kwargs):
        raise AssertionError("jacrev ran one backward pass per row")
    monkeypatch.setattr(func, "_blocks", one_row_at_a_time)
    _both(torch, lambda lib, m, b: lib.func.hessian(lambda x: lib.tanh(m.T @ x).sum())(b[0]), M, B,
          rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("transform", ["jacrev", "jacfwd", "hessian", "jacrev-argnums-chunked"])
def test_jacobians_and_hessians_of_an_mlp_match_torch(torch, transform):
    def case(lib, b):
        model = _mlp(lib)
        params = _mlp_params(lib)

        def f(x, w):
            return lib.func.functional_call(model, {**params, "0.weight": w}, (x,))

        if transform == "hessian":
            return lib.func.hessian(lambda x: f(x, params["0.weight"]).pow(2).sum())(b[0])
        if transform == "jacrev-argnums-chunked":
            return lib.func.jacrev(f, argnums=(0, 1), chunk_size=2)(b, params["0.weight"])
        return getattr(lib.func, transform)(f)(b, params["0.weight"])

    _both(torch, case, B, rtol=1e-4, atol=1e-5)  # (float32: the Hessian's second pass rounds as torch's to ~1e-5)


def test_jacrev_computes_its_rows_in_one_batched_call(torch, monkeypatch):
    """PyTorch's jacrev is vmap over the vjp: core's too, without one backward pass per row."""
    from core import func

    def one_row_at_a_time(*args, **kwargs):
        raise AssertionError("jacrev ran one backward pass per row")
    monkeypatch.setattr(func, "_blocks", one_row_at_a_time)
    _both(torch, lambda lib, m, b: lib.func.jacrev(lambda x: lib.tanh(m.T @ x + 1), argnums=0)(b[0]), M, B)


@pytest.mark.parametrize("per_sample", [
    lambda lib, x: x.clone().index_fill_(0, lib.tensor([0]), -1.0),  # an in-place op without a batching rule
    lambda lib, x: x[x > 0].sum(),  # a data-dependent shape
], ids=["no-rule-in-place", "boolean-mask"])
def test_a_call_that_cannot_run_batched_falls_back_to_the_loop(torch, loop_runs, per_sample):
    """NOTE: PyTorch refuses the last one inside vmap; core's loop computes it sample by sample, so torch's
    reference is its own per-sample results, stacked. (where(condition), nonzero and unique are refused in torch's
    words: test_vmap_dynamic_shape_refusals_oracle.py.)"""
    ours = core.vmap(lambda x: per_sample(core, x))(core.tensor(A))
    assert loop_runs, "expected the loop to run"
    assert_same(ours, torch.stack([per_sample(torch, torch.tensor(a)) for a in A]))


@pytest.mark.parametrize("read", [
    lambda lib, x: x * x.sum().item(),
    lambda lib, x: x * float(x.max()),
    lambda lib, x: x * int(x.sum()),
    lambda lib, x: x if x.max() > 0 else -x,  # data-dependent control flow: bool(x)
    lambda lib, x: x * len(x.tolist()),
    lambda lib, x: x * x.numpy().size,
], ids=["item", "float", "int", "control-flow", "tolist", "numpy"])
def test_a_value_read_of_a_batched_tensor_raises_torchs_runtime_error(torch, read):
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            lib.vmap(lambda x, lib=lib: read(lib, x))(lib.tensor(B))
        messages.append((type(info.value), str(info.value)))
    assert messages[0] == messages[1]


def test_a_value_read_of_an_unbatched_tensor_inside_vmap_runs_as_torchs(torch):
    def run(lib):
        scale = lib.tensor(S)
        return lib.vmap(lambda x: x * scale.sum().item() + float(scale[0]))(lib.tensor(B))

    assert_same(run(core), run(torch))


def test_a_fallback_undoes_the_batched_calls_in_place_changes_to_its_inputs(torch, loop_runs):
    def run(lib):
        count, x = lib.zeros(4, dtype=lib.long), lib.tensor(B)

        def per_sample(n, row):
            n.add_(1)
            return row.clone().index_fill_(0, lib.tensor([0]), -1.0)  # (no rule, in place: the loop runs)
        return lib.vmap(per_sample)(count, x), count

    assert_same(run(core), run(torch))
    assert loop_runs


def test_an_op_without_a_rule_runs_per_sample_and_a_later_value_read_is_refused_as_in_torch(torch, loop_runs):
    # NOTE: functorch's slow fallback: the op runs once per sample and the function goes on batched, so a value
    # read after it is refused as any other (core's loop used to run instead and read the value)
    x = core.tensor(A)
    assert_same(core.vmap(lambda r: core.fft.rfft(r).abs())(x), torch.vmap(lambda r: torch.fft.rfft(r).abs())(
        torch.tensor(A)))
    messages = []
    for lib, t in ((core, x), (torch, torch.tensor(A))):
        with pytest.raises(RuntimeError) as info:
            lib.vmap(lambda r, lib=lib: r * lib.fft.rfft(r).abs().sum().item())(t)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert not loop_runs


def test_errors_inside_func_are_the_loops_and_torchs(torch, loop_runs):
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            lib.vmap(lambda x, y: x @ y)(lib.tensor(A), lib.tensor(A))
        messages.append(str(info.value))
    assert loop_runs
    assert type(messages[0]) is type(messages[1])


def test_random_ops_fall_back_to_the_loop_and_keep_its_randomness(torch, loop_runs):
    core.manual_seed(0)
    same = core.vmap(lambda x: x * 0 + core.rand(5), randomness="same")(core.tensor(B))
    assert loop_runs and np.array_equal(to_numpy(same[0]), to_numpy(same[1]))
    with pytest.raises(RuntimeError, match="randomness error mode"):
        core.vmap(lambda x: x + core.rand(5))(core.tensor(B))


def test_a_batched_tensor_that_escapes_its_vmap_raises_when_used():
    kept = []
    core.vmap(lambda x: kept.append(x) or x * 2)(core.tensor(B))
    with pytest.raises(RuntimeError, match="outside the vmap call that made it"):
        core.vmap(lambda y: y + kept[0])(core.tensor(B))


def test_a_users_autograd_function_falls_back_to_the_loop(torch, loop_runs):
    class Twice(core.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2

    out = core.vmap(Twice.apply)(core.tensor(B))
    assert loop_runs and np.array_equal(to_numpy(out), B * 2)


# ----- the batched path and the loop agree --------------------------------------------------------------------
SAME_OPS = {**ELEMENTWISE, **{k: (lambda f: lambda lib, a, b: f(lib, a))(v) for k, v in REDUCTIONS.items()},
            **{k: (lambda f: lambda lib, a, b: f(lib, a))(v) for k, v in VIEWS.items()}}
# NOTE: float32 sigmoid and silu differ in the last bit: their SLEEF loop computes whole vectors and leaves the tail
# of an array to glibc, so an element's rounding depends on where it falls in the array (PyTorch's batched kernel
# rounds it as the batched path does); products run as one batched matmul (vec-vec: a product and a sum, as
# PyTorch's rule), whose rounding may differ from each sample's own product
ROUNDING_MAY_DIFFER = {"activations"}


def _by_loop(monkeypatch, call):
    def refuse(*args, **kwargs):
        raise _vmap_batched.Unbatchable("forced")
    with monkeypatch.context() as patch:
        patch.setattr(_vmap_batched, "call", refuse)
        return call()


@pytest.mark.parametrize("name", list(SAME_OPS))
def test_the_batched_path_gives_the_loops_values(monkeypatch, name):
    case = SAME_OPS[name]
    batched = case(core, core.tensor(A), core.tensor(B))
    looped = _by_loop(monkeypatch, lambda: case(core, core.tensor(A), core.tensor(B)))
    ours, theirs = core.utils._pytree.tree_flatten(batched)[0], core.utils._pytree.tree_flatten(looped)[0]
    for o, t in zip(ours, theirs):
        if not isinstance(o, core.Tensor):
            assert o == t
        elif name in ROUNDING_MAY_DIFFER:
            assert_same(o, t)
        else:
            assert o.dtype == t.dtype and np.array_equal(to_numpy(o), to_numpy(t)), name


@pytest.mark.parametrize("name", list(PRODUCTS))
def test_batched_products_agree_with_the_loop_to_rounding(monkeypatch, name):
    case = PRODUCTS[name]
    arrays = [core.tensor(x) for x in (A, B, M)]
    assert_same(case(core, *arrays), _by_loop(monkeypatch, lambda: case(core, *arrays)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("transposed", [True, False])
def test_a_stack_of_outer_products_is_torchs_bmm_bit_for_bit(torch, dtype, transposed):
    """A per-sample weight gradient under vmap is a stack of (n, 1) @ (1, m) products (the input's transposed
    view, 64x784x1, took NumPy's slow element loop): each element is one rounded product, and a -0 product
    gives +0 as torch's bmm."""
    rng = np.random.default_rng(1)
    col = rng.standard_normal((6, 40, 1)).astype(dtype)
    row = rng.standard_normal((6, 1, 30)).astype(dtype)
    col[:, :3] = -1.0
    row[:, :, :4] = 0.0  # -1 * 0: a -0 product
    if transposed:
        col = np.ascontiguousarray(col.transpose(0, 2, 1)).transpose(0, 2, 1)  # (…, 40, 1) with strides (40, 1, 40)
    ours = core.bmm(core.from_numpy(col), core.from_numpy(row))
    theirs = torch.bmm(torch.from_numpy(col), torch.from_numpy(row))
    assert_same(ours, theirs)
    a, b = to_numpy(ours), to_numpy(theirs)
    assert np.array_equal(a, b) and np.array_equal(np.signbit(a), np.signbit(b))


def test_per_sample_gradients_of_a_linear_layer_match_torchs_zero_signs_too(torch, batched_only):
    """Per-sample weight gradients of a layer whose weight broadcasts over the samples (stacks of outer products)
    with zero inputs, whose products with negative gradients are zeros of either sign: torch's values and signs."""
    rng = np.random.default_rng(2)
    weight = rng.standard_normal((16, 24)).astype(np.float32)
    bias = rng.standard_normal(16).astype(np.float32)
    xs = rng.standard_normal((8, 24)).astype(np.float32)
    xs[:, :5] = 0.0

    def case(lib, w, b, x):
        def loss(w, b, x):
            return lib.tanh(lib.nn.functional.linear(x, w, b)).sum()
        return lib.func.vmap(lib.func.grad(loss, argnums=(0, 1)), in_dims=(None, None, 0))(w, b, x)

    ours, theirs = _both(torch, case, weight, bias, xs)[0], case(torch, *map(torch.tensor, (weight, bias, xs)))[0]
    assert np.array_equal(np.signbit(to_numpy(ours)), np.signbit(to_numpy(theirs)))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float64", "int32", "complex64"])
def test_batched_tensors_report_each_dtype_as_torch(torch, batched_only, dtype):
    """A batched tensor's logical metadata comes from a meta storage keyed by the physical storage's dtype."""
    def case(lib, a):
        x = a.to(getattr(lib, dtype))
        return lib.vmap(lambda s: ((s * s).to(s.dtype), lib.zeros(s.shape[1], dtype=s.dtype) + s.sum(0)))(x)

    ours, theirs = case(core, core.tensor(A)), case(torch, torch.tensor(A))
    for o, t in zip(ours, theirs):
        assert str(o.dtype) == str(t.dtype)
        assert_same(o.to(core.complex128), t.to(torch.complex128), rtol=1e-2, atol=1e-2)
