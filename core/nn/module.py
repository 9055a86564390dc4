"""``nn.Module``: the base of every layer, with PyTorch's registration, traversal and hook rules.

A module keeps its parameters, buffers and children in three ordered dicts; assigning a Parameter,
Module or (registered) buffer attribute routes it there, exactly as PyTorch's ``__setattr__`` does.
State dicts, repr and device/dtype moves walk those dicts. Loading is in ``_state.py``.
"""

from __future__ import annotations

import warnings
from collections import OrderedDict
from functools import partial

import core
from core._tensor import Tensor
from core.autograd import grad_mode
from core.autograd.hooks import RemovableHandle
from core.autograd.zero_grad import zero_grads
from core.nn import _builtin_attributes, _module_more, _state, _submodules
from core.nn._backward_hooks import hook_inputs, hook_outputs
from core.nn._convert import put_converted
from core.nn._legacy_backward_hooks import check_full_hook_allowed, register_legacy_backward_hook
from core.nn.parameter import Buffer, Parameter
from core.ops.conversion import _parse  # the same argument rules as Tensor.to

__all__ = ["Module", "addindent", "register_module_forward_pre_hook", "register_module_forward_hook"]

# hooks every module runs on each call, before its own (PyTorch's global module hooks)
_global_forward_pre_hooks: OrderedDict = OrderedDict()
_global_forward_hooks: OrderedDict = OrderedDict()
_global_forward_hooks_with_kwargs: dict = {}
_global_forward_hooks_always_called: dict = {}


def register_module_forward_pre_hook(hook) -> RemovableHandle:
    """``hook(module, args)`` before every module's forward, before the module's own pre-hooks; it may return new
    args (a tuple, or one value). Global state: for debugging and profiling, as PyTorch warns."""
    return RemovableHandle(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs: bool = False, always_call: bool = False) -> RemovableHandle:
    """``hook(module, args, output)`` (``with_kwargs``: ``hook(module, args, kwargs, output)``) after every module's
    forward, before the module's own forward hooks; it may return a new output. (``always_call`` is kept; core runs
    no hook when a forward raises.)"""
    handle = RemovableHandle(_global_forward_hooks, hook,
                             extra_dict=[_global_forward_hooks_with_kwargs, _global_forward_hooks_always_called])
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def addindent(s: str, spaces: int) -> str:
    """Indent every line but the first (how nested module reprs line up); blank lines stay empty, as PyTorch's
    ``_addindent`` keeps them (an ``extra_repr`` ending in a newline leaves no trailing spaces inside a parent)."""
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    return lines[0] + "\n" + "\n".join(spaces * " " + line if line.strip() else "" for line in lines[1:])


def _check_name(kind: str, name, owner: Module) -> None:
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {core.typename(name)}")
    if "." in name:
        raise KeyError(f"{kind} name can't contain \".\"" + (f", got: {name}" if kind == "module" else ""))
    if name == "":
        raise KeyError(f"{kind} name can't be empty string \"\"")


def _set_other(self, name: str, value) -> None:
    """Assigning a module, a buffer or a plain value (what is not a parameter): PyTorch's routing."""
    d = self.__dict__
    modules = d.get("_modules")
    buffers = d.get("_buffers")
    if isinstance(value, Module):
        if modules is None:
            raise AttributeError("cannot assign module before Module.__init__() call")
        _remove_from(name, d, self._parameters, self._buffers, self._non_persistent_buffers_set)
        modules[name] = value
    elif modules is not None and name in modules:
        if value is not None:
            raise TypeError(f"cannot assign '{core.typename(value)}' as child module '{name}' "
                            "(torch.nn.Module or None expected)")
        modules[name] = value
    elif isinstance(value, Buffer) or buffers is not None and name in buffers:
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(f"cannot assign '{core.typename(value)}' as buffer '{name}' "
                            "(torch.nn.Buffer, torch.Tensor or None expected)")
        persistent = value.persistent if isinstance(value, Buffer) else \
            name not in self._non_persistent_buffers_set
        if isinstance(value, Buffer):
            _remove_from(name, d, self._parameters, self._modules)
        self.register_buffer(name, value, persistent)
    else:
        object.__setattr__(self, name, value)


class Module:
    """Base class for all neural network modules."""

    dump_patches = False
    _version = 1
    training: bool
    call_super_init = False
    T_destination = _module_more.T_destination
    _compiled_call_impl = None  # what Module.compile leaves: the call that _wrapped_call_impl runs instead

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _builtin_attributes.unbind_ops(cls)  # ``conv = torch.conv2d``: self.conv is the op, as torch's builtin

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_pre_hooks_with_kwargs"] = {}
        d["_forward_hooks"] = OrderedDict()
        d["_forward_hooks_with_kwargs"] = {}
        d["_forward_hooks_always_called"] = {}
        d["_backward_hooks"] = OrderedDict()
        d["_backward_pre_hooks"] = OrderedDict()
        d["_is_full_backward_hook"] = None
        d["_state_dict_hooks"] = OrderedDict()
        d["_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_post_hooks"] = OrderedDict()

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    # ----- registration -------------------------------------------------------------------
    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name("buffer", name, self)
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{core.typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name("parameter", name, self)
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{core.typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                             f"created explicitly. To express '{name}' as a function of another Tensor, "
                             "compute the value in the forward() method.")
        self._parameters[name] = param

    def add_module(self, name: str, module) -> None:
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{core.typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {core.typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        _check_name("module", name, self)
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target: str) -> Module:
        mod = self
        for item in target.split(".") if target else ():
            if not hasattr(mod, item):
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return mod

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        _submodules.set_submodule(self, target, module, strict)  # a dotted path; torch's checks

    def get_parameter(self, target: str) -> Parameter:
        mod_path, _, name = target.rpartition(".")
        mod = self.get_submodule(mod_path)
        if not hasattr(mod, name):
            raise AttributeError(f"{mod._get_name()} has no attribute `{name}`")
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        mod_path, _, name = target.rpartition(".")
        mod = self.get_submodule(mod_path)
        if not hasattr(mod, name):
            raise AttributeError(f"{mod._get_name()} has no attribute `{name}`")
        buffer = getattr(mod, name)
        if name not in mod._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return buffer

    # ----- attribute rules ------------------------------------------------------------------
    def __getattr__(self, name: str):
        d = self.__dict__
        params = d.get("_parameters")
        if params is not None and name in params:  # NOTE: every forward reads its weights through here
            return params[name]
        for store in ("_buffers", "_modules"):
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            _remove_from(name, d, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{core.typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            _set_other(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = list(object.__dir__(self)) + list(self._parameters) + list(self._modules) + list(self._buffers)
        return sorted(k for k in set(keys) if not k[0].isdigit())

    def __getstate__(self):
        """The instance's dict less a compiled forward (which does not pickle), as PyTorch's. NOTE: with a
        ``__getstate__`` of its own, pickling a module caches no ``__slotnames__`` on its class (dir() unchanged)."""
        state = self.__dict__.copy()
        state.pop("_compiled_call_impl", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)

    # ----- traversal ------------------------------------------------------------------------
    def _named_members(self, get_members_fn, prefix="", recurse=True, remove_duplicate=True):
        """(name, member) pairs of ``get_members_fn(module)`` over the modules, as PyTorch names its arguments:
        libraries call it by keyword (sentence-transformers' ``device`` of a model without parameters)."""
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or (remove_duplicate and id(v) in memo):
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield module_prefix + ("." if module_prefix else "") + k, v

    def parameters(self, recurse: bool = True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def children(self):
        for _, module in self.named_children():
            yield module

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo=None, prefix: str = "", remove_duplicate: bool = True):
        if memo is None:
            memo = set()
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    # ----- modes and gradients --------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        zero_grads(self.parameters(), set_to_none)

    # ----- conversion ----------------------------------------------------------------------
    def _apply(self, fn, recurse: bool = True) -> Module:
        if recurse:
            for module in self.children():
                module._apply(fn)
        with grad_mode.no_grad():
            for key, param in list(self._parameters.items()):
                if param is not None:
                    put_converted(self, key, param, fn)  # .data set, swapped or overwritten (core.__future__)
            for key, buf in self._buffers.items():
                if buf is not None:
                    self._buffers[key] = fn(buf)
        return self

    def apply(self, fn) -> Module:
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def to(self, *args, **kwargs) -> Module:
        fmt = kwargs.get("memory_format")
        dt, dev, _ = _parse(args, dict(kwargs))
        if dt is not None:
            dt = core._dtype.to_dtype(dt)
            if not (dt.is_floating_point or dt.is_complex):
                raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got "
                                f"desired dtype={dt}")
            if dt.is_complex:
                warnings.warn("Complex modules are a new feature under active development whose design may change, "
                              "and some modules might not work as expected when using complex tensors as parameters "
                              "or buffers. Please file an issue at https://github.com/pytorch/pytorch/issues/new?"
                              "template=bug-report.yml if a complex module does not work as expected.", stacklevel=2)

        def convert(t):
            dtype = dt if dt is not None and (t.is_floating_point() or t.is_complex()) else None
            if fmt is not None and t.dim() in (4, 5):  # NOTE: PyTorch converts only 4-D and 5-D tensors' layout
                return t.to(dev, dtype, memory_format=fmt)
            return t.to(dev, dtype)
        return self._apply(convert)

    def to_empty(self, *, device, recurse: bool = True) -> Module:
        """Parameters and buffers become uninitialised tensors of the same shape on ``device``."""
        return self._apply(lambda t: core.empty_like(t, device=device), recurse=recurse)

    def cpu(self) -> Module:
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None) -> Module:
        return self._apply(lambda t: t.cuda(device))

    def type(self, dst_type) -> Module:
        return self._apply(lambda t: t.type(dst_type))

    def float(self) -> Module:
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self) -> Module:
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self) -> Module:
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    bfloat16, xpu, mtia, ipu = _module_more.bfloat16, _module_more.xpu, _module_more.mtia, _module_more.ipu

    # ----- calling and hooks ------------------------------------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False):
        handle = RemovableHandle(self._forward_pre_hooks, hook)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False):
        handle = RemovableHandle(self._forward_hooks, hook)
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self, hook):
        """The legacy hook, on the output's grad_fn after each call (see ``core.nn._legacy_backward_hooks``)."""
        return register_legacy_backward_hook(self, hook)

    def register_full_backward_hook(self, hook, prepend: bool = False):
        """``hook(module, grad_input, grad_output)`` once the gradients of the module's inputs are known."""
        check_full_hook_allowed(self)
        handle = RemovableHandle(self._backward_hooks, hook)
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_pre_hook(self, hook, prepend: bool = False):
        """``hook(module, grad_output)`` before the module's backward; it may return a new grad_output."""
        handle = RemovableHandle(self._backward_pre_hooks, hook)
        if prepend:
            self._backward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def _call_impl(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks or self._backward_pre_hooks
                or _global_forward_pre_hooks or _global_forward_hooks):
            return self.forward(*args, **kwargs)
        for hook in list(_global_forward_pre_hooks.values()):
            res = hook(self, args)
            if res is not None:
                args = res if isinstance(res, tuple) else (res,)
        for hid, hook in list(self._forward_pre_hooks.items()):
            if hid in self._forward_pre_hooks_with_kwargs:
                res = hook(self, args, kwargs)
                if res is not None:
                    if not (isinstance(res, tuple) and len(res) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                           f"but got {res}.")
                    args, kwargs = res
            else:
                res = hook(self, args)
                if res is not None:
                    args = res if isinstance(res, tuple) else (res,)
        hooked = self._backward_hooks or self._backward_pre_hooks
        if hooked:  # NOTE: as PyTorch: inputs hooked before forward, outputs after the forward hooks ran
            args, state = hook_inputs(self, args)
        result = self.forward(*args, **kwargs)
        for hid, hook in list(_global_forward_hooks.items()):
            res = hook(self, args, kwargs, result) if hid in _global_forward_hooks_with_kwargs else hook(self, args,
                                                                                                          result)
            if res is not None:
                result = res
        for hid, hook in list(self._forward_hooks.items()):
            if hid in self._forward_hooks_with_kwargs:
                res = hook(self, args, kwargs, result)
            else:
                res = hook(self, args, result)
            if res is not None:
                result = res
        return hook_outputs(state, result) if hooked else result

    compile, _wrapped_call_impl, _slow_forward = _module_more.compile, _module_more.wrapped_call_impl, \
        _module_more.slow_forward
    __call__ = _wrapped_call_impl
    _get_backward_hooks, _get_backward_pre_hooks = _module_more.get_backward_hooks, _module_more.get_backward_pre_hooks
    _maybe_warn_non_full_backward_hook = _module_more.maybe_warn_non_full_backward_hook
    _replicate_for_data_parallel = _module_more.replicate_for_data_parallel

    # ----- state dicts ----------------------------------------------------------------------
    def _save_to_state_dict(self, destination, prefix: str, keep_vars: bool) -> None:
        _state.save_local(self, destination, prefix, keep_vars)

    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        if args:  # PyTorch's deprecated positional form (destination, prefix, keep_vars)
            destination = args[0]
            prefix = args[1] if len(args) > 1 else prefix
            keep_vars = args[2] if len(args) > 2 else keep_vars
        return _state.state_dict(self, destination, prefix, keep_vars)

    def get_extra_state(self):
        """Extra state a subclass saves in its state dict under ``_extra_state`` (with ``set_extra_state``)."""
        raise RuntimeError(_state.unreachable("get_extra_state"))

    def set_extra_state(self, state) -> None:
        raise RuntimeError(_state.unreachable("set_extra_state"))

    def register_state_dict_pre_hook(self, hook):
        """``hook(module, prefix, keep_vars)`` before ``state_dict`` saves this module's entries."""
        return RemovableHandle(self.__dict__.setdefault("_state_dict_pre_hooks", OrderedDict()), hook)

    def register_state_dict_post_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata)`` after; it must return None."""
        hook._from_public_api = True
        return RemovableHandle(self._state_dict_hooks, hook)

    def _register_state_dict_hook(self, hook):
        """The private post hook: a dict it returns replaces the state dict."""
        return RemovableHandle(self._state_dict_hooks, _state.private_post_hook(hook))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs) -> None:
        _state.load_local(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                          error_msgs)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        return _state.load_state_dict(self, state_dict, strict, assign)

    def register_load_state_dict_post_hook(self, hook):
        return RemovableHandle(self._load_state_dict_post_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook):
        """``hook(module, state_dict, prefix, ...)`` before this module's entries load (the private form: no module)."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def _register_load_state_dict_pre_hook(self, hook, with_module: bool = False):
        return RemovableHandle(self._load_state_dict_pre_hooks, partial(hook, self) if with_module else hook)

    # ----- repr ----------------------------------------------------------------------------
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + addindent(repr(module), 2) for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def share_memory(self) -> Module:
        """Every parameter's and buffer's ``share_memory_()`` (PyTorch's ``_apply``): ``is_shared()`` says so after."""
        for t in (*self.parameters(), *self.buffers()):
            t.share_memory_()
        return self


def _remove_from(name: str, *stores) -> None:
    for store in stores:
        if name in store:
            if isinstance(store, dict):
                del store[name]
            else:
                store.discard(name)
