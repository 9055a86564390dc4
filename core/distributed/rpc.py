"""``torch.distributed.rpc`` as in a PyTorch built without RPC: ``is_available()`` is False and nothing else is
there (core runs one process, with no agents to call). Libraries import the module and check before using it
(PyTorch Geometric's ``distributed`` package asks ``hasattr(rpc, "api")``)."""

__all__ = ["is_available"]


def is_available() -> bool:
    return False
