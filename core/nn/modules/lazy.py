"""Lazy modules: ``LazyLinear``, ``LazyConv1d/2d``, ``LazyConvTranspose1d/2d``, ``LazyBatchNorm1d/2d``.

As in PyTorch, a lazy module's parameters start as ``UninitializedParameter`` placeholders; the
first forward reads the input's feature size, materialises them in place (so an optimizer built
before that call still holds them), runs the layer's own ``reset_parameters`` (drawing exactly
what the eager layer would draw) and turns the module into its eager class (``LazyLinear``
becomes ``Linear``).
"""

from __future__ import annotations

import core
from core.autograd.grad_mode import no_grad
from core.nn.modules.conv import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d
from core.nn.modules.linear import Linear
from core.nn.modules.normalization import BatchNorm1d, BatchNorm2d
from core.nn.parameter import Buffer, Parameter

# (as torch's: the placeholders are torch.nn's and torch.nn.parameter's names, the mixin this module's only)
__all__ = ["LazyLinear", "LazyConv1d",
           "LazyConv2d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyBatchNorm1d", "LazyBatchNorm2d"]


class _Uninitialized:
    """Shared by the placeholders: ``materialize`` gives them storage and their eager class."""

    cls_to_become = None

    def materialize(self, shape, device=None, dtype=None) -> None:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        self.data = core.empty(shape, device=device or self.device, dtype=dtype or self.dtype)
        self.__class__ = self.cls_to_become

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    @property
    def shape(self):
        raise RuntimeError("Can't access the shape of an uninitialized parameter or buffer. This error usually "
                           "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
                           "initialized one. Call `forward` to initialize the parameters before accessing their "
                           "attributes.")

    @classmethod
    def refuse(cls, func):
        """torch's ``UninitializedTensorMixin.__torch_function__`` refusal: ``func`` used on a placeholder."""
        raise ValueError(f"Attempted to use an uninitialized parameter in {func}. This error happens when you are "
                         "using a `LazyModule` or explicitly manipulating `torch.nn.parameter."
                         f"{cls.__name__}` objects. When using LazyModules Call `forward` with a dummy batch to "
                         "initialize the parameters before calling torch functions")

    # NOTE: torch refuses every function and method on a placeholder but a few (size, copy_, to, the dtype
    # casts...) through __torch_function__; core keeps that protocol off until something needs it, so the refusal
    # is written for the methods that code (nn.init's, skrl's model instantiators') reaches first, named as torch's
    # C methods (``ndimension``, ``nelement``: torch's aliases of dim, numel)
    def dim(self):
        type(self).refuse("<method 'dim' of 'torch._C.TensorBase' objects>")

    ndimension = dim

    def numel(self):
        type(self).refuse("<method 'numel' of 'torch._C.TensorBase' objects>")

    nelement = numel

    def element_size(self):
        type(self).refuse("<method 'element_size' of 'torch._C.TensorBase' objects>")

    def fill_(self, value):
        type(self).refuse("<method 'fill_' of 'torch._C.TensorBase' objects>")

    def zero_(self):
        type(self).refuse("<method 'zero_' of 'torch._C.TensorBase' objects>")

    def normal_(self, *args, **kwargs):
        type(self).refuse("<method 'normal_' of 'torch._C.TensorBase' objects>")

    def uniform_(self, *args, **kwargs):
        type(self).refuse("<method 'uniform_' of 'torch._C.TensorBase' objects>")

    def new_tensor(self, *args, **kwargs):
        type(self).refuse("<method 'new_tensor' of 'torch._C.TensorBase' objects>")


class UninitializedParameter(_Uninitialized, Parameter):
    """A parameter whose shape is not known yet (``<UninitializedParameter>``)."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return Parameter.__new__(cls, core.empty(0, device=device, dtype=dtype), requires_grad)

    def __init__(self, requires_grad=True, device=None, dtype=None):
        """Built in ``__new__``."""

    def __deepcopy__(self, memo):
        """A new placeholder (PyTorch's: a deep-copied lazy module materialises its own parameters later)."""
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, self.device, self.dtype)
        return memo[id(self)]


class UninitializedBuffer(_Uninitialized, Buffer):
    """A buffer whose shape is not known yet."""

    cls_to_become = core.Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        return Buffer.__new__(cls, core.empty(0, device=device, dtype=dtype), persistent=persistent)

    def __init__(self, requires_grad=False, device=None, dtype=None, persistent=True):
        """Built in ``__new__``."""


def _is_uninitialized(t) -> bool:
    return isinstance(t, _Uninitialized)


class LazyModuleMixin:
    """Runs ``initialize_parameters`` on the first call, then becomes ``cls_to_become``."""

    cls_to_become = None

    def _start_lazy(self) -> None:
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(_infer_parameters, with_kwargs=True)

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                        error_msgs) -> None:
        """Loading a state dict materialises an uninitialised parameter or buffer with the loaded one's shape."""
        for name, param in list(self._parameters.items()) + list(self._buffers.items()):
            value = state_dict.get(prefix + name)
            if value is not None and param is not None and _is_uninitialized(param) and not _is_uninitialized(value):
                param.materialize(value.shape)

    def has_uninitialized_params(self) -> bool:
        tensors = list(self._parameters.values()) + list(self._buffers.values())
        return any(_is_uninitialized(t) for t in tensors)

    def initialize_parameters(self, *args, **kwargs) -> None:
        raise NotImplementedError(f"initialize_parameters is not implemented for {type(self).__name__}")


def _infer_parameters(module, args, kwargs):
    module.initialize_parameters(*args, **kwargs)
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
    module._initialize_hook.remove()
    module._load_hook.remove()
    del module._initialize_hook, module._load_hook
    if module.cls_to_become is not None:
        module.__class__ = module.cls_to_become


class LazyLinear(LazyModuleMixin, Linear):
    """``Linear`` whose ``in_features`` is the last size of the first input."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None):
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        self._start_lazy()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs) -> None:
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


class _LazyConvMixin(LazyModuleMixin):
    def _lazy_init(self, out_channels, bias, device, dtype) -> None:
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        self._start_lazy()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs) -> None:
        if not self.has_uninitialized_params():
            return
        self.in_channels = input.shape[0] if input.dim() == len(self.kernel_size) + 1 else input.shape[1]
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if self.transposed:
            shape = (self.in_channels, self.out_channels // self.groups)
        else:
            shape = (self.out_channels, self.in_channels // self.groups)
        with no_grad():
            self.weight.materialize((*shape, *self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


def _lazy_conv_init(eager, transposed):
    """The ``__init__`` of a lazy class for the eager convolution ``eager``, with its argument order."""
    if transposed:
        def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                     dilation=1, padding_mode="zeros", device=None, dtype=None):
            eager.__init__(self, 0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation,
                           padding_mode)
            self._lazy_init(out_channels, bias, device, dtype)
    else:
        def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                     padding_mode="zeros", device=None, dtype=None):
            eager.__init__(self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode)
            self._lazy_init(out_channels, bias, device, dtype)
    return __init__


# NOTE: class statements (not type(...)), so that inspect.getsource finds each class
class LazyConv1d(_LazyConvMixin, Conv1d):
    __init__ = _lazy_conv_init(Conv1d, False)
    cls_to_become = Conv1d


class LazyConv2d(_LazyConvMixin, Conv2d):
    __init__ = _lazy_conv_init(Conv2d, False)
    cls_to_become = Conv2d


class LazyConvTranspose1d(_LazyConvMixin, ConvTranspose1d):
    __init__ = _lazy_conv_init(ConvTranspose1d, True)
    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvMixin, ConvTranspose2d):
    __init__ = _lazy_conv_init(ConvTranspose2d, True)
    cls_to_become = ConvTranspose2d


class _LazyNormMixin(LazyModuleMixin):
    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None, *,
                 bias=True):
        super().__init__(0, eps, momentum, False, False)
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:  # (without it ``bias`` stays the None the base registered, as PyTorch's)
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            # NOTE: straight into _buffers: register_buffer detaches a Buffer, which would drop the placeholder
            self._buffers["running_mean"] = UninitializedBuffer(device=device, dtype=dtype)
            self._buffers["running_var"] = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = core.tensor(0, dtype=core.long, device=device)
        self._start_lazy()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs) -> None:
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[0] if input.dim() == 2 and self._unbatched_2d else input.shape[1]
        with no_grad():
            for name in ("weight", "bias", "running_mean", "running_var"):
                t = getattr(self, name)
                if _is_uninitialized(t):
                    t.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNormMixin, BatchNorm1d):
    cls_to_become = BatchNorm1d
    _unbatched_2d = False


class LazyBatchNorm2d(_LazyNormMixin, BatchNorm2d):
    cls_to_become = BatchNorm2d
    _unbatched_2d = False
