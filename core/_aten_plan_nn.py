"""The ATen operators of ``torch.nn.functional`` calls, for ``__torch_dispatch__`` (``core._aten_plan``'s part for
layers): ``F.linear`` as ``t`` + ``addmm``, convolutions as ``aten.convolution``, pools as ``max_pool2d_with_indices``
and ``avg_pool2d`` with list arguments, dropout as torch's ``empty_like`` + ``bernoulli_`` + ``div_`` + ``mul``,
layer norm as ``native_layer_norm``, losses with ATen's integer reduction, ``cross_entropy`` as ``_log_softmax`` +
``nll_loss_forward``. Arguments left at their defaults at the end are left out, as torch's dispatcher passes them.
"""

from __future__ import annotations

from core._aten_ops import aten
from core._aten_plan import _bound, _matmul

__all__ = ["NN_SPECIAL"]

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _linear(namespace, original, args, kwargs):
    """torch's ``linear``: ``t`` and ``addmm`` (``mm`` without bias) on a matrix, the rest through ``matmul``."""
    values = _bound(original, args, kwargs)
    x, w, b = values["input"], values["weight"], values.get("bias")
    if x.dim() == 2 and b is not None:
        return aten.addmm.default(b, x, aten.t.default(w))
    if b is not None and x.dim() != 0 and x.is_contiguous():
        rows = 1
        for s in x.shape[:-1]:
            rows *= s
        flat = aten.view.default(x, [rows, x.shape[-1]])
        out = aten.addmm.default(b, flat, aten.t.default(w))
        return aten.view.default(out, [*x.shape[:-1], out.shape[-1]])
    out = _matmul(x, aten.t.default(w))
    return out if b is None else aten.add.Tensor(out, b)


def _layer_norm_call(namespace, original, args, kwargs):
    values = _bound(original, args, kwargs)
    shape = values["normalized_shape"]
    shape = [shape] if isinstance(shape, int) else list(shape)
    return aten.native_layer_norm.default(values["input"], shape, values.get("weight"), values.get("bias"),
                                          values.get("eps", 1e-05))[0]


def _reduction(values) -> int:
    """ATen's integer reduction (0 none, 1 mean, 2 sum), from the legacy ``size_average``/``reduce`` too."""
    size_average, reduce = values.get("size_average"), values.get("reduce")
    if size_average is not None or reduce is not None:
        if reduce is False:
            return 0
        return 2 if size_average is False else 1
    return _REDUCTIONS[values.get("reduction", "mean")]


def _loss_call(name: str):
    def call(namespace, original, args, kwargs):
        values = _bound(original, args, kwargs)
        reduction = _reduction(values)
        tail = [] if reduction == 1 else [reduction]
        return getattr(aten, name).default(values["input"], values["target"], *tail)
    return call


def _nll_loss_call(namespace, original, args, kwargs):
    values = _bound(original, args, kwargs)
    return _nll(values["input"], values["target"], values.get("weight"), _reduction(values),
                values.get("ignore_index", -100))


def _nll(logp, target, weight, reduction, ignore_index):
    if logp.dim() > 2:
        raise NotImplementedError("__torch_dispatch__: core cannot run nll_loss on more than 2-d input as ATen "
                                  "operators (nll_loss2d_forward)")
    return aten.nll_loss_forward.default(logp, target, weight, reduction, ignore_index)[0]


def _cross_entropy_call(namespace, original, args, kwargs):
    values = _bound(original, args, kwargs)
    x, target = values["input"], values["target"]
    if values.get("label_smoothing", 0.0) or target.is_floating_point():
        raise NotImplementedError("__torch_dispatch__: core cannot run cross_entropy with label smoothing or "
                                  "class probabilities as ATen operators")
    logp = aten._log_softmax.default(x, 1 if x.dim() > 1 else 0, False)
    return _nll(logp, target, values.get("weight"), _reduction(values), values.get("ignore_index", -100))


def _dropout_torch(namespace, original, args, kwargs):
    """torch's CompositeImplicit dropout: a Bernoulli mask drawn in place, scaled, then multiplied in."""
    values = _bound(original, args, kwargs)
    x, p, training = values["input"], values.get("p", 0.5), values.get("training", True)
    if values.get("inplace"):
        raise NotImplementedError("__torch_dispatch__: core cannot run an in-place dropout as ATen operators")
    if not training or p == 0:
        return x
    if p == 1:
        return aten.mul.Tensor(x, aten.zeros_like.default(x, pin_memory=False))
    noise = aten.empty_like.default(x)
    aten.bernoulli_.float(noise, *([] if 1 - p == 0.5 else [1 - p]))
    aten.div_.Scalar(noise, 1 - p)
    return aten.mul.Tensor(x, noise)


def _listed(value, n: int) -> list:
    return [value] * n if isinstance(value, int) else list(value)


def _trimmed(values: list, defaults: list) -> list:
    """``values`` without the trailing ones equal to their defaults."""
    while values and defaults and values[-1] == defaults[-1]:
        values, defaults = values[:-1], defaults[:-1]
    return values


def _convolution(n: int):
    def call(namespace, original, args, kwargs):
        values = _bound(original, args, kwargs)
        padding = values.get("padding", 0)
        if isinstance(padding, str):
            raise NotImplementedError(f"__torch_dispatch__: core cannot run conv{n}d with padding={padding!r} as "
                                      "ATen operators")
        return aten.convolution.default(values["input"], values["weight"], values.get("bias"),
                                        _listed(values.get("stride", 1), n), _listed(padding, n),
                                        _listed(values.get("dilation", 1), n), False, [0] * n,
                                        values.get("groups", 1))
    return call


def _max_pool(n: int):
    def call(namespace, original, args, kwargs):
        values = _bound(original, args, kwargs)
        if values.get("return_indices"):
            raise NotImplementedError(f"__torch_dispatch__: core cannot run max_pool{n}d(return_indices=True) as "
                                      "ATen operators")
        stride = values.get("stride")
        tail = _trimmed([[] if stride is None else _listed(stride, n), _listed(values.get("padding", 0), n),
                         _listed(values.get("dilation", 1), n), bool(values.get("ceil_mode", False))],
                        [[], [0] * n, [1] * n, False])
        op = getattr(aten, f"max_pool{n}d_with_indices").default
        return op(values["input"], _listed(values["kernel_size"], n), *tail)[0]
    return call


def _avg_pool(n: int):
    def call(namespace, original, args, kwargs):
        values = _bound(original, args, kwargs)
        stride = values.get("stride")
        tail = _trimmed([[] if stride is None else _listed(stride, n), _listed(values.get("padding", 0), n),
                         bool(values.get("ceil_mode", False)), bool(values.get("count_include_pad", True)),
                         values.get("divisor_override")], [[], [0] * n, False, True, None])
        return getattr(aten, f"avg_pool{n}d").default(values["input"], _listed(values["kernel_size"], n), *tail)
    return call


def _adaptive_avg_pool(n: int):
    def call(namespace, original, args, kwargs):
        values = _bound(original, args, kwargs)
        x, size = values["input"], _listed(values["output_size"], n)
        if all(s == 1 for s in size):  # torch's shortcut: a mean over the pooled dims
            return aten.mean.dim(x, list(range(-1, -n - 1, -1)), True)
        size = [x.shape[-n + i] if s is None else s for i, s in enumerate(size)]
        return getattr(aten, f"adaptive_avg_pool{n}d").default(x, size)  # (torch's kernel: _adaptive_avg_pool)
    return call


def _batch_norm(namespace, original, args, kwargs):
    """torch's CPU batch norm: an empty reserve buffer, then ``native_batch_norm`` (training or not)."""
    import core

    values = _bound(original, args, kwargs)
    x = values["input"]
    aten.empty.memory_format([0], dtype=core.uint8, layout=core.strided, device=x.device)
    return aten.native_batch_norm.default(x, values.get("weight"), values.get("bias"), values.get("running_mean"),
                                          values.get("running_var"), bool(values.get("training", False)),
                                          values.get("momentum", 0.1), values.get("eps", 1e-05))[0]


NN_SPECIAL = {
    "linear": _linear, "dropout": _dropout_torch, "layer_norm": _layer_norm_call,
    "mse_loss": _loss_call("mse_loss"), "l1_loss": _loss_call("l1_loss"), "nll_loss": _nll_loss_call,
    "cross_entropy": _cross_entropy_call, "batch_norm": _batch_norm,
    **{f"conv{n}d": _convolution(n) for n in (1, 2, 3)},
    "max_pool2d": _max_pool(2), "max_pool3d": _max_pool(3), "avg_pool2d": _avg_pool(2), "avg_pool3d": _avg_pool(3),
    "adaptive_avg_pool2d": _adaptive_avg_pool(2), "adaptive_avg_pool3d": _adaptive_avg_pool(3),
}
