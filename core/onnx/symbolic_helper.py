"""``torch.onnx.symbolic_helper``: the decorator a custom op's ONNX symbolic function is written with."""

from __future__ import annotations

import functools

__all__ = ["parse_args"]

def parse_args(*arg_descriptors: str):
    """Declare how an exporter converts each argument of a symbolic function (``"v"`` a value, ``"i"`` an int,
    ``"f"`` a float, ``"b"`` a bool, ``"is"`` a list of ints, ``"none"`` unused...). Core never exports, so the
    function is returned as it is (wrapped, its name and docstring kept)."""
    def decorator(fn):
        @functools.wraps(fn)
        def wrapper(g, *args, **kwargs):
            return fn(g, *args, **kwargs)
        return wrapper
    return decorator
