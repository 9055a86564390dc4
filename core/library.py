"""``torch.library``: defining new operators from Python, as torch 2.13 does.

``@custom_op("mylib::numpy_sin", mutates_args=())`` turns a type-hinted function into an operator (its schema
inferred from the hints with torch's rules and errors) callable as the decorated object and as
``torch.ops.mylib.numpy_sin`` / ``.default``; ``register_fake``, ``register_autograd`` (gradients through
``setup_context`` and ``backward``) and ``register_kernel`` extend it. ``Library("mylib", "DEF")`` with
``define(schema)`` and ``impl(name, fn, "CPU")``, and the module-level ``define``/``impl``, define operators from
schema text. ``opcheck`` runs the checks core can: the schema's mutations, the fake kernel's shapes, dtypes and
strides against the real ones, and a second run (forward and backward) against the first.
"""

import numpy as _np

import core
from core._library import custom_ops as _ops
from core._library import tags as _tags
from core._library.schema import infer_schema
from core._library.schema import parse_schema as _parse_schema

__all__ = ["Library", "CustomOpDef", "custom_op", "define", "impl", "register_fake", "register_autograd",
           "register_kernel", "opcheck", "infer_schema", "get_ctx"]

_KINDS = ("DEF", "IMPL", "FRAGMENT")
_DEVICE_KEYS = {"cpu": "cpu", "cuda": "cuda", "meta": "meta", "compositeimplicitautograd": "default",
                "compositeexplicitautograd": "default", "autograd": "default", "": "default"}


class CustomOpDef:
    """The object ``@custom_op`` returns: call it to run the operator; ``register_*`` to extend it."""

    def __init__(self, namespace: str, name: str, schema: str, fn):
        self._namespace, self._name, self._init_fn = namespace, name, fn
        self._schema = schema
        parsed = _parse_schema(name + schema)  # (as torch's: its parse errors quote "name(args) -> returns")
        parsed.name = f"{namespace}::{name}"
        self._entry = _ops.register(parsed, custom=self)
        self._entry.kernels["default"] = fn
        self.__name__, self.__doc__ = getattr(fn, "__name__", name), getattr(fn, "__doc__", None)

    @property
    def _opoverload(self):
        return getattr(_ops.namespace(self._namespace), self._name).default

    def __call__(self, *args, **kwargs):
        return _ops.call(self._entry, args, kwargs)

    def __repr__(self) -> str:
        return f"<CustomOpDef({self._namespace}::{self._name})>"

    def register_fake(self, fn=None, /):
        """Registers the kernel that computes the outputs' metadata (shapes, dtypes, strides) from meta tensors."""
        def inner(fake):
            self._entry.fake = fake
            return fake
        return inner if fn is None else inner(fn)

    def register_kernel(self, device_types, fn=None, /):
        """Registers ``fn`` as the kernel for ``device_types`` ("cpu", "cuda" or a sequence of them)."""
        def inner(kernel):
            for device in [device_types] if isinstance(device_types, str) else device_types:
                self._entry.kernels[core.device(device).type] = kernel
            return kernel
        return inner if fn is None else inner(fn)

    def register_autograd(self, backward, /, *, setup_context=None) -> None:
        """Gradients through ``backward(ctx, *grads)``; ``setup_context(ctx, inputs, output)`` saves what it needs."""
        if any(arg.is_mutable for arg in self._entry.schema.arguments):
            raise RuntimeError(f"Cannot register autograd formula for non-functional operator {self}. "
                               "Please create a functional operator and register an autograd formula for that.")
        self._entry.backward, self._entry.setup_context = backward, setup_context


def custom_op(name: str, fn=None, /, *, mutates_args, device_types=None, schema: str | None = None, tags=None):
    """Wraps a type-hinted function into the operator ``name`` ("namespace::opname")."""
    def inner(function):
        tagged = _tags.as_tuple(tags)
        text = schema if schema is not None else infer_schema(function, mutates_args=mutates_args, tags=tagged)
        namespace, _, opname = _split_name(name)
        op = CustomOpDef(namespace, opname, text, function)
        op._entry.tags = (_tags.Tag.pt2_compliant_tag, *tagged)
        if op._entry.returns_mutated:  # NOTE: torch generates their fake kernel: the mutated arguments themselves
            op._entry.fake = _ops.returned_mutated(op._entry)
        if device_types is not None:
            op._entry.kernels.pop("default")
            op.register_kernel(device_types, function)
        return op

    return inner if fn is None else inner(fn)


def _split_name(qualname: str):
    namespace, sep, opname = qualname.partition("::")
    if not sep or not namespace or not opname or "::" in opname:
        raise ValueError(f"Expected there to be a namespace in {qualname}, i.e. The operator name should look "
                         "something like ns::foo")
    if "." in opname:
        raise ValueError(f"The torch.custom_ops APIs do not handle overloads, i.e. operator names with '.' in them. "
                         f"Please name your operator something like {namespace}::{opname.split('.')[0]}. "
                         f"Got: {qualname}")
    return namespace, sep, opname


class Library:
    """A namespace's registrations: ``kind`` "DEF" (its first definitions), "FRAGMENT" (more) or "IMPL"."""

    _defined_namespaces: set = set()

    def __init__(self, ns: str, kind: str, dispatch_key: str = ""):
        if kind not in _KINDS:
            raise ValueError(f"Unsupported kind: {kind}")
        if kind == "DEF" and ns in Library._defined_namespaces:
            raise RuntimeError(f"Only a single TORCH_LIBRARY can be used to register the namespace {ns}; please put "
                               "all of your definitions in a single TORCH_LIBRARY block.")
        if kind == "DEF":
            Library._defined_namespaces.add(ns)
        self.ns, self.kind, self.dispatch_key = ns, kind, dispatch_key
        self._entries: list = []

    def __repr__(self) -> str:
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def define(self, schema: str, alias_analysis: str = "", *, tags=()) -> str:
        """Defines the operator of ``schema`` ("name(Tensor x) -> Tensor") in this namespace; returns its name."""
        if self.kind == "IMPL":
            raise RuntimeError("define() is not allowed on an IMPL library")
        parsed = _parse_schema(schema)
        parsed.name = f"{self.ns}::{parsed.name}"
        self._entries.append(_ops.register(parsed))
        return parsed.name.partition("::")[2]

    def impl(self, op_name, fn, dispatch_key: str = "", *, with_keyset: bool = False, allow_override=False):
        """Registers ``fn`` as ``op_name``'s kernel for ``dispatch_key`` ("CPU", "CompositeImplicitAutograd"...)."""
        name = op_name if isinstance(op_name, str) else op_name.name()
        qualname = name if "::" in name else f"{self.ns}::{name}"
        key = (dispatch_key or self.dispatch_key).lower()
        entry = _ops.lookup(qualname)
        if key == "meta":
            entry.fake = fn
        entry.kernels[_DEVICE_KEYS.get(key, key)] = fn

    def _destroy(self) -> None:
        Library._defined_namespaces.discard(self.ns)


def define(qualname: str, schema: str, *, lib=None, tags=()) -> None:
    """Defines ``qualname`` ("mylib::foo") with ``schema`` ("(Tensor x) -> Tensor")."""
    namespace, _, name = qualname.partition("::")
    lib = lib if lib is not None else Library(namespace, "FRAGMENT")
    lib.define(name + schema, tags=tags)


def impl(qualname, types, func=None, *, lib=None):
    """Registers a kernel of ``qualname`` for ``types`` ("cpu", "cuda", "CompositeImplicitAutograd"...)."""
    def inner(fn):
        name = qualname if isinstance(qualname, str) else qualname.name()
        library = lib if lib is not None else Library(name.partition("::")[0], "FRAGMENT")
        for key in [types] if isinstance(types, str) else types:
            library.impl(name, fn, key)
        return fn

    return inner if func is None else inner(func)


def _entry_of(op):
    if isinstance(op, CustomOpDef):
        return op._entry
    if isinstance(op, _ops.OpOverload):
        return op._entry
    if isinstance(op, _ops.OpOverloadPacket):
        return op.default._entry
    return _ops.lookup(op)


def register_fake(op, func=None, /, *, lib=None):
    """Registers the fake (meta) kernel of ``op`` (a ``CustomOpDef``, an overload or "ns::name")."""
    def inner(fn):
        _entry_of(op).fake = fn
        return fn

    return inner if func is None else inner(func)


def register_kernel(op, device_types, func=None, /, *, lib=None):
    def inner(fn):
        entry = _entry_of(op)
        for device in [device_types] if isinstance(device_types, str) else device_types:
            entry.kernels[core.device(device).type] = fn
        return fn

    return inner if func is None else inner(func)


def register_autograd(op, backward, /, *, setup_context=None, lib=None) -> None:
    """Gradients for ``op`` through ``backward``; see ``CustomOpDef.register_autograd``."""
    entry = _entry_of(op)
    if entry.custom is not None:
        entry.custom.register_autograd(backward, setup_context=setup_context)
        return
    entry.backward, entry.setup_context = backward, setup_context
    entry.custom = CustomOpDef.__new__(CustomOpDef)  # a schema-defined op now runs through the generated Function
    entry.custom._name, entry.custom._init_fn = entry.qualified, backward


def get_ctx():
    """Inside a fake kernel, its context (``ctx.new_dynamic_size()``); None elsewhere, as torch's."""
    return _ops.current_fake_ctx()


# ---- opcheck ---------------------------------------------------------------------------------------------------

_DEFAULT_TEST_UTILS = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")


class _OpCheckError(Exception):
    """What a failed check raises (torch's lives in ``torch.testing._internal.optests``: not a torch.library name)."""


_OpCheckError.__name__ = _OpCheckError.__qualname__ = "OpCheckError"


def opcheck(op, args, kwargs=None, *, test_utils=_DEFAULT_TEST_UTILS, raise_exception=True, atol=None, rtol=None):
    """``{test: "SUCCESS" or the exception}`` of the checks core can run on ``op`` with these arguments."""
    from core._library.opcheck import CHECKS

    kwargs = kwargs or {}
    if isinstance(test_utils, str):
        test_utils = (test_utils,)
    unknown = set(test_utils) - set(_DEFAULT_TEST_UTILS)
    if unknown:
        raise ValueError(f"test_utils={test_utils} is not a subset of {_DEFAULT_TEST_UTILS}")
    entry, results = _entry_of(op), {}
    for name in test_utils:
        try:
            CHECKS[name](op, entry, args, kwargs, atol, rtol)
            results[name] = "SUCCESS"
        except Exception as e:
            if raise_exception:
                raise _OpCheckError(f"opcheck(op, ...): {name} failed with {e} (scroll up for stack trace)") from e
            results[name] = e
    return results


def _clone_args(value):
    if isinstance(value, core.Tensor):
        return value.detach().clone().requires_grad_(value.requires_grad)
    if isinstance(value, (list, tuple)):
        return type(value)(_clone_args(v) for v in value)
    return value


def _same_values(a, b) -> bool:
    return _np.array_equal(_np.asarray(a.detach().cpu()._data), _np.asarray(b.detach().cpu()._data), equal_nan=True)
