"""Expanded Weights: per-sample gradients as PyTorch's ``torch.nn.utils._expanded_weights`` computes them.

``call_for_per_sample_grads`` (``_per_sample_grad``) runs a module with each trainable parameter replaced by an
``ExpandedWeight``: a Tensor subclass over the parameter whose ``__torch_function__`` takes the layers that know
their per-sample gradient (linear, 1-3-d convolutions, embedding, layer/group/instance norm) and refuses every other
function, as torch's does. Each taken call runs as one autograd ``Function``: its forward is the plain function on
the original parameters; its backward hands the input its gradient and stores each parameter's per-sample gradient
in ``param.grad_sample`` (added to one already there; times the batch size for a ``"mean"`` loss) instead of
``param.grad``, which stays None. Opacus' ``grad_sample_mode="ew"`` is this.

The per-sample gradients are linear's two einsums, as torch's, and for the other layers the gradient of the same
function on each sample alone (each is independent across the batch), so their last bits may differ from torch's
unfold-and-einsum. ``nn.RNN``/``LSTM``/``GRU`` with expanded weights run their steps composed of ``linear`` calls
(``core.nn.modules.rnn``), as torch's decompositions of them do: each step's input and hidden projections on that
step's rows (a packed sequence's shrinking batch included: the missing samples get zeros), so a weight's per-sample
gradient is the sum of its steps'.
"""

from __future__ import annotations

import core
from core._tensor import Tensor
from core._torch_function import DisableTorchFunctionSubclass
from core.autograd.function import Function
from core.nn import functional as F

__all__ = ["ExpandedWeight"]

# the functions an ExpandedWeight takes, by torch's public name (core's F.conv2d and torch.conv2d are one function)
_HANDLED = ("linear", "conv1d", "conv2d", "conv3d", "embedding", "layer_norm", "group_norm", "instance_norm")


def _handled_functions() -> dict:
    return {getattr(F, name): name for name in _HANDLED}


class ExpandedWeight(Tensor):
    """A parameter standing for its ``batch_size`` per-sample copies (see the module docstring)."""

    def __new__(cls, orig_weight, batch_size, loss_reduction):
        if not isinstance(orig_weight, Tensor):
            raise RuntimeError(f"Can only make Expanded Weights of Tensors, got {type(orig_weight).__name__}")
        if not orig_weight.requires_grad:
            raise RuntimeError("Can only build ExpandedWeights objects of tensors that requires_grad")
        return Tensor._make_subclass(cls, orig_weight, True)

    def __init__(self, orig_weight, batch_size, loss_reduction) -> None:
        self.batch_size = batch_size
        self.batch_first = True
        self.allow_smaller_batches = False
        self.orig_weight = orig_weight
        self.loss_reduction = loss_reduction

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = _handled_functions().get(func)
        if name is not None:  # (apply reads its inputs' autograd fields as torch's C++ does: not through here)
            with DisableTorchFunctionSubclass():
                return _FUNCTIONS[name].apply(tuple(kwargs), func, *args, *kwargs.values())
        raise RuntimeError(f"Expanded Weights encountered but cannot handle function {func.__name__}")

    @property
    def dtype(self):
        return self.orig_weight.dtype

    @property
    def data(self):
        return self.orig_weight.data

    @property
    def shape(self):
        return self.orig_weight.shape

    @property
    def device(self):
        return self.orig_weight.device

    @property
    def is_cuda(self):
        return self.orig_weight.is_cuda

    def data_ptr(self):
        return self.orig_weight.data_ptr()

    def get_device(self):
        return self.orig_weight.get_device()

    def set_allow_smaller_batches(self, is_allow_smaller_batches) -> None:
        self.allow_smaller_batches = is_allow_smaller_batches

    def set_batch_first(self, is_batch_first=True) -> None:
        self.batch_first = is_batch_first


def _unexpanded(func, args: tuple, kwargs: dict):
    """The call's arguments with each ExpandedWeight its original parameter, after torch's checks of the input
    (a batched tensor first) and of the weights (one batch size, one loss reduction)."""
    name = func.__name__
    input = args[0]
    if isinstance(input, ExpandedWeight):
        raise RuntimeError("Expanded Weights do not support inputs that are also ExpandedWeights. "
                           f"Input must be a Tensor, got {type(input).__name__} in function {name}")
    if not isinstance(input, Tensor):
        raise RuntimeError("Expanded Weights requires a Tensor as the first input to get the batch dimension, "
                           f"got {type(input).__name__} in function {name}")
    if input.dim() == 0:
        raise RuntimeError(f"Expanded Weights requires a batch dimension but got an input of size 0 in function {name}")
    if input.shape[0] == 0:
        raise RuntimeError("0 is not a valid batch size for Expanded Weights but got input tensor of "
                           f"{input} in function {name}")
    expanded = [a for a in (*args, *kwargs.values()) if isinstance(a, ExpandedWeight)]
    for weight in expanded:
        batch = input.shape[0] if weight.batch_first else input.shape[1]
        if (batch > weight.batch_size) if weight.allow_smaller_batches else (batch != weight.batch_size):
            raise RuntimeError("Expected ExpandedWeights to have batch size matching input but got "
                               f"input batch size of {batch} with ExpandedWeight of batch size {weight.batch_size}")
    reductions = [w.loss_reduction for w in expanded]
    for other in reductions[1:]:
        if other != reductions[0]:
            raise RuntimeError("Expected ExpandedWeights to all have the same loss_reduction argument but got one"
                               f"with {reductions[0]} and one with {other}")

    def plain(a):
        return a.orig_weight if isinstance(a, ExpandedWeight) else a

    return tuple(plain(a) for a in args), {k: plain(v) for k, v in kwargs.items()}


class _PerSampleGrad(Function):
    """One call of a handled function with ExpandedWeight arguments (the module docstring)."""

    @staticmethod
    def forward(ctx, kwarg_names, func, *args_and_kwargs):
        cut = len(args_and_kwargs) - len(kwarg_names)
        args, kwargs = args_and_kwargs[:cut], dict(zip(kwarg_names, args_and_kwargs[cut:]))
        if func is F.linear and args[0].dim() <= 1:
            raise RuntimeError("Input does not have a batch dimension. Expanded Weights expected input "
                               f"of at least rank 2, got of rank {args[0].dim()}")
        plain_args, plain_kwargs = _unexpanded(func, args, kwargs)
        ctx.func, ctx.args, ctx.kwargs = func, args, kwargs
        ctx.plain_args, ctx.plain_kwargs = plain_args, plain_kwargs
        return func(*plain_args, **plain_kwargs)

    @staticmethod
    def backward(ctx, grad_output):
        func, args, kwargs = ctx.func, ctx.args, ctx.kwargs
        input = ctx.plain_args[0]
        places = [(i, a) for i, a in enumerate(args) if isinstance(a, ExpandedWeight)]
        places += [(k, v) for k, v in kwargs.items() if isinstance(v, ExpandedWeight)]
        for value in (*args[1:], *kwargs.values()):
            if isinstance(value, Tensor) and not isinstance(value, ExpandedWeight) and value.requires_grad:
                raise RuntimeError("ExpandedWeights currently does not support a mixture of ExpandedWeight parameters "
                                   "and normal Parameters. Please file and issue with pytorch/pytorch")
        input_grad = None
        if input.requires_grad:
            with core.enable_grad():
                leaf = input.detach().requires_grad_(True)
                out = func(leaf, *ctx.plain_args[1:], **_without_running_stats(func, ctx.plain_kwargs))
                (input_grad,) = core.autograd.grad(out, leaf, grad_output)
        if places:
            per_sample = _per_sample_grads(func, ctx.plain_args, ctx.plain_kwargs, places, grad_output)
            for (_, weight), grad_sample in zip(places, per_sample):
                if weight.loss_reduction == "mean":
                    grad_sample = grad_sample * weight.batch_size
                if grad_sample.shape[0] < weight.batch_size:  # a packed sequence's step: its rows are the first
                    grad_sample = core.cat([grad_sample, grad_sample.new_zeros(
                        (weight.batch_size - grad_sample.shape[0], *grad_sample.shape[1:]))])
                owner = weight.orig_weight
                if getattr(owner, "grad_sample", None) is not None:
                    owner.grad_sample = owner.grad_sample + grad_sample
                else:
                    owner.grad_sample = grad_sample
        return (None, None, input_grad, *([None] * (len(args) + len(kwargs) - 1)))


def _without_running_stats(func, kwargs: dict) -> dict:
    """instance_norm's recomputation must not update the running statistics a second time."""
    if func is F.instance_norm and kwargs.get("use_input_stats", True):
        return {**kwargs, "running_mean": None, "running_var": None}
    return kwargs


def _per_sample_grads(func, args: tuple, kwargs: dict, places: list, grad_output) -> list:
    """Each ExpandedWeight's gradient per sample: linear's einsums, else the function's gradient on each sample."""
    input = args[0]
    if func is F.linear:
        if not all(w.batch_first for _, w in places):  # (batch second: a time-major RNN's input, as torch's)
            grad_output, input = grad_output.transpose(0, 1), input.transpose(0, 1)
        grads = []
        for where, _ in places:
            if where in (1, "weight"):
                grads.append(core.einsum("n...i,n...j->nij", grad_output, input))
            else:
                grads.append(core.einsum("n...k->nk", grad_output))
        return grads
    kwargs = _without_running_stats(func, kwargs)
    columns: list[list] = [[] for _ in places]
    for n in range(input.shape[0]):
        with core.enable_grad():
            leaves = [args[w].detach().requires_grad_(True) if isinstance(w, int)
                      else kwargs[w].detach().requires_grad_(True) for w, _ in places]
            call_args = list(args)
            call_kwargs = dict(kwargs)
            call_args[0] = input[n:n + 1]
            for (where, _), leaf in zip(places, leaves):
                if isinstance(where, int):
                    call_args[where] = leaf
                else:
                    call_kwargs[where] = leaf
            out = func(*call_args, **call_kwargs)
            grads = core.autograd.grad(out, leaves, grad_output[n:n + 1], allow_unused=True)
        for column, leaf, grad in zip(columns, leaves, grads):
            column.append(core.zeros_like(leaf) if grad is None else grad)
    return [core.stack(column) for column in columns]


class LinearPerSampleGrad(_PerSampleGrad):
    pass


class ConvPerSampleGrad(_PerSampleGrad):
    pass


class EmbeddingPerSampleGrad(_PerSampleGrad):
    pass


class LayerNormPerSampleGrad(_PerSampleGrad):
    pass


class GroupNormPerSampleGrad(_PerSampleGrad):
    pass


class InstanceNormPerSampleGrad(_PerSampleGrad):
    pass


# torch's Function per handled function (their nodes are named after them: LinearPerSampleGradBackward)
_FUNCTIONS = {"linear": LinearPerSampleGrad, "conv1d": ConvPerSampleGrad, "conv2d": ConvPerSampleGrad,
              "conv3d": ConvPerSampleGrad, "embedding": EmbeddingPerSampleGrad, "layer_norm": LayerNormPerSampleGrad,
              "group_norm": GroupNormPerSampleGrad, "instance_norm": InstanceNormPerSampleGrad}
