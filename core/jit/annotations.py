"""``torch.jit.annotations``'s ``BroadcastingList1``-``3``: the TorchScript hint for an argument that is one number or
a list of them (torchvision's ``roi_align`` takes ``output_size: BroadcastingList2[int]``). Outside TorchScript,
subscripting one gives ``None``, as in PyTorch. It also hands on ``typing``'s ``Any``, ``Dict``, ``List``,
``Optional``, ``Tuple`` and ``Union``, as PyTorch's does (timm's DenseNet imports ``List`` from here)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Union  # torch re-exports them

__all__ = ["Any", "BroadcastingList1", "BroadcastingList2", "BroadcastingList3", "Dict", "List", "Optional", "Tuple",
           "Union"]


class _BroadcastingList:
    def __getitem__(self, types):
        return None


BroadcastingList1 = BroadcastingList2 = BroadcastingList3 = _BroadcastingList()
