"""PyTorch's aliases are functions of their own: ``torch.absolute is torch.abs`` is False and
``torch.absolute.__name__`` is ``'absolute'``, so a ``__torch_function__`` handler, an overrides table or an fx
graph tells them apart. ``alias`` makes such a twin: a new function object running the same code (no extra call,
so the alias costs what the op costs), named for the alias."""

import types

__all__ = ["alias"]


def alias(fn: types.FunctionType, name: str) -> types.FunctionType:
    """A function named ``name`` that runs ``fn``'s code with ``fn``'s defaults, closure and attributes; defined
    in ``fn``'s module (bind it there under ``name``, where ``pickle`` looks it up)."""
    twin = types.FunctionType(fn.__code__, fn.__globals__, name, fn.__defaults__, fn.__closure__)
    twin.__kwdefaults__ = dict(fn.__kwdefaults__) if fn.__kwdefaults__ else None
    twin.__dict__.update(fn.__dict__)
    owner = fn.__qualname__.rpartition(".")[0]  # a method's class (Tensor.ndimension); not a factory's <locals>
    twin.__qualname__ = f"{owner}.{name}" if owner and "<locals>" not in owner else name
    twin.__module__, twin.__doc__ = fn.__module__, fn.__doc__
    twin.__annotations__ = dict(fn.__annotations__)
    return twin
