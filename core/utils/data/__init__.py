"""``core.utils.data``: datasets, samplers' worth of shuffling, batching and collation, as PyTorch's."""

from core.utils.data.dataloader import DataLoader, default_collate  # noqa: F401
from core.utils.data.dataset import ConcatDataset, Dataset, Subset, TensorDataset, random_split  # noqa: F401

__all__ = ["Dataset", "TensorDataset", "Subset", "ConcatDataset", "random_split", "DataLoader", "default_collate"]
