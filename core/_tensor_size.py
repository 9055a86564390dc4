"""``torch.Size`` and ``torch.strided``: the values a tensor's ``shape`` and ``layout`` read as.

Split out of ``core/_tensor.py`` (which re-exports them; ``core`` exports ``core.Size`` and ``core.strided``): plain
values with PyTorch's printing, errors and pickling, which need nothing of ``Tensor``.
"""

from __future__ import annotations

__all__ = ["Size", "strided"]


class Size(tuple):
    """``torch.Size``: a tuple of ints that prints as ``torch.Size([2, 3])``."""

    __module__ = "core"  # type(s) shows the public path, <class 'core.Size'>, as torch shows torch.Size
    __slots__ = ()

    def __new__(cls, sizes=()):
        items = tuple(sizes)
        for i, s in enumerate(items):
            if isinstance(s, bool) or not hasattr(s, "__index__"):
                raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{type(s).__name__}')")
        return tuple.__new__(cls, (s.__index__() for s in items))

    def __repr__(self) -> str:
        _unpacked(self)
        return f"torch.Size([{', '.join(str(s if getattr(s, '_is_nested_int', False) else int(s)) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        _unpacked(self)
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item):
        out = tuple.__getitem__(self, item)
        return _size(out) if isinstance(item, slice) else out

    def __add__(self, other):
        return _size(tuple.__add__(self, tuple(other)))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n):
        return _size(tuple.__mul__(self, n))

    __rmul__ = __mul__

    def __reduce__(self):
        return (Size, (tuple(self),))

    # torch.Size is a C type named torch.Size: its AttributeErrors say 'torch.Size' object
    def __getattr__(self, name):
        raise AttributeError(f"'torch.Size' object has no attribute '{name}'", name=name, obj=self)

    def __setattr__(self, name, value):
        try:
            tuple.__setattr__(self, name, value)
        except AttributeError as error:
            raise _size_attribute_error(error) from None

    def __delattr__(self, name):
        try:
            tuple.__delattr__(self, name)
        except AttributeError as error:
            raise _size_attribute_error(error) from None


def _size_attribute_error(error: AttributeError) -> AttributeError:
    return AttributeError(str(error).replace("'Size' object", "'torch.Size' object", 1))


def _size(shape) -> Size:
    """A ``Size`` of a backend array's shape (already ints: no checks on this hot path)."""
    return tuple.__new__(Size, shape)


def _unpacked(size: Size) -> None:
    """PyTorch's Size holds any int but reads each as an int64 to print it or count its elements: past int64,
    ``repr`` and ``numel`` raise its ValueError (``torch.Size([2**63])`` itself is made)."""
    for s in size:
        if type(s) is int and not -2**63 <= s < 2**63:
            raise ValueError("Overflow when unpacking long long")


class _Layout:
    """``torch.strided``: the only memory layout core has (its class is ``torch.layout``)."""

    __slots__ = ()
    __qualname__ = "layout"  # PyTorch's class name (torch.typename, type annotations printing it)
    __module__ = "core"  # (torch.layout: core.layout is this class)

    def __repr__(self) -> str:
        return "torch.strided"

    def __reduce__(self):
        return "strided"


strided = _Layout()
