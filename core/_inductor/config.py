"""``torch._inductor.config``: the flags scripts set (``coordinate_descent_tuning = True``...), with PyTorch's
defaults. core compiles no kernels (``core.compile`` captures and replays ops), so they change nothing."""

from __future__ import annotations

import types

coordinate_descent_tuning = False
max_autotune = False
max_autotune_gemm = False
freezing = False
fx_graph_cache = True
debug = False
epilogue_fusion = True
triton = types.SimpleNamespace(cudagraphs=False, cudagraph_trees=True, unique_kernel_names=True)
