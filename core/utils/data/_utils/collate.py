"""Collation: how a ``DataLoader`` turns a list of samples into a batch, at the path PyTorch keeps it.

``collate(batch, collate_fn_map=...)`` walks mappings, named tuples and sequences and hands each leaf's batch to
the function registered for its type; ``default_collate`` is ``collate`` with ``default_collate_fn_map``, which
data code extends (``default_collate_fn_map[MyType] = fn``) or copies to collate its own types.
"""

from __future__ import annotations

import collections.abc
import copy
import re

import numpy as np

import core
from core import _dtype, _factories
from core._tensor import Tensor

__all__ = ["collate", "default_collate", "default_collate_fn_map", "default_convert", "collate_tensor_fn",
           "collate_numpy_array_fn", "collate_numpy_scalar_fn", "collate_float_fn", "collate_int_fn",
           "collate_str_fn", "default_collate_err_msg_format", "np_str_obj_array_pattern"]

np_str_obj_array_pattern = re.compile(r"[SaUO]")  # a NumPy dtype.str of strings or objects: no tensor form

default_collate_err_msg_format = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or "
                                  "lists; found {}")


def collate(batch, *, collate_fn_map=None):
    """Collate ``batch`` (a sequence of samples of one structure): a registered type's function first (exact type,
    then ``isinstance`` in the map's order), else recurse into mappings, named tuples and sequences."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for collate_type in collate_fn_map:
            if isinstance(elem, collate_type):
                return collate_fn_map[collate_type](batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map) for key in elem}
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)  # keeps the mapping's own type and attributes
                clone.update(fields)
                return clone
            return elem_type(fields)
        except TypeError:  # a mapping type that can't be rebuilt this way
            return fields
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return elem_type(*(collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        size = len(next(it))
        if not all(len(e) == size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return columns  # as PyTorch: a list, whatever the tuple was
        try:
            return elem_type(columns)
        except TypeError:
            return columns
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def collate_tensor_fn(batch, *, collate_fn_map=None):
    elem = batch[0]
    if elem.is_nested:
        raise RuntimeError("Batches of nested tensors are not currently supported by the default collate_fn; "
                           "please provide a custom collate_fn to handle them appropriately.")
    if elem.layout in {core.sparse_coo, core.sparse_csr, core.sparse_bsr, core.sparse_csc, core.sparse_bsc}:
        raise RuntimeError("Batches of sparse tensors are not currently supported by the default collate_fn; "
                           "please provide a custom collate_fn to handle them appropriately.")
    # the public torch.stack, with torch's arguments, so a Tensor subclass's __torch_function__ (MONAI's MetaTensor)
    # makes the batch, as in torch, whose collate is Python
    return core.stack(batch, 0, out=None)


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    elem = batch[0]
    if np_str_obj_array_pattern.search(elem.dtype.str) is not None:  # arrays of strings or objects
        raise TypeError(default_collate_err_msg_format.format(elem.dtype))
    return collate([_factories.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    return _factories.as_tensor(np.asarray(batch))


def collate_float_fn(batch, *, collate_fn_map=None):
    return _factories.tensor(list(batch), dtype=_dtype.float64)


def collate_int_fn(batch, *, collate_fn_map=None):
    return _factories.tensor(list(batch))


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map = {
    Tensor: collate_tensor_fn,
    (np.ndarray, np.memmap): collate_numpy_array_fn,
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
    float: collate_float_fn,
    int: collate_int_fn,
    str: collate_str_fn,
    bytes: collate_str_fn,
}


def default_collate(batch):
    """Stack tensors, turn numbers and arrays into tensors, recurse into tuples, lists and dicts."""
    return collate(batch, collate_fn_map=default_collate_fn_map)


def default_convert(data):
    """Without batching: NumPy arrays and scalars become tensors; containers are converted element-wise."""
    if isinstance(data, Tensor):
        return data
    if isinstance(data, np.ndarray):
        return data if data.dtype.kind in "OSU" else _factories.as_tensor(data)
    if isinstance(data, np.generic):
        return _factories.as_tensor(data)
    if isinstance(data, dict):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, list):
        return [default_convert(d) for d in data]
    return data
