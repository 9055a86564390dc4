"""``torch.distributed.algorithms``: the generic join context manager (accelerate's Accelerator imports ``Join``)."""

from .join import Join, Joinable, JoinHook

__all__ = ["Join", "Joinable", "JoinHook"]
