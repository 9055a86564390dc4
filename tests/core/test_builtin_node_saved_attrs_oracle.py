"""A built-in grad_fn's ``_saved_<name>`` attributes, as PyTorch's C++ nodes show them: the same names in
``dir(grad_fn)`` and the same values (tensors element for element, ints, sizes, flags, None). torchviz's
``make_dot(show_attrs=True)`` draws every ``_saved_`` attribute it finds in ``dir`` (#19)."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _cases(lib) -> dict:
    """Name -> a tensor whose grad_fn is the node compared; every input is made from the same seeded arrays."""
    F = lib.nn.functional
    rng = np.random.default_rng(0)

    def t(*shape, grad=True):
        return lib.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=grad)

    x, y, m, b, w = t(2, 3), t(2, 3), t(3, 4), t(4), t(4, 3)
    batch, batch2, img, kernel = t(2, 3, 4), t(2, 4, 5), t(1, 2, 5, 5), t(3, 2, 3, 3)
    frozen_x, frozen_m = t(2, 3, grad=False), t(3, 4, grad=False)
    pos = lib.tensor(rng.random((2, 3)).astype(np.float32) + 0.5, requires_grad=True)
    target = lib.tensor([0, 2])
    return {
        "mul": x * y, "mul_number": x * 2, "div": x / y, "pow_number": x ** 2, "pow_tensor": pos ** y,
        "add_alpha": lib.add(x, y, alpha=3), "sub_alpha": lib.sub(x, y, alpha=2),
        "addmm": lib.addmm(b, x, m), "addmm_frozen_mat1": lib.addmm(b, frozen_x, m),
        "addmm_frozen_mat2": lib.addmm(b, x, frozen_m), "mm": x.mm(m), "mm_frozen": frozen_x.mm(m),
        "matmul": x.matmul(m), "matmul_vector": x.matmul(lib.ones(3)), "bmm": batch.bmm(batch2),
        "linear": F.linear(x, w, b), "linear_no_bias": F.linear(x, w), "linear_frozen_input": F.linear(frozen_x, w, b),
        "linear_frozen_weight": F.linear(x, w.detach(), b),
        "tanh": x.tanh(), "sigmoid": x.sigmoid(), "exp": x.exp(), "log": pos.log(), "relu": x.relu(),
        "sum": x.sum(), "sum_dim": x.sum(-1), "sum_dims_keepdim": x.sum((1, 0), keepdim=True),
        "sum_none_keepdim": x.sum(None, keepdim=True), "mean": x.mean(), "mean_dim": x.mean(-1, keepdim=True),
        "view": x.view(3, 2), "reshape": x.reshape(6), "t": x.t(), "transpose": batch.transpose(-1, 0),
        "expand": b.expand(2, 4), "permute": batch.permute(-1, 0, 1), "permute_list": batch.permute([2, 0, 1]),
        "unsqueeze": x.unsqueeze(-1), "squeeze": x.unsqueeze(1).squeeze(), "squeeze_dim": x.unsqueeze(1).squeeze(-2),
        "squeeze_dims": x.unsqueeze(1).squeeze((1, -1)),
        "layer_norm": F.layer_norm(x, (3,)),
        "layer_norm_affine": F.layer_norm(batch, (4,), lib.ones(4, requires_grad=True),
                                          lib.zeros(4, requires_grad=True)),
        "conv2d": F.conv2d(img, kernel), "conv2d_bias": F.conv2d(img, kernel, t(3), stride=2, padding=1),
        "conv1d": F.conv1d(t(1, 2, 7), t(3, 2, 3), dilation=2),
        "embedding": F.embedding(lib.tensor([[0, 2], [1, 3]]), t(4, 3)),
        "embedding_padding": F.embedding(lib.tensor([0, 2]), t(4, 3), padding_idx=-1),
        "softmax": F.softmax(x, 1), "log_softmax": F.log_softmax(x, -1),
        "nll_loss": F.nll_loss(F.log_softmax(x, 1), target),
        "cross_entropy_sum": F.cross_entropy(x, target, reduction="sum"),
        "mse_loss": F.mse_loss(x, y), "mse_loss_none": F.mse_loss(x, y, reduction="none"),
        "max": x.max(), "min": x.min(), "max_dim": x.max(-1)[0], "min_dim_keepdim": x.min(0, keepdim=True)[0],
        "amax": x.amax(1), "amax_negative": batch.amax(-1), "amin_dims": batch.amin([-1, 0], keepdim=True),
        "sum_no_dims": x.sum(dim=[]), "kthvalue": x.kthvalue(2, -1)[0],
        **_activation_cases(lib, x, y, pos), **_index_cases(lib, x, y), **_norm_pool_cases(lib, t(4, 3), img),
        **_loss_reduction_cases(lib, x, y, pos), **_shape_product_cases(lib, x, y, pos),
    }


def _loss_reduction_cases(lib, x, y, pos) -> dict:
    """BCE (its weight expanded to the input, as torch's function does), BCE with logits, smooth L1 and Huber; prod,
    cumprod, logsumexp, var and std (dims as given, var's correction None where the call gave no dim, unbiased or
    correction), std_mean/var_mean; vector norms (the ord as given: x.norm()'s 2, linalg.norm's 2.0)."""
    F, ones = lib.nn.functional, lib.ones(2, 3)
    return {
        "bce": F.binary_cross_entropy(pos.sigmoid(), ones), "bce_weight": F.binary_cross_entropy(
            pos.sigmoid(), ones, weight=lib.full((3,), 2.0), reduction="sum"),
        "bce_logits": F.binary_cross_entropy_with_logits(x, ones), "bce_logits_weights": (
            F.binary_cross_entropy_with_logits(x, ones, weight=lib.full((3,), 2.0), pos_weight=lib.ones(3))),
        "smooth_l1": F.smooth_l1_loss(x, y, beta=0.5), "huber": F.huber_loss(x, y.detach(), delta=2, reduction="none"),
        "prod": x.prod(), "prod_dim": x.prod(-1, keepdim=True), "cumprod": x.cumprod(-1),
        "logsumexp": x.logsumexp(-1), "logsumexp_dims": x.logsumexp((0, 1), keepdim=True), "var": x.var(),
        "var_dim": x.var(-1, unbiased=False), "var_correction": x.var(correction=0), "var_list": x.var([0, 1]),
        "std": x.std(), "std_dim": x.std(0, keepdim=True), "std_mean": lib.std_mean(x, 1)[0],
        "var_mean": lib.var_mean(x, -1)[0], "norm": x.norm(), "norm_dim": x.norm(p=1, dim=-1),
        "vector_norm": lib.linalg.vector_norm(x, 3, dim=(0, -1), keepdim=True), "linalg_norm": lib.linalg.norm(x),
        "torch_norm": lib.norm(x, 2.5), "normalize": F.normalize(x),
    }


def _shape_product_cases(lib, x, y, pos) -> dict:
    """flip/roll (dims as given), repeat, tril/triu (in place too), trace; dot, vdot, atan2, addcmul/addcdiv and
    baddbmm (each factor saved only for the other's gradient, as torch's); sort/topk/glu (dims as given),
    pixel_shuffle; square's int exponent, lerp's number weight as given; median's and masked_select's inputs;
    cummax/cummin (the dim as given, the input and the indices), diag_embed's offset and dims as given; dist's p
    as given."""
    return {
        "flip": x.flip(-1), "roll": x.roll(-1, -1), "roll_flat": x.roll(1), "roll_dims": x.roll((1, 2), (0, 1)),
        "repeat": x.repeat(2, 1, 1), "tril": x.tril(), "triu": x.triu(-1), "tril_inplace": (x * 1).tril_(1),
        "trace": x[:, :2].trace(), "dot": lib.dot(x[0], y[0]), "dot_frozen": lib.dot(x[0], y[0].detach()),
        "vdot": lib.vdot(x[0], y[0]), "atan2": lib.atan2(x, y), "addcmul": lib.addcmul(x, x, y),
        "addcmul_frozen": lib.addcmul(x, x, y.detach(), value=2), "addcdiv": lib.addcdiv(x, x, pos, value=0.5),
        "addcdiv_frozen": lib.addcdiv(x, x.detach(), pos), "sort": x.sort().values,
        "sort_stable": x.sort(stable=True, dim=0).values, "topk": x.topk(2).values, "topk_dim": x.topk(1, 0).values,
        "glu": lib.nn.functional.glu(x.reshape(3, 2)), "glu_dim": lib.nn.functional.glu(x.reshape(2, 3), 0),
        "pixel_shuffle": lib.nn.functional.pixel_shuffle(lib.cat([x, y]).reshape(1, 4, 1, 3), 2),
        "take": x.take(lib.tensor([[0, 5]])), "pairwise_distance": lib.nn.functional.pairwise_distance(x, y, p=1),
        "logcumsumexp": x.logcumsumexp(-1), "logcumsumexp_dim": x.logcumsumexp(0), "square": x.square(),
        "diag": lib.diag(x[0]), "diag_offset": lib.diag(x[0], -1), "diag_embed": lib.diag_embed(x, 1, -1, 0),
        "dist": lib.dist(x, y), "dist_p": lib.dist(x, y.detach(), 1.5), "dist_inf": lib.dist(x, y, float("inf")),
        "cummax": x.cummax(-1).values, "cummin": x.cummin(0).values, "cummax_0d": x[0, 0].cummax(0).values,
        "lerp": lib.lerp(x, y, 0.3), "lerp_int": lib.lerp(x, y, 1), "lerp_tensor": lib.lerp(x, y, pos),
        "median": x.median(), "nanmedian": x.nanmedian(), "masked_select": x.masked_select(x > 0),
        "baddbmm": lib.baddbmm(x[:, :1].reshape(2, 1, 1), x.reshape(2, 1, 3), y.reshape(2, 3, 1), beta=2, alpha=0.5),
    }


def _norm_pool_cases(lib, x, img) -> dict:
    """Batch norm (the batch's mean and invstd while training, empty tensors in eval, the running buffers) and the
    2-d poolings (sizes as the call gave them: an int twice, no stride as ()); group norm (its mean and rstd outputs
    with the node as grad_fn, N, C, HxW, the groups and eps); pads as given (a negative one wrapped
    to 64 bits) and reflection's saved input; upsampling's sizes, scales (None where computed) and align_corners."""
    F = lib.nn.functional

    def bn(data, training, stats=True):
        c = data.shape[1]
        mean, var = (lib.zeros(c, dtype=data.dtype), lib.ones(c, dtype=data.dtype)) if stats else (None, None)
        return F.batch_norm(data, mean, var, lib.ones(c, dtype=data.dtype, requires_grad=True),
                            lib.zeros(c, dtype=data.dtype, requires_grad=True), training=training)
    return {
        "batch_norm": bn(x, True), "batch_norm_eval": bn(x, False), "batch_norm_no_stats": bn(x, True, False),
        "batch_norm_2d": bn(img, True),  # (float64's invstd differs from torch's in a last bit: not compared)
        "max_pool2d": F.max_pool2d(img, 2), "max_pool2d_args": F.max_pool2d(img, (3, 2), [1, 2], 1, ceil_mode=True),
        "avg_pool2d": F.avg_pool2d(img, 2), "avg_pool2d_divisor": F.avg_pool2d(img, 2, divisor_override=3),
        "avg_pool2d_args": F.avg_pool2d(img, 3, stride=1, padding=1, count_include_pad=False),
        "pad": F.pad(x, (1, -1)), "pad_reflect": F.pad(img, [1, 0, 2, 1], mode="reflect"),
        "pad_replicate": F.pad(img[0], (1, 2), mode="replicate"),
        "upsample_nearest": F.interpolate(img, scale_factor=2), "upsample_size": F.interpolate(img, size=(3, 7)),
        "upsample_bilinear": F.interpolate(img, scale_factor=(2, 1.5), mode="bilinear"),
        "upsample_recomputed": F.interpolate(img, scale_factor=1.5, mode="bilinear", align_corners=True,
                                             recompute_scale_factor=True),
        "upsample_linear": F.interpolate(img[0], scale_factor=2, mode="linear"),
        "adaptive_max_pool2d": F.adaptive_max_pool2d(img, 2),
        "adaptive_max_pool2d_3d": F.adaptive_max_pool2d(img[0], 3),
        "group_norm": F.group_norm(img, 1), "group_norm_affine": F.group_norm(
            img, 2, lib.ones(2, requires_grad=True), lib.zeros(2, requires_grad=True), eps=1e-3),
        "group_norm_3d": F.group_norm(x.reshape(2, 2, 3, 1)[..., 0], 2), "group_norm_2d": F.group_norm(x, 3),
    }


def _index_cases(lib, x, y) -> dict:
    """Select, gather, scatter, index_* and masked_fill: the dim and the index tensor as the call gave them (a
    negative dim wrapped to 64 bits), the source only where it needs a gradient."""
    idx, col = lib.tensor([1, 0]), lib.tensor([[0], [1]])
    return {
        "select_negative": x.select(-1, -1), "index_negative": x[:, -1], "select": x.select(0, 1),
        "gather": x.gather(1, lib.tensor([[0, 1], [2, 0]])), "gather_negative": x.gather(-1, lib.tensor([[2], [0]])),
        "index_select": x.index_select(-1, idx), "scatter": x.scatter(1, col, y[:, :1]),
        "scatter_value": x.scatter(-1, col, 2.0), "scatter_add": x.scatter_add(-1, col, y[:, :1]),
        "index_fill": x.index_fill(-1, idx[:1], 0.5), "index_fill_tensor": x.index_fill(1, idx, lib.tensor(2.0)),
        "index_add": x.index_add(-1, idx, y[:, :2], alpha=2),
        "index_add_frozen": x.index_add(1, idx, y.detach()[:, 1:]),
        "index_copy": x.index_copy(1, idx, y[:, :2]), "cumsum": x.cumsum(-1), "cumsum_dim": x.cumsum(0),
        "masked_fill": x.masked_fill(x > 0, 1.0), "masked_fill_tensor": x.masked_fill(x > 0, lib.tensor(1.0)),
        "masked_fill_inplace": (x * 1).masked_fill_(x > 0, 1.0), "index": x[idx], "index_columns": x[:, idx],
        "index_list": x[[0, 1]], "index_two": x.unsqueeze(0)[[0, 0], :, idx],  # (a bool mask: see _index_tensors)
    }


def _activation_cases(lib, x, y, pos) -> dict:
    """Activations, clamps, maximum/minimum, where and number ** tensor: the input saved as ``_saved_self``, the
    call's numbers as it gave them (an int stays an int: relu6's bounds, elu's scales); prelu's weight as the view
    its kernel reads, logsigmoid's ``_saved_buffer`` (its kernel's exp(-|x|), element for element)."""
    F = lib.nn.functional
    return {
        "leaky_relu": F.leaky_relu(x, 0.2), "hardtanh": F.hardtanh(x), "relu6": F.relu6(x),
        "threshold": F.threshold(x, 0.1, 20.0), "elu": F.elu(x), "selu": F.selu(x), "celu": F.celu(x, 0.5),
        "silu": F.silu(x), "softplus": F.softplus(x, beta=2, threshold=10), "mish": F.mish(x),
        "hardsigmoid": F.hardsigmoid(x), "hardswish": F.hardswish(x), "gelu": F.gelu(x),
        "gelu_tanh": F.gelu(x, approximate="tanh"),
        "clamp": x.clamp(-0.5, 0.5), "clamp_min": x.clamp(min=0.1), "clamp_min_fn": lib.clamp_min(x, 0.1),
        "clamp_max_fn": lib.clamp_max(x, 1), "clamp_tensors": x.clamp(y, y + 1), "clamp_min_tensor": x.clamp(min=y),
        "clamp_max_tensor_fn": lib.clamp_max(x, y), "maximum": lib.maximum(x, y), "minimum": lib.minimum(x, y),
        "fmax": lib.fmax(x, y), "where": lib.where(x > 0, x, y), "pow_number_base": 2 ** x,
        "pow_float_base": 2.5 ** pos, "mul_frozen": x * y.detach(), "div_number": x / 3,
        "prelu": F.prelu(x, lib.tensor([0.25], requires_grad=True)),
        "prelu_channels": F.prelu(x.reshape(1, 2, 3), lib.tensor([0.25, -0.5], requires_grad=True)),
        "logsigmoid": F.logsigmoid(x), "logsigmoid_double": F.logsigmoid(x.double()),
    }


def _saved(fn) -> dict:
    return {name: getattr(fn, name) for name in dir(fn) if name.startswith("_saved_")}


def _raw_names(fn) -> list:
    return sorted(name for name in dir(fn) if name.startswith("_raw_saved_"))


def _comparable(value):
    if hasattr(value, "detach"):
        return ("tensor", tuple(value.shape), str(value.dtype).split(".")[-1], value.requires_grad,
                type(value.grad_fn).__name__, value.detach().numpy().tolist())
    if isinstance(value, tuple):  # (ints, or tensors and None: IndexBackward0's indices)
        return ("tuple", tuple(_comparable(v) for v in value))
    return (type(value).__name__, value)


@pytest.fixture(scope="module")
def both():
    import torch  # (the oracle; the module is skipped without it below)

    return _cases(core), _cases(torch)


@pytest.mark.parametrize("case", list(_cases(core)))
def test_builtin_node_lists_and_answers_torchs_saved_attributes(torch, both, case):
    ours, theirs = both[0][case].grad_fn, both[1][case].grad_fn
    assert type(ours).__name__ == type(theirs).__name__
    mine, torchs = _saved(ours), _saved(theirs)
    assert sorted(mine) == sorted(torchs)
    assert {k: _comparable(v) for k, v in mine.items()} == {k: _comparable(v) for k, v in torchs.items()}
    assert _raw_names(ours) == _raw_names(theirs)


def test_saved_inputs_and_results_are_the_tensors_torch_returns(torch):
    for lib in (core, torch):
        x = lib.ones(2, 3, requires_grad=True)
        m = lib.ones(3, 4, requires_grad=True)
        product, tanh = x.mm(m), x.tanh()
        assert product.grad_fn._saved_self is x and product.grad_fn._saved_mat2 is m
        assert tanh.grad_fn._saved_result is not tanh and tanh.grad_fn._saved_result.grad_fn is tanh.grad_fn


def test_sizes_stay_readable_after_backward_as_torchs(torch):
    results = []
    for lib in (core, torch):
        x = lib.ones(2, 3, requires_grad=True)
        total = x.sum(-1)
        total.sum().backward()
        results.append((total.grad_fn._saved_self_sym_sizes, total.grad_fn._saved_dim, total.grad_fn._saved_keepdim))
    assert results[0] == results[1]


def test_convolution_double_backward_records_torchs_node_and_edges(torch):
    graphs = []
    for lib in (core, torch):
        lib.manual_seed(0)
        x = lib.ones(1, 1, 6, 6, requires_grad=True)
        w = lib.full((2, 1, 3, 3), 0.5, requires_grad=True)
        (grad,) = lib.autograd.grad(lib.nn.functional.conv2d(x, w).tanh().sum(), x, create_graph=True)
        node = grad.grad_fn
        graphs.append((node.name(), [None if f is None else f.name() for f, _ in node.next_functions],
                       grad.detach().numpy().tolist()))
    assert graphs[0] == graphs[1]


def test_max_pool_double_backward_has_an_edge_to_the_pooled_input_as_torchs(torch):
    graphs = []
    for lib in (core, torch):
        x = lib.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
        h = x.tanh()
        (grad,) = lib.autograd.grad(lib.nn.functional.max_pool2d(h, 2).pow(2).sum(), h, create_graph=True)
        node = grad.grad_fn
        graphs.append((node.name(), [None if f is None else f.name() for f, _ in node.next_functions],
                       grad.detach().numpy().tolist()))
    assert graphs[0] == graphs[1]


def test_raw_saved_handles_where_nothing_or_a_kept_index_was_saved_behave_as_torchs(torch):
    seen = []
    for lib in (core, torch):
        x = lib.tensor([[1.0, 5.0, 2.0], [4.0, 0.5, 3.0]], requires_grad=True)
        with pytest.raises(RuntimeError) as none:
            (x * 3).grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
        node = x.max(1)[0].grad_fn
        node._raw_saved_indices.register_hooks(lambda t: t + 1, lambda t: t * 10)
        with pytest.raises(RuntimeError) as twice:
            node._raw_saved_indices.register_hooks(lambda t: t, lambda t: t)
        index = x[:, lib.tensor([2, 0])].grad_fn
        handles = index._raw_saved_indices
        handles[1].register_hooks(lambda t: t - 1, lambda t: t * 3)
        with pytest.raises(RuntimeError) as empty:
            handles[0].register_hooks(lambda t: t, lambda t: t)
        seen.append((str(none.value), str(twice.value), node._saved_indices.tolist(), len(handles), str(empty.value),
                     [None if i is None else i.tolist() for i in index._saved_indices]))
    assert seen[0] == seen[1]


def test_clamp_by_one_tensor_bound_has_torchs_two_edges_and_gradients(torch):
    seen = []
    for lib in (core, torch):
        x, bound = lib.tensor([1.0, -2.0, 3.0], requires_grad=True), lib.tensor([0.0, 0.0, 5.0], requires_grad=True)
        nodes = [lib.clamp_min(x, bound), lib.clamp_max(x, bound)]
        edges = [[None if f is None else f.name() for f, _ in n.grad_fn.next_functions] for n in nodes]
        sum(n * lib.arange(3.0) for n in nodes).sum().backward()
        seen.append((edges, x.grad.tolist(), bound.grad.tolist()))
    assert seen[0] == seen[1]
