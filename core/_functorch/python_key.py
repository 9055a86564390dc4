"""``torch._functorch.python_key``: where the legacy ``functorch`` package imports ``make_fx`` from. core traces
no aten-level graphs, so ``make_fx`` is importable and refuses to trace (``core.fx.symbolic_trace`` traces modules
and functions at the Python level)."""

from __future__ import annotations

__all__ = ["make_fx"]


def make_fx(f, decomposition_table=None, tracing_mode="real", _allow_non_fake_inputs=False, **kwargs):
    raise NotImplementedError("make_fx: core traces no aten-level graphs; use torch.fx.symbolic_trace")
