"""``torch.distributed.constants``: the process groups' default timeouts (Lightning's collectives import them)."""

from datetime import timedelta

__all__ = ["default_pg_timeout", "default_pg_nccl_timeout"]

_DEFAULT_PG_TIMEOUT = timedelta(minutes=30)  # torch's, for gloo and every backend without its own
default_pg_timeout = _DEFAULT_PG_TIMEOUT
default_pg_nccl_timeout = None  # torch's value in a build without NCCL (its CPU wheels)
