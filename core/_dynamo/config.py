"""``torch._dynamo.config``: the flags scripts set or read (``suppress_errors``, ``cache_size_limit``...), with
PyTorch's defaults, as a module so that ``import torch._dynamo.config`` works (gpt-fast's ``generate.py`` does).
core has no dynamo (``core.compile`` captures and replays ops), so the flags change nothing."""

from __future__ import annotations

suppress_errors = False
verbose = False
recompile_limit = 8
cache_size_limit = 8  # PyTorch's older name for recompile_limit
accumulated_cache_size_limit = 256
optimize_ddp = True
capture_scalar_outputs = False
capture_dynamic_output_shape_ops = False
automatic_dynamic_shapes = True
assume_static_by_default = True
