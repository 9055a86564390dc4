"""``core.version``: what ``torch.version`` answers on PyTorch's CPU build. ``__version__`` is the release whose
API core follows with the CPU wheel's local tag (``2.13.0+cpu``), so tutorials that print or compare the
version see what a CPU install of PyTorch shows; ``core.version.implementation`` says it is core."""

from core.torch_version import TorchVersion

__version__ = TorchVersion("2.13.0+cpu")  # compares as a version: torch.__version__ >= "2.2"
cuda = None
hip = None
debug = False
git_version = "unknown"
implementation = "core (NumPy/CuPy)"
