"""``torch.distributed`` for one process: the default process group of a world of size 1.

Training scripts written for ``torchrun`` (nanoGPT's ``train.py``, the DDP tutorials) import this module and
call ``init_process_group``, ``get_rank``, ``all_reduce``... core runs one process, so a group holds rank 0 of
a world of 1: collectives leave their tensors as they are (what a sum, mean, max... over one rank gives),
gathers copy, and a world size other than 1 is refused with a ``RuntimeError``. Calls before
``init_process_group`` raise PyTorch's ``ValueError``; ``env://`` initialisation reads ``RANK`` and
``WORLD_SIZE`` from the environment as PyTorch does.
"""

import enum as _enum
import os as _os

__all__ = ["is_available", "is_torchelastic_launched", "is_nccl_available", "is_gloo_available", "is_mpi_available",
           "is_initialized",
           "init_process_group", "destroy_process_group", "get_rank",
           "get_world_size", "get_backend", "new_group", "barrier", "all_reduce", "reduce", "broadcast",
           "all_gather", "all_gather_into_tensor", "gather", "scatter", "reduce_scatter", "all_gather_object",
           "broadcast_object_list", "ReduceOp", "Backend", "ProcessGroup", "Work", "HashStore", "group",
           "DeviceMesh", "init_device_mesh"]

_NOT_INITIALIZED = "Default process group has not been initialized, please make sure to call init_process_group."


class ReduceOp:
    """The reductions of ``all_reduce`` and friends (``ReduceOp.SUM`` prints as ``<RedOpType.SUM: 0>``)."""

    class RedOpType(_enum.Enum):  # (torch's nests it: the module lists no RedOpType)
        SUM = 0
        AVG = 1
        PRODUCT = 2
        MIN = 3
        MAX = 4
        BAND = 5
        BOR = 6
        BXOR = 7
        PREMUL_SUM = 8
        UNUSED = 9

    SUM, AVG, PRODUCT, MIN, MAX = RedOpType.SUM, RedOpType.AVG, RedOpType.PRODUCT, RedOpType.MIN, RedOpType.MAX
    BAND, BOR, BXOR, PREMUL_SUM = RedOpType.BAND, RedOpType.BOR, RedOpType.BXOR, RedOpType.PREMUL_SUM


class Backend(str):
    """A backend's name (``Backend("GLOO") == "gloo"``)."""

    UNDEFINED, GLOO, NCCL, MPI, UCC = "undefined", "gloo", "nccl", "mpi", "ucc"

    def __new__(cls, name: str):
        if not isinstance(name, str):
            raise ValueError(f"Backend constructor parameter must be string-ish, but got: {type(name)}")
        return super().__new__(cls, name.lower())


class ProcessGroup:
    """A group of ranks; here always rank 0 of 1."""

    def __init__(self, backend: str, name: str = "0"):
        self._backend, self.group_name = backend, name

    def rank(self) -> int:
        return 0

    def size(self) -> int:
        return 1

    def name(self) -> str:
        return self._backend


class Work:
    """A finished asynchronous collective (``async_op=True``): ``wait()`` returns at once."""

    def wait(self, timeout=None) -> bool:
        return True

    def is_completed(self) -> bool:
        return True

    def is_success(self) -> bool:
        return True


class HashStore:
    """An in-memory key-value store (``init_process_group(store=HashStore(), rank=0, world_size=1)``)."""

    def __init__(self):
        self._data: dict = {}

    def set(self, key: str, value) -> None:
        self._data[key] = value.encode() if isinstance(value, str) else bytes(value)

    def get(self, key: str) -> bytes:
        return self._data[key]

    def add(self, key: str, amount: int) -> int:
        value = int(self._data.get(key, b"0")) + amount
        self._data[key] = str(value).encode()
        return value

    def num_keys(self) -> int:
        return len(self._data)

    def delete_key(self, key: str) -> bool:
        return self._data.pop(key, None) is not None


class _Group:
    """``group.WORLD``: the default group once ``init_process_group`` made it, else ``None``."""

    WORLD: ProcessGroup | None = None


group = _Group


def is_available() -> bool:
    return True


def is_nccl_available() -> bool:
    """NCCL needs a GPU; a world of one needs no communication, so with CUDA core accepts ``backend="nccl"``."""
    from core import cuda

    return cuda.is_available()


def is_gloo_available() -> bool:
    return True


def is_mpi_available() -> bool:
    return False


def is_initialized() -> bool:
    return _Group.WORLD is not None


def is_torchelastic_launched() -> bool:
    """Whether ``torchrun`` started this process: it sets ``TORCHELASTIC_RUN_ID`` (torch's test)."""
    return _os.getenv("TORCHELASTIC_RUN_ID") is not None


def _world_from_env(name: str, given: int) -> int:
    if given != -1:
        return given
    if name not in _os.environ:
        raise ValueError(f"Error initializing torch.distributed using env:// rendezvous: environment variable "
                         f"{name} expected, but not set")
    return int(_os.environ[name])


def init_process_group(backend=None, init_method=None, timeout=None, world_size: int = -1, rank: int = -1,
                       store=None, group_name: str = "", pg_options=None, device_id=None) -> None:
    """Make the default group: rank 0 of a world of 1 (``env://`` reads ``RANK`` and ``WORLD_SIZE``)."""
    if is_initialized():
        raise ValueError("trying to initialize the default process group twice!")
    if store is None and init_method in (None, "env://"):
        rank, world_size = _world_from_env("RANK", rank), _world_from_env("WORLD_SIZE", world_size)
    if world_size != -1 and world_size != 1 or rank not in (-1, 0):
        raise RuntimeError(f"core runs one process: init_process_group needs world_size=1 and rank=0 "
                           f"(got world_size={world_size}, rank={rank})")
    if backend is not None and "nccl" in Backend(backend) and not is_nccl_available():
        raise RuntimeError("Distributed package doesn't have NCCL built in")
    _Group.WORLD = ProcessGroup(Backend.UNDEFINED if backend is None else Backend(backend), group_name or "0")


def destroy_process_group(group=None) -> None:
    if _Group.WORLD is None:
        raise AssertionError("Process group cannot be None")  # PyTorch's error type here
    _Group.WORLD = None


def _default(given=None) -> ProcessGroup:
    if _Group.WORLD is None:
        raise ValueError(_NOT_INITIALIZED)
    return given or _Group.WORLD


def get_rank(group=None) -> int:
    return _default(group).rank()


def get_world_size(group=None) -> int:
    return _default(group).size()


def get_backend(group=None) -> str:
    return _default(group).name()


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, **kwargs) -> ProcessGroup:
    default = _default()
    if ranks is not None and sorted(ranks) != [0]:
        raise ValueError(f"new_group: ranks {list(ranks)} are not in a world of size 1")
    return ProcessGroup(default.name() if backend is None else Backend(backend))


def _done(given, async_op: bool):
    _default(given)
    return Work() if async_op else None


def barrier(group=None, async_op: bool = False, device_ids=None):
    return _done(group, async_op)


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op: bool = False):
    """Over one rank every reduction is the tensor itself."""
    return _done(group, async_op)


def reduce(tensor, dst: int = 0, op=ReduceOp.SUM, group=None, async_op: bool = False):
    return _done(group, async_op)


def broadcast(tensor, src: int = 0, group=None, async_op: bool = False):
    return _done(group, async_op)


def _one(tensors, what: str):
    if tensors is None or len(tensors) != 1:
        raise ValueError(f"{what}: expected a list of one tensor per rank (1), got "
                         f"{None if tensors is None else len(tensors)}")
    return tensors[0]


def all_gather(tensor_list, tensor, group=None, async_op: bool = False):
    _one(tensor_list, "all_gather").copy_(tensor)
    return _done(group, async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op: bool = False):
    output_tensor.copy_(input_tensor.reshape(output_tensor.shape))
    return _done(group, async_op)


def gather(tensor, gather_list=None, dst: int = 0, group=None, async_op: bool = False):
    _one(gather_list, "gather").copy_(tensor)
    return _done(group, async_op)


def scatter(tensor, scatter_list=None, src: int = 0, group=None, async_op: bool = False):
    tensor.copy_(_one(scatter_list, "scatter"))
    return _done(group, async_op)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op: bool = False):
    output.copy_(_one(input_list, "reduce_scatter"))
    return _done(group, async_op)


def all_gather_object(object_list, obj, group=None) -> None:
    _default(group)
    object_list[0] = obj


def broadcast_object_list(object_list, src: int = 0, group=None, device=None) -> None:
    _default(group)


from .device_mesh import DeviceMesh, init_device_mesh  # noqa: E402  (torch.distributed imports it too)
