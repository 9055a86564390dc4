"""``torch.distributed.nn.functional``: the autograd-aware collectives (``all_reduce``, ``all_gather``...) that losses
written for several GPUs call, such as Barlow Twins' cross-correlation summed over ranks (lightly's losses).

core runs one process (``core.distributed``'s world of size 1): each collective returns a new tensor holding what
that rank receives, which over one rank is a copy of its input, and its gradient passes back unchanged (PyTorch's
backward is the matching collective of the gradient: a sum, gather or scatter over one rank). As in PyTorch, each
needs ``init_process_group`` first (else ``ValueError``), and the ones PyTorch deprecates in favour of
``_functional_collectives`` warn with a ``FutureWarning``."""

from __future__ import annotations

import warnings

import core
from core import distributed as dist
from core.distributed import ReduceOp, group

__all__ = ["broadcast", "gather", "scatter", "reduce", "reduce_scatter", "all_gather", "all_to_all",
           "all_to_all_single", "all_reduce"]


def _deprecated(name: str, suggestion: str) -> None:
    warnings.warn(f"torch.distributed.nn.functional.{name} is deprecated, use {suggestion} instead.",
                  category=FutureWarning, stacklevel=3)


def _received(tensor, group_):
    """What this rank holds after a collective over a world of one: a copy of ``tensor`` (contiguous, as PyTorch's
    collectives write into a new contiguous buffer), differentiable as the identity."""
    dist._default()  # (not the group given: a default bound when this module was imported may be a destroyed one)
    return tensor.clone(memory_format=core.contiguous_format)


def broadcast(tensor, src, group=group.WORLD):
    """``tensor`` as rank ``src`` holds it."""
    _deprecated("broadcast", "torch.distributed._functional_collectives.broadcast")
    return _received(tensor, group)


def gather(tensor, dst=0, group=group.WORLD):
    """Every rank's ``tensor``, one per rank, on rank ``dst``."""
    return (_received(tensor, group),)


def scatter(tensors, src=0, group=group.WORLD):
    """This rank's entry of the source rank's ``tensors``."""
    if len(tensors) != dist.get_world_size(group):
        raise ValueError(f"scatter: expected {dist.get_world_size(group)} tensors, got {len(tensors)}")
    return _received(tensors[0], group)


def reduce(tensor, dst, op=ReduceOp.SUM, group=group.WORLD):
    """``tensor`` reduced with ``op`` over the ranks."""
    return _received(tensor, group)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=group.WORLD):
    """This rank's entry of ``input_list`` reduced over the ranks."""
    _deprecated("reduce_scatter", "torch.distributed._functional_collectives.reduce_scatter_single")
    return _received(input_list[0], group).reshape(output.shape)


def all_gather(tensor, group=group.WORLD):
    """Every rank's ``tensor``, one per rank."""
    _deprecated("all_gather", "torch.distributed._functional_collectives.all_gather_single")
    return (_received(tensor, group),)


def all_to_all(output_tensor_list, input_tensor_list, group=group.WORLD):
    """Each rank's entry of every rank's ``input_tensor_list``."""
    return tuple(_received(t, group) for t in input_tensor_list)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None, group=group.WORLD):
    """``input`` split among the ranks and each rank's share gathered."""
    _deprecated("all_to_all_single", "torch.distributed._functional_collectives.all_to_all_single")
    return _received(input, group).reshape(output.shape)


def all_reduce(tensor, op=ReduceOp.SUM, group=group.WORLD):
    """``tensor`` reduced with ``op`` over the ranks, on every rank."""
    _deprecated("all_reduce", "torch.distributed._functional_collectives.all_reduce")
    return _received(tensor, group)
