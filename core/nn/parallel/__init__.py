"""``core.nn.parallel``: ``DataParallel``, ``data_parallel`` and ``DistributedDataParallel`` for one process.

Scripts wrap their model in these when several GPUs or processes are around. core runs one process on one
device, so each wrapper's forward is its module's (see ``data_parallel.py`` and ``distributed.py``).
"""

from core.nn.parallel.data_parallel import DataParallel, data_parallel
from core.nn.parallel.distributed import DistributedDataParallel

__all__ = ["DataParallel", "DistributedDataParallel", "data_parallel"]
