"""Which of core's names take part in ``__torch_function__`` dispatch, as torch's lists say: the public namespaces
and the modules that define ops, the Tensor methods (operators with the method torch passes for them, the names
torch binds to one function), the functions torch writes in Python without dispatching, the properties whose
reading (and writing) dispatches. ``core._torch_function`` reads these at activation; ``overridable_functions`` is
``torch.overrides.get_overridable_functions``' answer.
"""

from __future__ import annotations

import types

_NAMESPACES = ("core", "core.nn.functional", "core.linalg", "core.fft", "core.special")
_OP_MODULES = ("core._C._linalg", "core._C._fft", "core._C._special",  # (core._c_namespaces)
               "core.ops", "core._factories", "core._random_factories", "core.functional", "core._stft",
               "core.nn.functional", "core.linalg", "core.fft", "core.special", "core._special_api",
               "core._special_polynomials")
# torch passes these methods for Python's operators (a + b: Tensor.add); the others pass themselves
_OPERATOR_FUNCS = {"__add__": "add", "__radd__": "add", "__sub__": "sub", "__mul__": "mul", "__rmul__": "mul",
                   "__truediv__": "div", "__mod__": "remainder", "__lt__": "lt", "__le__": "le", "__gt__": "gt",
                   "__ge__": "ge", "__ne__": "ne", "__neg__": "neg", "__pos__": "positive", "__abs__": "abs",
                   "__rand__": "bitwise_and", "__ror__": "bitwise_or", "__rxor__": "bitwise_xor",
                   "__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_", "__itruediv__": "div_",
                   "__ifloordiv__": "floor_divide_", "__imod__": "remainder_", "__str__": "__repr__",
                   "__matmul__": "matmul", "__idiv__": "div_"}
# names torch/_tensor.py binds to another method (``__neg__ = _C.TensorBase.neg``, ``__rtruediv__ = __rdiv__``): one
# function under both names, before activation and after, so a mode's ``func is Tensor.neg`` holds for ``-x``
_SAME_METHODS = {"__neg__": "neg", "__pos__": "positive", "__abs__": "abs", "__rtruediv__": "__rdiv__",
                 "__itruediv__": "__idiv__"}
# torch's Python wrappers of its C ``pow``/``pow_`` keep the wrapped names (a mode sees ``func.__name__ == "pow"``)
_WRAPPER_NAMES = {"__pow__": "pow", "__ipow__": "pow_"}
_DUNDERS = frozenset(_OPERATOR_FUNCS) | {
    "__rsub__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__rmod__", "__pow__", "__rpow__", "__ipow__",
    "__matmul__", "__rmatmul__", "__and__", "__or__", "__xor__", "__lshift__", "__rlshift__", "__rshift__",
    "__rrshift__", "__eq__", "__invert__", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__",
    "__float__", "__int__", "__index__", "__bool__", "__complex__", "__len__", "__contains__", "__format__",
    "__reversed__", "__array__", "__getitem__", "__setitem__", "__repr__", "__dlpack__", "__rdiv__"}
# the operators whose TypeError, a handler's too, becomes NotImplemented in torch (its C methods'
# TypeError_to_NotImplemented_, its Python ones' _handle_torch_function_and_wrap_type_error_to_not_implemented), so
# Python asks the other operand: a MetaTensor > ndarray falls to the array's reflected comparison and MONAI's
# __array_ufunc__
_TYPE_ERROR_NOT_IMPLEMENTED = frozenset({
    "__add__", "__radd__", "__iadd__", "__mul__", "__rmul__", "__imul__", "__sub__", "__isub__", "__div__",
    "__truediv__", "__floordiv__", "__idiv__", "__ifloordiv__", "__mod__", "__imod__", "__eq__", "__ne__", "__lt__",
    "__le__", "__gt__", "__ge__", "__rand__", "__ror__", "__rxor__", "__matmul__", "__rsub__", "__rdiv__",
    "__rtruediv__", "__pow__", "__ipow__", "__rmod__", "__rpow__", "__rfloordiv__", "__rlshift__", "__rrshift__",
    "__rmatmul__"})
_NOT_DISPATCHED = frozenset({"as_subclass"})
# public functions torch writes in Python without handing the call to __torch_function__: a mode never sees them
_PLAIN_FUNCTIONS = frozenset({"broadcast_shapes", "assert_int_or_pair"})
# ... and those of one namespace: torch's F.sigmoid and F.tanh are ``input.sigmoid()``, ``input.tanh()``, so a mode
# sees ``Tensor.sigmoid`` (torch.sigmoid dispatches as itself)
_PLAIN_IN = {"core.nn.functional": frozenset({"sigmoid", "tanh"})}


def _namespace_functions(module):
    """``(name, function)`` of a namespace's functions that dispatch (ops or, once active, their wrappers)."""
    plain = _PLAIN_IN.get(module.__name__, ())
    for name in dir(module):
        obj = getattr(module, name)
        if not name.startswith("_") and isinstance(obj, types.FunctionType) and obj.__module__.startswith(_OP_MODULES) \
                and name not in _PLAIN_FUNCTIONS and name not in plain:
            yield name, obj


def _tensor_methods(Tensor) -> dict:
    return {name: obj for name, obj in vars(Tensor).items() if isinstance(obj, types.FunctionType)
            and (name in _DUNDERS or not name.startswith("_")) and name not in _NOT_DISPATCHED}


# torch's Tensor properties whose reading dispatches (its C getset descriptors); writing dispatches for _SETTERS
_PROPERTIES = ("H", "T", "_backward_hooks", "_cdata", "_post_accumulate_grad_hooks", "_version", "data", "device",
               "dtype", "grad", "grad_dtype", "grad_fn", "imag", "is_cpu", "is_cuda", "is_ipu", "is_leaf", "is_maia",
               "is_meta", "is_mkldnn", "is_mps", "is_mtia", "is_nested", "is_quantized", "is_sparse", "is_sparse_csr",
               "is_vulkan", "is_xla", "is_xpu", "itemsize", "layout", "mH", "mT", "name", "nbytes", "ndim",
               "output_nr", "real", "requires_grad", "retains_grad", "shape", "volatile")
_SETTERS = frozenset({"grad", "data", "requires_grad"})
_NOWRAP = frozenset({"grad"})  # torch.overrides.get_default_nowrap_functions(): Tensor.grad.__get__ and the like


def overridable_functions() -> dict:
    """``{namespace: [function, ...]}`` of what dispatches: the ops themselves, or their wrappers once active."""
    import importlib

    from core._tensor import Tensor

    found = {}
    for namespace in _NAMESPACES:
        module = importlib.import_module(namespace)
        found[module] = [obj for _, obj in _namespace_functions(module)]
    found[Tensor] = list(_tensor_methods(Tensor).values())
    return found
