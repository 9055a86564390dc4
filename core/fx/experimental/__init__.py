"""``torch.fx.experimental``: ``optimization`` (conv/linear-batchnorm fusion, dropout removal) here; ``symbolic_shapes``
(export's data-dependent guard errors) loads on import, as torch's does."""

from core.fx.experimental import optimization

__all__ = ["optimization"]
