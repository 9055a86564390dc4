"""``torch.distributed.tensor`` for one process: placements and a ``DTensor`` over a mesh of one rank.

Libraries written for tensor parallelism (Hugging Face transformers' ``modeling_utils``, ``pytorch_utils``) import
``DTensor``, ``Placement``, ``Shard`` and ``Replicate`` at module level and test ``isinstance(x, DTensor)`` before
anything distributed happens. core runs one process (``core.distributed``: a world of 1), where every placement
of a tensor holds all of it: ``DTensor.from_local`` wraps the local tensor, and ``to_local``/``full_tensor`` give
it back unchanged. The placements are PyTorch's: equal by value, hashable, printed as ``Shard(dim=0)``,
``Replicate()``, ``Partial(sum)`` (``str``: ``S(0)``, ``R``, ``P(sum)``).
"""

from __future__ import annotations

from core._tensor import Tensor

__all__ = ["DTensor", "Shard", "Replicate", "Partial", "Placement"]


class Placement:
    """Where a tensor's data lies along one mesh dimension."""

    def is_shard(self, dim: int | None = None) -> bool:
        return False

    def is_replicate(self) -> bool:
        return False

    def is_partial(self, reduce_op: str | None = None) -> bool:
        return False


class Shard(Placement):
    """Split along tensor dimension ``dim`` across the mesh dimension."""

    def __init__(self, dim: int):
        self.dim = dim

    def is_shard(self, dim: int | None = None) -> bool:
        return dim is None or dim == self.dim

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.dim == self.dim

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.dim))

    def __repr__(self) -> str:
        return f"Shard(dim={self.dim})"

    def __str__(self) -> str:
        return f"S({self.dim})"


class Replicate(Placement):
    """A full copy on each rank of the mesh dimension."""

    def is_replicate(self) -> bool:
        return True

    def __eq__(self, other) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self).__name__)

    def __repr__(self) -> str:
        return "Replicate()"

    def __str__(self) -> str:
        return "R"


class Partial(Placement):
    """Partial values to be reduced (``reduce_op``) across the mesh dimension."""

    def __init__(self, reduce_op: str = "sum"):
        self.reduce_op = reduce_op

    def is_partial(self, reduce_op: str | None = None) -> bool:
        return reduce_op is None or reduce_op == self.reduce_op

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.reduce_op == self.reduce_op

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.reduce_op))

    def __repr__(self) -> str:
        return f"Partial({self.reduce_op})"

    def __str__(self) -> str:
        return f"P({self.reduce_op})"


class DTensor(Tensor):
    """A tensor laid out over a device mesh by ``placements``; on one rank its local part is all of it."""

    device_mesh = None
    placements: tuple = ()

    @staticmethod
    def from_local(local_tensor, device_mesh=None, placements=None, *, run_check: bool = False, shape=None,
                   stride=None) -> DTensor:
        out = local_tensor.as_subclass(DTensor)
        out.device_mesh = device_mesh
        out.placements = tuple(placements) if placements is not None else (Replicate(),)
        return out

    def to_local(self, *, grad_placements=None) -> Tensor:
        return self.as_subclass(Tensor)

    def full_tensor(self, *, grad_placements=None) -> Tensor:
        return self.as_subclass(Tensor)
