"""``core.utils.data``: datasets, samplers' worth of shuffling, batching and collation, as PyTorch's."""

from core.utils.data import distributed  # noqa: F401
from core.utils.data.dataloader import DataLoader, default_collate, default_convert, get_worker_info
from core.utils.data.dataset import *  # noqa: F403
from core.utils.data.dataset import __all__ as _datasets
from core.utils.data.distributed import DistributedSampler
from core.utils.data.sampler import *  # noqa: F403
from core.utils.data.sampler import __all__ as _samplers

__all__ = [*_datasets, *_samplers, "DistributedSampler", "DataLoader", "default_collate", "default_convert",
           "get_worker_info"]
