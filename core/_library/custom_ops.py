"""The operator registry behind ``torch.library`` and ``torch.ops.<namespace>``.

Each defined operator (``mylib::numpy_sin``, overload ``default``) is one ``OpEntry``: its schema, its kernels by
device type, its fake (meta) kernel and its autograd formula. Calling an operator binds the arguments against the
schema with torch's errors, picks the kernel for the tensors' device, and, for a ``custom_op`` whose inputs require
grad, runs it inside one generated ``autograd.Function`` (``GeneratedBackwardFor_mylib_numpy_sin_defaultBackward``,
as torch names it) whose backward is the registered formula, or raises torch's error when none was registered.
"""

from __future__ import annotations

import builtins
import types

import core
from core._library.schema import FunctionSchema, bind
from core.autograd.node import Node
from core.autograd.node_call import BackwardCFunction

_OPS: dict = {}  # "ns::name.overload" -> OpEntry
_NAMESPACES: dict = {}  # "ns" -> _OpNamespace


class OpEntry:
    """One operator overload: schema, kernels by dispatch key, fake kernel, autograd formula."""

    def __init__(self, schema: FunctionSchema, custom=None):
        self.schema = schema
        self.kernels: dict = {}  # "cpu", "cuda", "meta", "default" (a composite kernel)
        self.fake = None
        self.backward = None
        self.setup_context = None
        self.custom = custom  # the CustomOpDef, for ops made by custom_op
        self._generated = None
        self.tags: tuple = ()  # core._library.tags.Tag members

    @property
    def returns_mutated(self) -> str | None:
        """"inplace" or "out" for a custom op tagged so (it returns the arguments it mutates), else None."""
        names = {tag.name for tag in self.tags}
        return "inplace" if "inplace" in names else "out" if "out" in names else None

    @property
    def qualified(self) -> str:
        return self.schema.name + (f".{self.schema.overload_name}" if self.schema.overload_name else "")

    @property
    def has_autograd(self) -> bool:
        return self.custom is not None or self.backward is not None

    @property
    def trivial_fake(self) -> bool:
        """A custom op that mutates an argument and returns nothing needs no fake kernel: torch's is "return None"
        (``can_generate_trivial_fake_impl``)."""
        return self.custom is not None and not self.schema.returns and any(a.is_mutable for a in self.schema.arguments)

    def fake_kernel(self):
        """The fake (meta) kernel: the registered one, a trivial one, or None."""
        return self.fake if self.fake is not None else (_returns_nothing if self.trivial_fake else None)

    def no_fake_message(self) -> str:
        shown = repr(self.custom) if self.custom is not None else self.qualified
        name = self.schema.name.partition("::")[2]
        return (f"There was no fake impl registered for {shown}. This is necessary for torch.compile/export/fx "
                f"tracing to work. Please use `{name}.register_fake` to add an fake impl.")


def _returns_nothing(*args, **kwargs):
    return None


def register(schema: FunctionSchema, custom=None) -> OpEntry:
    """Adds an operator (a ``custom_op`` replaces one of the same name, as torch's does)."""
    key = f"{schema.name}.{schema.overload_name or 'default'}"
    if key in _OPS and custom is None:
        raise RuntimeError(f"Tried to register an operator ({schema}) with the same name and overload name multiple "
                           "times. Each overload's schema should only be registered with a single call to def().")
    entry = OpEntry(schema, custom)
    _OPS[key] = entry
    namespace, _, name = schema.name.partition("::")
    space = _NAMESPACES.setdefault(namespace, _OpNamespace(namespace))
    space.__dict__.pop(name, None)  # a redefinition gets a fresh packet
    return entry


def lookup(qualname: str) -> OpEntry:
    """The entry of ``"ns::name"`` or ``"ns::name.overload"``."""
    name, _, overload = qualname.partition(".")
    entry = _OPS.get(f"{name}.{overload or 'default'}")
    if entry is None:
        raise RuntimeError(f"operator {qualname} does not exist")  # (torch's words, from register_fake)
    return entry


def namespace(name: str, create: bool = False):
    """``torch.ops.<name>`` when some operator was defined in it, else None; with ``create``, an empty namespace
    (PyTorch makes ``torch.ops.<name>`` for any name: asking it for an operator nobody defined is what fails)."""
    return _NAMESPACES.setdefault(name, _OpNamespace(name)) if create else _NAMESPACES.get(name)


# ---- calling ---------------------------------------------------------------------------------------------------

def _device_key(values) -> str:
    for value in values:
        if isinstance(value, core.Tensor):
            return value.device.type
        if isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, core.Tensor):
                    return item.device.type
    return "cpu"


def _kernel(entry: OpEntry, device: str):
    kernel = entry.kernels.get(device)
    if kernel is None and device == "meta" and entry.fake_kernel() is not None:
        kernel = entry.fake_kernel()
    elif kernel is None and device == "meta" and entry.custom is not None:  # a custom op's meta kernel is its fake
        raise RuntimeError(entry.no_fake_message())
    if kernel is None:
        kernel = entry.kernels.get("default")
    if kernel is None:
        backend = device.upper() if device in ("cpu", "meta") else device.capitalize()
        raise NotImplementedError(f"Could not run '{entry.qualified}' with arguments from the '{backend}' backend. "
                                  "This could be because the operator doesn't exist for this backend.")
    return kernel


class FakeImplCtx:
    """What ``torch.library.get_ctx()`` returns inside a fake kernel: ``new_dynamic_size()`` stands for an output
    size that only the data decides (a plain number here; the outputs' sizes are then not compared)."""

    def __init__(self):
        self.dynamic = False

    def new_dynamic_size(self, *, min=0, max=None) -> int:  # (min and max: torch's keyword names)
        if min < 0:
            raise ValueError(f"ctx.new_dynamic_size(min={min}, ...): expected min to be greater than or equal to 0: "
                             "this API can only create non-negative sizes.")
        self.dynamic = True
        size = builtins.max(min, 2)
        return size if max is None else builtins.min(size, max)


_FAKE_CONTEXTS: list = []


def run_fake(fake, args, kwargs):
    """``(result, ctx)`` of a fake kernel run with its ``get_ctx()`` context."""
    ctx = FakeImplCtx()
    _FAKE_CONTEXTS.append(ctx)
    try:
        return fake(*args, **kwargs), ctx
    finally:
        _FAKE_CONTEXTS.pop()


def current_fake_ctx():
    return _FAKE_CONTEXTS[-1] if _FAKE_CONTEXTS else None


def call(entry: OpEntry, args, kwargs):
    """Runs the operator: checks and binds the arguments, then the kernel (through autograd where needed). Under a
    ``TorchFunctionMode`` (export's tracer), the mode gets the call first, the overload as its ``func``, as torch's
    dispatcher hands it to the mode; so does a tensor-like argument with ``__torch_function__`` (FX's ``Proxy``)."""
    relevant = core.utils._pytree.tree_leaves((args, kwargs))
    if core.overrides.has_torch_function(relevant):  # a mode, or a tensor-like such as FX's Proxy
        overload = getattr(namespace(entry.schema.name.partition("::")[0]), entry.schema.name.partition("::")[2])
        overload = getattr(overload, entry.schema.overload_name or "default")
        return core.overrides.handle_torch_function(overload, relevant, *args, **kwargs)
    positional, keyword_only = bind(entry.schema, args, kwargs)
    kernel = _kernel(entry, _device_key([*positional, *keyword_only.values()]))
    if kernel is entry.fake or kernel is _returns_nothing:
        return run_fake(kernel, positional, keyword_only)[0]
    if entry.custom is None:
        return kernel(*positional, **keyword_only)
    if core.is_grad_enabled() and _any_requires_grad(positional):
        metadata = _Metadata(kernel, keyword_only)
        if any("Tensor" in t and "[]" in t for t in [*(a.type for a in entry.schema.arguments),
                                                     *entry.schema.returns]):
            result = _apply_with_lists(entry, positional, metadata)
        else:
            result = _generated(entry).apply(*positional, metadata)
    else:
        with core.no_grad():
            result = kernel(*positional, **keyword_only)
    if entry.returns_mutated:
        _check_returned_mutated(entry, positional, keyword_only, result)
    else:
        _check_outputs(entry, positional, result)
    return result


def _any_requires_grad(values) -> bool:
    for value in values:
        if isinstance(value, core.Tensor) and value.requires_grad:
            return True
        if isinstance(value, (list, tuple)) and _any_requires_grad(value):
            return True
    return False


class _Metadata:
    """The last argument of a generated Function: the kernel and the keyword-only values (no gradient); with
    tensor lists, how the flat tensors the Function sees make up the arguments and the result."""

    def __init__(self, kernel, keyword_only):
        self.kernel, self.keyword_only = kernel, keyword_only
        self.input_spec = self.output_spec = None
        self.result_is_tuple = True


def _flatten(values):
    """Lists and tuples among ``values`` opened one level (autograd sees each tensor of a list): (flat, spec)."""
    flat, spec = [], []
    for value in values:
        if isinstance(value, (list, tuple)):
            spec.append((type(value), len(value)))
            flat.extend(value)
        else:
            spec.append(None)
            flat.append(value)
    return flat, spec


def _unflatten(flat, spec) -> list:
    values, i = [], 0
    for item in spec:
        if item is None:
            values.append(flat[i])
            i += 1
        else:
            kind, n = item
            values.append(kind(flat[i:i + n]))
            i += n
    return values


def _flat_grads(grads, spec) -> list:
    """The registered backward's gradients (a list for a list argument, None for none) laid out flat."""
    flat = []
    for item, grad in zip(spec, grads):
        if item is None:
            flat.append(grad)
        else:
            flat.extend(grad if grad is not None else [None] * item[1])
    return flat


def _apply_with_lists(entry: OpEntry, positional, metadata):
    """The generated Function over the tensors of list arguments and results one by one (torch's
    ``supports_tensorlist``)."""
    flat, metadata.input_spec = _flatten(positional)
    out = _generated(entry).apply(*flat, metadata)
    restored = _unflatten(list(out) if isinstance(out, tuple) else [out], metadata.output_spec)
    return tuple(restored) if metadata.result_is_tuple else restored[0]


def _generated(entry: OpEntry):
    """The ``autograd.Function`` that runs ``entry``'s kernel and its registered backward."""
    if entry._generated is not None:
        return entry._generated
    ns, _, opname = entry.schema.name.partition("::")
    overload = entry.schema.overload_name or "default"
    packet_name = f"{ns}.{opname}.{overload}"

    def forward(ctx, *args):
        metadata, inputs = args[-1], args[:-1]
        if metadata.input_spec is not None:
            inputs = tuple(_unflatten(inputs, metadata.input_spec))
        result = metadata.kernel(*inputs, **metadata.keyword_only)
        if entry.setup_context is not None:
            if metadata.keyword_only:
                entry.setup_context(ctx=ctx, inputs=inputs, keyword_only_inputs=metadata.keyword_only, output=result)
            else:
                entry.setup_context(ctx=ctx, inputs=inputs, output=result)
        if metadata.input_spec is None:
            return result
        ctx._pt_metadata = metadata
        metadata.result_is_tuple = isinstance(result, tuple)
        flat, metadata.output_spec = _flatten(result if metadata.result_is_tuple else (result,))
        return tuple(flat)

    def backward(ctx, *grads):
        if entry.backward is None:
            raise RuntimeError(f"Trying to backward through {packet_name} but no autograd formula was registered. "
                               "Please use register_autograd to add one.")
        needs, metadata = ctx.needs_input_grad, getattr(ctx, "_pt_metadata", None)
        ctx.needs_input_grad = needs[:-1]
        if metadata is not None:
            grads = _unflatten(list(grads), metadata.output_spec)
            ctx.needs_input_grad = tuple(_unflatten(list(needs[:-1]), metadata.input_spec))
        try:
            result = entry.backward(ctx, *grads)
        finally:
            ctx.needs_input_grad = needs
        if metadata is not None:
            return (*_flat_grads(result if isinstance(result, tuple) else (result,), metadata.input_spec), None)
        return (*result, None) if isinstance(result, tuple) else (result, None)

    name = f"GeneratedBackwardFor_{ns}_{opname}_{overload}"
    entry._generated = type(name, (core.autograd.Function,),
                            {"forward": staticmethod(forward), "backward": staticmethod(backward)})
    # torch's generated class is a Python Function: its node is a custom Function's (``ctx.saved_tensors``, read by
    # the user's backward; ``apply``, not callable), where one made in core would be a built-in node
    generated = entry._generated
    generated._backward_cls = type(generated._backward_cls.__name__, (BackwardCFunction, Node),
                                   {"_forward_cls": generated, "_repr_module": "core.autograd.function.",
                                    "__module__": "core.autograd.function"})
    return generated


def returned_mutated(entry: OpEntry):
    """The fake kernel torch generates for a custom op tagged ``inplace`` or ``out``: the mutated arguments."""
    def fake(*args, **kwargs):
        if entry.returns_mutated == "inplace":
            return args[0]
        outs = tuple(kwargs[a.name] for a in entry.schema.arguments if a.kwarg_only and a.is_mutable)
        return outs[0] if len(outs) == 1 else outs

    return fake


def _check_returned_mutated(entry: OpEntry, positional, keyword_only, result) -> None:
    """A custom op tagged ``inplace`` must return its first argument, one tagged ``out`` its out arguments."""
    expected = returned_mutated(entry)(*positional, **keyword_only)
    same = result is expected if not isinstance(expected, tuple) else \
        isinstance(result, tuple) and len(result) == len(expected) and all(r is e for r, e in zip(result, expected))
    if not same:
        kind = "return its first argument" if entry.returns_mutated == "inplace" else \
            "return its mutable keyword-only arguments"
        raise RuntimeError(f"{entry.custom._name} (with implementation in "
                           f"{entry.custom._init_fn.__module__}): An operator tagged with "
                           f"torch.Tag.{entry.returns_mutated} must {kind}.")


def _check_outputs(entry: OpEntry, inputs, result) -> None:
    """A custom op's outputs must be of its return types and must not alias its inputs (torch's errors)."""
    returns = entry.schema.returns
    outputs = (result,) if len(returns) == 1 else (result if isinstance(result, tuple) else (result,))
    if not returns:
        return
    for type_, value in zip(returns, outputs):
        if type_.startswith("Tensor") and "[]" not in type_ and not isinstance(value, core.Tensor):
            raise RuntimeError(f"Unable to cast {value} to Tensor")
    tensors_in = [v for v in inputs if isinstance(v, core.Tensor)]
    for value in outputs:
        if isinstance(value, core.Tensor) and any(_aliases(value, t) for t in tensors_in):
            raise RuntimeError(
                f"{entry.custom._name} (with implementation in {entry.custom._init_fn.__module__}): The output of this "
                "custom operator (1) must not also be an input to this custom operator and (2) may not alias any "
                "inputs to this custom operator or other returns. The most common way to trigger this error is if we "
                "have y = custom_op(x) and y and x are the same Tensor. Please instead return a clone of the offending "
                "output tensor(s) (e.g. return x.clone()) or refactor the custom operator to not return y.")


def _aliases(a, b) -> bool:
    if a is b:
        return True
    try:
        return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr() and a.numel() > 0
    except (RuntimeError, AttributeError, NotImplementedError):
        return False


# ---- torch.ops.<namespace>.<name>[.<overload>] -----------------------------------------------------------------

class OpOverload:
    """One overload of a defined operator (``torch.ops.mylib.numpy_sin.default``)."""

    def __init__(self, entry: OpEntry):
        self._entry = entry
        self._namespace, _, self._opname = entry.schema.name.partition("::")
        self._overloadname = entry.schema.overload_name or "default"
        self._schema = entry.schema
        self.__name__ = f"{self._opname}.{self._overloadname}"

    @property
    def tags(self) -> list:
        return list(self._entry.tags)

    @property
    def overloadpacket(self):
        return getattr(namespace(self._namespace), self._opname)

    def __call__(self, *args, **kwargs):
        return call(self._entry, args, kwargs)

    def name(self) -> str:
        return self._entry.qualified

    def __repr__(self) -> str:
        return f"<OpOverload(op='{self._namespace}.{self._opname}', overload='{self._overloadname}')>"

    def __str__(self) -> str:
        return f"{self._namespace}.{self._opname}.{self._overloadname}"


class OpOverloadPacket:
    """A defined operator with its overloads (``torch.ops.mylib.numpy_sin``); calling it calls ``default``."""

    def __init__(self, ns: str, name: str):
        self._namespace, self.__name__ = ns, name
        self._qualified_op_name = f"{ns}::{name}"

    def overloads(self) -> list:
        prefix = f"{self._qualified_op_name}."
        return [key[len(prefix):] for key in _OPS if key.startswith(prefix)]

    def __getattr__(self, overload: str) -> OpOverload:
        entry = _OPS.get(f"{self._qualified_op_name}.{overload}")
        if overload.startswith("__") or entry is None:
            raise AttributeError(f"The underlying op of '{self._namespace}.{self.__name__}' has no overload name "
                                 f"'{overload}'")
        found = OpOverload(entry)
        setattr(self, overload, found)
        return found

    def __call__(self, *args, **kwargs):
        relevant = core.utils._pytree.tree_leaves((args, kwargs))
        if core.overrides.has_torch_function(relevant):  # NOTE: torch hands a mode or FX's Proxy the packet called
            return core.overrides.handle_torch_function(self, relevant, *args, **kwargs)  # (the overload: called so)
        return self.default(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='{self._namespace}.{self.__name__}')>"

    def __str__(self) -> str:
        return f"{self._namespace}.{self.__name__}"


class _OpNamespace(types.ModuleType):
    """``torch.ops.mylib``: a packet per operator defined in the namespace."""

    def __init__(self, name: str):
        super().__init__(f"torch.ops.{name}")
        self.name = name
        self.__file__ = "torch.ops"

    def __getattr__(self, name: str) -> OpOverloadPacket:
        if name.startswith("__") or not any(key.startswith(f"{self.name}::{name}.") for key in _OPS):
            raise AttributeError(f"'_OpNamespace' '{self.name}' object has no attribute '{name}'")
        packet = OpOverloadPacket(self.name, name)
        setattr(self, name, packet)
        return packet
