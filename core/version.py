"""``core.version``: what ``torch.version`` answers. ``__version__`` names the PyTorch release whose API
core follows, marked ``+core`` (as PyTorch's CPU wheels are marked ``+cpu``)."""

__version__ = "2.13.0+core"
cuda = None
hip = None
debug = False
git_version = "unknown"
