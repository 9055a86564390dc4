"""Tensor reprs in PyTorch's format (placeholder until the printing work lands)."""


def tensor_repr(t) -> str:
    return f"tensor({t._data.tolist()})"
