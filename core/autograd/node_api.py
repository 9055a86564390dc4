"""The members PyTorch's C++ nodes show besides ``name``/``next_functions``/hooks: ``_sequence_nr``,
``_set_sequence_nr``, ``requires_grad``, ``_input_metadata``, ``_register_hook_dict``, and a ``dir(grad_fn)`` that
lists what PyTorch's lists.

``dir`` of a built-in node (``MulBackward0``, ``AccumulateGrad``) lists ``object``'s members, ``__call__``, this
API, ``variable`` for an ``AccumulateGrad`` and the node's ``_saved_*`` values: core's bookkeeping (``_edges``,
``_saved``...) and the ctx API of custom Functions, which PyTorch's C++ nodes do not have, are left out (they
exist, so nothing listed is missing). A custom Function's node keeps Python's full listing, as PyTorch's does,
less core's private fields. PyTorch also lists ``_raw_saved_*`` (its ``SavedTensor`` handles); of its saved ints,
sizes, flags and numbers, core shows those of the shape ops and the common nodes (products, reductions, softmax,
layer norm, convolution, embedding, losses: ``SavedFromCtx``/``SavedFromNode``, read from what the node keeps).
"""

from __future__ import annotations

from core.autograd.hooks import RemovableHandle
from core.autograd.saved_hooks import HOOKED, Hooked

__all__ = ["InputMetadata", "NodeApi", "SavedTensor", "RawSaved", "SavedFromCtx", "SavedFromNode", "RawDerived"]

_API = ("__call__", "_input_metadata", "_register_hook_dict", "_sequence_nr", "_set_sequence_nr", "metadata", "name",
        "next_functions", "register_hook", "register_prehook", "requires_grad")
_OBJECT = frozenset(dir(object))
_UINT64_MAX = 2 ** 64 - 1  # PyTorch's sequence number of an AccumulateGrad


class InputMetadata:
    """What a node knows of each gradient it receives (PyTorch's ``_InputMetadata``): shape, dtype, device."""

    __slots__ = ("shape", "dtype", "device")

    def __init__(self, shape, dtype, device):
        self.shape, self.dtype, self.device = shape, dtype, device

    is_nested_tensor = is_cpp_nested_tensor = False

    def __repr__(self) -> str:
        return f"<InputMetadata object at {hex(id(self))}>"


class SavedTensor:
    """``grad_fn._raw_saved_<name>``: PyTorch's handle on one saved tensor. ``register_hooks(pack_hook, unpack_hook)``
    packs it now and unpacks it each time the node reads it (``saved_tensors_hooks`` for one tensor)."""

    __slots__ = ("_node", "_index")

    def __init__(self, node, index: int):
        self._node, self._index = node, index

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        from core.autograd.function import _FREED, _unpack  # function imports this module

        node = self._node
        freed = node._freed_tensors
        if node._released and self._index < len(freed) and freed[self._index]:
            raise RuntimeError(_FREED)
        saved = node._saved
        entry = None if node._released or not saved or self._index >= len(saved) else saved[self._index]
        if entry is None or entry[0] is None:  # (nothing saved here: the operand needed no gradient, a number)
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is forbidden")
        saved = list(saved)
        if entry[1] is HOOKED:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only "
                               "one pair of hooks is allowed at a time.")
        tensor = _unpack(node, entry)
        saved[self._index] = (Hooked(tensor, pack_hook, unpack_hook, entry[2]), HOOKED, -2)
        node._saved = saved


class RawSaved:
    """The ``_raw_saved_<name>`` descriptor of a node class: a ``SavedTensor``, also where nothing was saved (the
    other operand needs no gradient, a number operand), as PyTorch's undefined ``SavedVariable``; only inside the
    forward or once freed by a backward is there none."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def __get__(self, node, owner=None):
        if node is None:
            return self
        if node._released:
            if self.index < len(node._freed_tensors) and node._freed_tensors[self.index]:
                from core.autograd.function import _FREED  # function imports this module

                raise RuntimeError(_FREED)
        elif type(node._saved) is tuple:  # (still inside forward)
            raise AttributeError("no tensor was saved under this name")
        return SavedTensor(node, self.index)


class _SavedCtxNumber:
    """``_saved_alpha``/``_saved_beta``: the number a node's ctx kept (``AddBackward0``, ``AddmmBackward0``)."""

    __slots__ = ("attr",)

    def __init__(self, attr: str):
        self.attr = attr

    def __get__(self, node, owner=None):
        if node is None:
            return self
        try:
            return node.__dict__[self.attr]
        except KeyError:
            raise AttributeError(f"_saved_{self.attr}") from None


class SavedFromCtx:
    """``grad_fn._saved_<name>`` for a saved int, size, flag or number that PyTorch's node keeps (``_saved_dim``,
    ``_saved_split_sizes``, ``_saved_self_sym_sizes``, ``_saved_keepdim``...): ``read(ctx_dict)`` of what the node's
    ctx kept; shown as PyTorch shows it (``_shown``). Torch-Pruning reads them to map channels through splits,
    slices and concatenations; torchviz's ``make_dot(show_attrs=True)`` draws them. ``tensor=True``: a tensor that
    PyTorch saves (a ``_raw_saved_<name>`` handle goes with it, ``RawDerived``)."""

    __slots__ = ("read", "tensor", "name")

    def __init__(self, read, tensor: bool = False):
        self.read, self.tensor, self.name = read, tensor, ""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, node, owner=None):
        if node is None:
            return self
        try:
            value = self.read(node.__dict__)
        except KeyError:
            raise AttributeError("_saved_") from None
        return _hooked(node, self, _shown(value))


class SavedFromNode(SavedFromCtx):
    """``grad_fn._saved_<name>`` that ``read(node)`` derives from what the node already keeps (a saved tensor's or an
    input's sizes and strides, ``_saved_self_sym_sizes`` of a product): nothing more is saved for it."""

    __slots__ = ()

    def __get__(self, node, owner=None):
        if node is None:
            return self
        try:
            value = self.read(node)
        except KeyError:
            raise AttributeError("_saved_") from None
        return _hooked(node, self, _shown(value))


def _hooked(node, saved: SavedFromCtx, value):
    """``value``, or its unpack hook's answer where ``register_hooks`` was called on its ``_raw_saved_`` handle."""
    if saved.tensor:
        hooks = node.__dict__.get("_derived_hooks")
        if hooks is not None and type(value) is tuple:  # (a tuple of tensors, IndexBackward0's indices: one each)
            return tuple(_unpacked(hooks, (saved.name, i), v) for i, v in enumerate(value))
        if hooks is not None:
            return _unpacked(hooks, saved.name, value)
    return value


def _unpacked(hooks: dict, key, value):
    if key not in hooks:
        return value
    packed, unpack_hook = hooks[key]
    return unpack_hook(packed)


class DerivedSaved:
    """``grad_fn._raw_saved_<name>`` of a tensor core's node derives when asked (``SavedFromNode(tensor=True)``: a
    max's indices, a loss's total weight) instead of saving it: ``register_hooks`` packs it now and unpacks it on
    each read of ``_saved_<name>``. NOTE: the node's backward reads what it kept, not the unpacked value."""

    __slots__ = ("_node", "_name", "_item")

    def __init__(self, node, name: str, item: int | None = None):
        self._node, self._name, self._item = node, name, item  # (item: its place in a tuple of saved tensors)

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        value = getattr(self._node, self._name)  # (the freed error after a backward, as a saved tensor's)
        key = self._name if self._item is None else (self._name, self._item)
        if self._item is not None:
            value = value[self._item]
        if value is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is forbidden")
        hooks = self._node.__dict__.setdefault("_derived_hooks", {})
        if key in hooks:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only "
                               "one pair of hooks is allowed at a time.")
        hooks[key] = (pack_hook(value), unpack_hook)


class RawDerived:
    """The ``_raw_saved_<name>`` descriptor that goes with a ``SavedFromCtx(tensor=True)`` one."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __get__(self, node, owner=None):
        if node is None:
            return self
        value = getattr(node, self.name)
        if type(value) is tuple:  # (a tuple of saved tensors: a tuple of handles, as PyTorch's)
            return tuple(DerivedSaved(node, self.name, i) for i in range(len(value)))
        return DerivedSaved(node, self.name)


def _shown(value):
    """A saved value as PyTorch's node shows it: an int (a negative one wrapped to an unsigned 64-bit value, as its
    C++ ``int64_t`` read back as ``uint64_t``), a tuple of them, a bool, a float, a string, None or a tensor."""
    if value is None or isinstance(value, (bool, float, str)) or hasattr(value, "_data"):
        return value
    if isinstance(value, (tuple, list)):
        return tuple(v if v is None or hasattr(v, "_data") else _unsigned(int(v)) for v in value)  # (tensors stay)
    return _unsigned(int(value))


def _unsigned(value: int) -> int:
    return value + 2 ** 64 if value < 0 else value


class NodeApi:
    """A mixin of ``Node``: PyTorch's node members listed in the module's docstring."""

    __slots__ = ()

    def _sequence_nr(self) -> int:
        """The order nodes were made in (the engine runs later ones first); an AccumulateGrad's is the largest."""
        seq = self._seq
        return _UINT64_MAX if seq == float("inf") else int(seq)

    def _set_sequence_nr(self, sequence_nr: int) -> None:
        self._seq = int(sequence_nr)

    _saved_alpha = _SavedCtxNumber("alpha")
    _saved_beta = _SavedCtxNumber("beta")
    requires_grad = True  # a node in a graph computes gradients (PyTorch's answer; a ctx may set its own)

    @property
    def _input_metadata(self) -> tuple:
        """One ``InputMetadata`` per gradient this node receives (its forward's outputs; a leaf's own)."""
        from core import Size, _dtype  # the package imports autograd

        variable = getattr(self, "variable", None)
        if variable is not None:
            return (InputMetadata(variable.shape, variable.dtype, variable.device),)
        return tuple(None if m is None else InputMetadata(Size(m[0]), _dtype._BY_NP[m[1]], m[2])
                     for m in self._out_meta)

    def _register_hook_dict(self, tensor) -> None:
        """Run ``tensor``'s ``register_hook`` hooks when this node receives its gradient (no hook twice)."""
        hooks = tensor._backward_hooks or {}
        if self._tensor_hooks is None:
            self._tensor_hooks = {}
        store = self._tensor_hooks.setdefault(tensor.output_nr, {})
        for hook in hooks.values():
            if all(h is not hook for h in store.values()):
                RemovableHandle(store, hook)

    def __dir__(self):
        if not callable(self):  # a custom Function's node (PyTorch's BackwardCFunction lists Python's members)
            return sorted(n for n in object.__dir__(self) if n not in _PRIVATE and _has_saved(self, n))
        names = set(_OBJECT) | set(_API) | {n for n in dir(type(self)) if n.startswith(("_saved_", "_raw_saved_"))
                                                 and _has_saved(self, n)}
        if hasattr(type(self), "variable"):
            names.add("variable")
        return sorted(names)


def _has_saved(node, name: str) -> bool:
    """Not a saved value's name, or one this node has (alpha is optional; a ``_raw_saved_`` handle exists but
    inside forward)."""
    if not name.startswith(("_saved_", "_raw_saved_")):
        return not name.startswith("_saved")
    try:
        getattr(node, name)
    except AttributeError:
        return False
    except RuntimeError:  # freed by a backward: still one of its names
        return True
    return True


_PRIVATE = frozenset(("_raw_names_kept", "_derived_hooks", "_freed_tensors", "_checked_grads", "_dirty", "_edgeless",
                      "_edges", "_forward_cls", "_in_meta", "_materialize", "_non_diff", "_out_meta", "_post_hooks",
                      "_pre_hooks", "_release", "_released", "_repr_module", "_retained", "_run_backward", "_saved",
                      "_seq", "_tensor_hooks", "_trace", "_forward_saved", "_unpacked", "__slots__"))
