"""``torch.jit.annotations``'s ``BroadcastingList1``-``3``: the TorchScript hint for an argument that is one number or
a list of them (torchvision's ``roi_align`` takes ``output_size: BroadcastingList2[int]``). Outside TorchScript,
subscripting one gives ``None``, as in PyTorch."""

from __future__ import annotations

__all__ = ["BroadcastingList1", "BroadcastingList2", "BroadcastingList3"]


class _BroadcastingList:
    def __getitem__(self, types):
        return None


BroadcastingList1 = BroadcastingList2 = BroadcastingList3 = _BroadcastingList()
