"""How the library drivers print a result (``corpus_kornia``, ``corpus_pyg``, ``corpus_torchaudio``; our text).

A tensor is one line, ``name shape dtype first-values summary``, with floats to a fixed number of decimals (not
significant digits: a value near 0 is rounding noise that any summation order changes); tuples, lists and dicts
of tensors are shown item by item, anything else as it prints.
"""

from __future__ import annotations

import torch


def values(t, n=6, decimals=5) -> list:
    """The first ``n`` values; complex ones as their real and imaginary parts."""
    if t.dtype == torch.bool or not (t.is_floating_point() or t.is_complex()):
        return t.flatten()[:n].tolist()
    if t.is_complex():
        t = torch.view_as_real(t)
    return [f"{v:.{decimals}f}" for v in t.detach().flatten()[:n].tolist()]


def signed_sum(value) -> str:
    total = value.detach().double().sum().item() if value.numel() else 0.0
    return f"sum {total:.5f}"


def show(name, value, *, decimals=5, summary=signed_sum) -> None:
    """``value`` printed as the module docstring says; ``summary(tensor)`` ends a tensor's line."""
    if isinstance(value, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in value):
        for i, v in enumerate(value):
            show(f"{name}[{i}]", v, decimals=decimals, summary=summary)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            show(f"{name}.{k}", v, decimals=decimals, summary=summary)
        return
    if not isinstance(value, torch.Tensor):
        print(name, type(value).__name__, value)
        return
    print(name, tuple(value.shape), str(value.dtype).replace("torch.", ""), values(value, decimals=decimals),
          summary(value))
