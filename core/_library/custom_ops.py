"""The operator registry behind ``torch.library`` and ``torch.ops.<namespace>``.

Each defined operator (``mylib::numpy_sin``, overload ``default``) is one ``OpEntry``: its schema, its kernels by
device type, its fake (meta) kernel and its autograd formula. Calling an operator binds the arguments against the
schema with torch's errors, picks the kernel for the tensors' device, and, for a ``custom_op`` whose inputs require
grad, runs it inside one generated ``autograd.Function`` (``GeneratedBackwardFor_mylib_numpy_sin_defaultBackward``,
as torch names it) whose backward is the registered formula, or raises torch's error when none was registered.
"""

from __future__ import annotations

import types

import core
from core._library.schema import FunctionSchema, bind

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

    @property
    def qualified(self) -> str:
        return self.schema.name + (f".{self.schema.overload_name}" if self.schema.overload_name else "")

    @property
    def has_autograd(self) -> bool:
        return self.custom is not None or self.backward is not None


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
        raise RuntimeError(f"Operator {qualname} does not exist (define it first with torch.library.define "
                           "or Library.define)")
    return entry


def namespace(name: str):
    """``torch.ops.<name>`` when some operator was defined in it, else None."""
    return _NAMESPACES.get(name)


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
    if kernel is None and device == "meta" and entry.fake is not None:
        kernel = entry.fake
    if kernel is None:
        kernel = entry.kernels.get("default")
    if kernel is None:
        backend = device.upper() if device in ("cpu", "meta") else device.capitalize()
        raise NotImplementedError(f"Could not run '{entry.qualified}' with arguments from the '{backend}' backend. "
                                  "This could be because the operator doesn't exist for this backend.")
    return kernel


def call(entry: OpEntry, args, kwargs):
    """Runs the operator: checks and binds the arguments, then the kernel (through autograd where needed)."""
    positional, keyword_only = bind(entry.schema, args, kwargs)
    kernel = _kernel(entry, _device_key([*positional, *keyword_only.values()]))
    if entry.custom is None:
        return kernel(*positional, **keyword_only)
    if core.is_grad_enabled() and _any_requires_grad(positional):
        result = _generated(entry).apply(*positional, _Metadata(kernel, keyword_only))
    else:
        with core.no_grad():
            result = kernel(*positional, **keyword_only)
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
    """The last argument of a generated Function: the kernel and the keyword-only values (no gradient)."""

    def __init__(self, kernel, keyword_only):
        self.kernel, self.keyword_only = kernel, keyword_only


def _generated(entry: OpEntry):
    """The ``autograd.Function`` that runs ``entry``'s kernel and its registered backward."""
    if entry._generated is not None:
        return entry._generated
    ns, _, opname = entry.schema.name.partition("::")
    overload = entry.schema.overload_name or "default"
    packet_name = f"{ns}.{opname}.{overload}"

    def forward(ctx, *args):
        metadata, inputs = args[-1], args[:-1]
        result = metadata.kernel(*inputs, **metadata.keyword_only)
        if entry.setup_context is not None:
            if metadata.keyword_only:
                entry.setup_context(ctx=ctx, inputs=inputs, keyword_only_inputs=metadata.keyword_only, output=result)
            else:
                entry.setup_context(ctx=ctx, inputs=inputs, output=result)
        return result

    def backward(ctx, *grads):
        if entry.backward is None:
            raise RuntimeError(f"Trying to backward through {packet_name} but no autograd formula was registered. "
                               "Please use register_autograd to add one.")
        needs = ctx.needs_input_grad
        ctx.needs_input_grad = needs[:-1]
        try:
            result = entry.backward(ctx, *grads)
        finally:
            ctx.needs_input_grad = needs
        return (*result, None) if isinstance(result, tuple) else (result, None)

    name = f"GeneratedBackwardFor_{ns}_{opname}_{overload}"
    entry._generated = type(name, (core.autograd.Function,),
                            {"forward": staticmethod(forward), "backward": staticmethod(backward)})
    return entry._generated


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
