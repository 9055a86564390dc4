"""``torch.masked.maskedtensor``: the package PyTorch keeps its MaskedTensor in (``core.masked._maskedtensor``)."""

from core.masked._maskedtensor import MaskedTensor, is_masked_tensor

__all__ = ["MaskedTensor", "is_masked_tensor"]
