"""A leaf's first ``.grad`` takes the incoming gradient's array when nothing else can see it, as PyTorch's
AccumulateGrad "steals" a gradient instead of cloning it.

PyTorch (``torch/csrc/autograd/functions/accumulate_grad.h``) keeps the incoming gradient itself as the new
``.grad`` when grad mode is off (no ``create_graph``), the gradient is dense, it obeys the leaf's layout contract
and its use count shows no other reference. Otherwise it clones. Both give the same values; the clone costs a
pass through memory and a fresh allocation (the 784-256-128-10 MLP's two weight gradients: ~40 µs of its ~1.5 ms
step). Here the engine's hot paths ask ``adopted`` for the array to keep, or None to copy.

NOTE: the hot-path trick of this module: "nothing else can see it" is read from CPython's reference counts.
The array must be referenced only by the gradient tensor (its ``_data`` and ``_root`` slots: no other tensor
wraps it, no view, ``.numpy()`` result or hook holds it) and own its memory, or be a view covering the whole of
an array that only the gradient and the tensor it views reach (``_whole_view_owner``: every ``Linear``'s weight
gradient); the tensor must be referenced only by the engine (``held``: the references the engine's calling
frames hold, counted at each call site), and by no weak reference. So a gradient the user passed in
(``y.backward(g)`` through an ``AddBackward``), one sent to two leaves (``a + b``), one a hook, a custom Function
or a stepped backward kept: all copied, as torch copies them. Anything that holds more references (a debugger's
or torch dynamo's frame hook keeping every frame's locals) only makes it copy. A count is exact only where the
interpreter counts every reference it holds: CPython 3.14 borrows references on its stack (lower counts), and a
free-threaded build counts differently, so there this always copies (the same values, the old speed); so does a
gradient under ``ADOPT_MIN`` elements, whose copy costs less than these checks.
"""

from __future__ import annotations

import sys
import weakref

import numpy as np

from core.autograd import function as _function

__all__ = ["adopted"]

# NOTE: see the module docstring: only where every reference is counted
_COUNTS_EXACT = sys.version_info < (3, 14) and getattr(sys, "_is_gil_enabled", lambda: True)()
_ndarray = np.ndarray
_refcount = sys.getrefcount
_weak_count = weakref.getweakrefcount
# References this module's own frames add to the gradient tensor while ``adopted`` counts them: the engine's
# ``_accumulate`` parameter, ``adopted``'s parameter and ``getrefcount``'s argument
_OWN_TENSOR_REFS = 3
# ... and to its array: the tensor's ``_data`` and ``_root`` slots, ``adopted``'s local and ``getrefcount``'s
# argument
_OWN_ARRAY_REFS = 4
# Elements from which a gradient is adopted: a smaller one is copied, the checks here costing more than the copy
# (a 2-8-8-1 MLP's gradients: ~0.5 µs more each)
ADOPT_MIN = 4096


def adopted(g, held: int, variable):
    """``g``'s array, to become a leaf's new ``.grad`` as it is, when nothing but the engine can reach it and it
    is laid out as a C-contiguous leaf's gradient must be (``variable``: the leaf's array); else None (copy it).

    ``held``: how many references the engine's frames above ``_accumulate`` hold to ``g`` (0: never adopt)."""
    arr = g._data
    if not held or type(arr) is not _ndarray or arr.size < ADOPT_MIN or not _COUNTS_EXACT \
            or not arr.flags.c_contiguous or not variable.flags.c_contiguous \
            or _refcount(g) != held + _OWN_TENSOR_REFS or _weak_count(g):
        return None
    if arr.base is None:  # a fresh array: g's two slots hold it
        return arr if g._root is arr and arr.flags.writeable and _refcount(arr) == _OWN_ARRAY_REFS else None
    del arr  # (_whole_view_owner counts the view's references)
    return _whole_view_owner(g)


def _whole_view_owner(g):
    """The array ``g``'s view covers whole, when only ``g`` and the gradient it views can reach it; else None.

    NOTE: the weight gradient of every ``Linear``: its GEMM makes W's gradient as an (out, in) array and hands
    ``Wᵀ``'s node its transposed view, whose backward (``TBackward0``) sends W the view's transpose, a view of
    the same (out, in) array. Once the engine has dropped ``Wᵀ``'s gradient (``b`` here, ``g._base``), ``g`` is
    the only way to it: ``b``'s array (also ``g``'s root) is the owner or a view of it, held by those three slots
    alone, ``g``'s view by its slot alone, and the owner by them and by the views' ``base``."""
    b = g._base
    # b: g's _base slot, this local and getrefcount's argument
    if type(b) is not _function._TENSOR or b._base is not None or _refcount(b) != 3 or _weak_count(b):
        return None
    view, root = g._data, b._data
    owner = view.base
    if type(owner) is not _ndarray or owner.base is not None or owner.shape != view.shape \
            or owner.dtype != view.dtype or not owner.flags.c_contiguous or not owner.flags.writeable \
            or g._root is not root or b._root is not root or _refcount(view) != 3:  # (g._data, local, argument)
        return None  # (a C-contiguous view of the owner's shape and dtype starts where it does: the whole of it)
    if root is owner:
        owner_refs = 3 + 1  # the three slots and the view's base
    elif root.base is owner and _refcount(root) == 5:  # the three slots, this local and getrefcount's argument
        owner_refs = 2  # the two views' base
    else:
        return None
    return owner if _refcount(owner) == owner_refs + 2 else None  # (+ this local and getrefcount's argument)
