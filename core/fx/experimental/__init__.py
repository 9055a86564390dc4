"""``torch.fx.experimental``: only ``optimization`` (conv/linear-batchnorm fusion, dropout removal) so far."""

from core.fx.experimental import optimization

__all__ = ["optimization"]
