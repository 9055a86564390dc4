"""``torch._functorch.config``: the flags scripts set before compiling (gpt-fast: ``enable_autograd_cache = True``),
with PyTorch's defaults. core compiles no graphs, so they change nothing."""

from __future__ import annotations

enable_autograd_cache = True
