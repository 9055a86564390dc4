"""Loading state dicts into modules with PyTorch's checks and its error message format."""

from __future__ import annotations

import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import core.__future__ as _future
from core import _backend
from core._tensor import Tensor
from core.autograd import grad_mode
from core.nn.parameter import Parameter, is_lazy
from core.utils.swap import swap_tensors

__all__ = ["load_state_dict", "load_local", "copy_into"]


class _IncompatibleKeys(namedtuple("_IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns; prints ``<All keys matched successfully>`` when clean."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def copy_into(dst: Tensor, src: Tensor) -> None:
    """``dst.copy_(src)`` under no_grad: cast and move ``src``'s values into ``dst``'s memory."""
    arr = src._data
    if type(arr) is not type(dst._data) or src.device != dst.device:
        arr = _backend.to_device_array(arr, dst.device)
    xp = _backend.xp_of(dst._data)
    xp.copyto(dst._data, xp.broadcast_to(arr, dst._data.shape), casting="unsafe")
    dst._vc[0] += 1


def load_local(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
               error_msgs) -> None:
    """One module's own parameters and persistent buffers (``Module._load_from_state_dict``), after its
    load-state-dict pre hooks."""
    for hook in getattr(module, "_load_state_dict_pre_hooks", {}).values():  # modules pickled before they existed
        hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
    persistent = {k: v for k, v in module._buffers.items() if k not in module._non_persistent_buffers_set}
    local_state = {k: v for k, v in list(module._parameters.items()) + list(persistent.items()) if v is not None}
    assign = local_metadata.get("assign_to_params_buffers", False)
    for name, param in local_state.items():
        key = prefix + name
        if key not in state_dict:
            if strict:
                missing_keys.append(key)
            continue
        value = state_dict[key]
        if not isinstance(value, Tensor):
            error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                              f"object from checkpoint but received {type(value)}")
            continue
        lazy = is_lazy(param)  # (a placeholder has no shape to check: its module's hook checks on first use)
        if not lazy and param.ndim == 0 and value.ndim == 1 and value.shape[0] == 1:
            value = value[0]
        if not lazy and value.shape != param.shape:
            error_msgs.append(f"size mismatch for {key}: copying a param with shape {value.shape} from checkpoint, "
                              f"the shape in current model is {param.shape}.")
            continue
        _load_one(module, name, param, value, assign, key)
    extra_key = prefix + EXTRA_STATE
    if has_extra_state(module, "set_extra_state"):
        if extra_key in state_dict:
            module.set_extra_state(state_dict[extra_key])
        elif strict:
            missing_keys.append(extra_key)
    elif strict and extra_key in state_dict:
        unexpected_keys.append(extra_key)
    if strict:
        for key in state_dict:
            if key.startswith(prefix) and key != extra_key:
                parts = key[len(prefix):].split(".", 1)
                if (len(parts) > 1 and parts[0] not in module._modules) or \
                        (len(parts) == 1 and parts[0] not in local_state):
                    unexpected_keys.append(key)


def _load_one(module, name: str, param: Tensor, value: Tensor, assign: bool, key: str) -> None:
    with grad_mode.no_grad():
        if _future.get_swap_module_params_on_conversion():
            return _swap_in(param, value, assign)
        if not assign and param.is_meta and not value.is_meta:
            warnings.warn(f"for {key}: copying from a non-meta parameter in the checkpoint to a meta parameter in "
                          "the current model, which is a no-op. (Did you mean to pass `assign=True` to assign items "
                          "in the state dictionary to their corresponding key in the module instead of copying them "
                          "in place?)", UserWarning, stacklevel=5)
        if not assign:
            copy_into(param, value)
        elif isinstance(param, Parameter):
            new = value if isinstance(value, Parameter) else Parameter(value, param.requires_grad)
            new.requires_grad_(param.requires_grad)
            setattr(module, name, new)
        else:
            setattr(module, name, value)


def _swap_in(param: Tensor, value: Tensor, assign: bool) -> None:
    """PyTorch's swap path: ``param.module_load(value)`` swapped into the parameter object."""
    new = param.module_load(value, assign=assign)
    if new is value or new is param:
        raise RuntimeError("module_load returned one of self or other, please .detach() the result if returning "
                           "one of the inputs in module_load")
    if isinstance(param, Parameter):
        if not isinstance(new, Parameter):
            new = Parameter(new, requires_grad=param.requires_grad)
        else:
            new.requires_grad_(param.requires_grad)
    swap_tensors(param, new)


EXTRA_STATE = "_extra_state"  # PyTorch's key suffix for what get_extra_state returns


def has_extra_state(module, method: str) -> bool:
    """Whether the module's class overrides ``Module.get_extra_state`` / ``set_extra_state``."""
    from core.nn.module import Module  # module imports this file

    return getattr(type(module), method) is not getattr(Module, method)


def unreachable(method: str) -> str:
    """PyTorch's message for the base ``Module.get_extra_state``/``set_extra_state``."""
    return (f"Reached a code path in Module.{method}() that should never be called. Please file an issue at "
            "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to report this bug.")


def private_post_hook(hook):
    if getattr(hook, "_from_public_api", False):
        raise RuntimeError("Cannot register the same function as the state dict post hook that was previously "
                           "registered via register_state_dict_post_hook")
    return hook


def save_local(module, destination, prefix: str, keep_vars: bool) -> None:
    """One module's own parameters, persistent buffers and extra state (``Module._save_to_state_dict``)."""
    for name, param in module._parameters.items():
        if param is not None:
            destination[prefix + name] = param if keep_vars or is_lazy(param) else param.detach()  # (placeholder)
    for name, buf in module._buffers.items():
        if buf is not None and name not in module._non_persistent_buffers_set:
            destination[prefix + name] = buf if keep_vars or is_lazy(buf) else buf.detach()
    if has_extra_state(module, "get_extra_state"):
        destination[prefix + EXTRA_STATE] = module.get_extra_state()


def state_dict(module, destination, prefix: str, keep_vars: bool):
    """``Module.state_dict``: pre hooks, own entries, children, then post hooks, in PyTorch's order."""
    if destination is None:
        destination = OrderedDict()
        destination._metadata = OrderedDict()
    local_metadata = {"version": module._version}
    if hasattr(destination, "_metadata"):
        destination._metadata[prefix[:-1]] = local_metadata
    for hook in getattr(module, "_state_dict_pre_hooks", {}).values():
        hook(module, prefix, keep_vars)
    module._save_to_state_dict(destination, prefix, keep_vars)
    for name, child in module._modules.items():
        if child is not None:
            child.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
    for hook in module._state_dict_hooks.values():
        result = hook(module, destination, prefix, local_metadata)
        if getattr(hook, "_from_public_api", False):
            if result is not None:
                raise RuntimeError("state_dict post-hook must return None")
        elif result is not None:
            destination = result
    return destination


def load_state_dict(module, state_dict, strict: bool = True, assign: bool = False) -> _IncompatibleKeys:
    if not isinstance(state_dict, Mapping):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
    missing, unexpected, errors = [], [], []
    metadata = getattr(state_dict, "_metadata", None)
    state_dict = OrderedDict(state_dict)

    def load(mod, local, prefix=""):
        meta = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
        if assign:
            meta["assign_to_params_buffers"] = True
        mod._load_from_state_dict(local, prefix, meta, True, missing, unexpected, errors)
        for name, child in mod._modules.items():
            if child is not None:
                child_prefix = prefix + name + "."
                load(child, {k: v for k, v in local.items() if k.startswith(child_prefix)}, child_prefix)
        result = _IncompatibleKeys(missing, unexpected)
        for hook in mod._load_state_dict_post_hooks.values():
            hook(mod, result)

    load(module, state_dict)
    if strict:
        if unexpected:
            errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected)))
        if missing:
            errors.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
    if errors:
        raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
            type(module).__name__, "\n\t".join(errors)))
    return _IncompatibleKeys(missing, unexpected)
