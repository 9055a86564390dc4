"""Write ``core/_testing_overrides.txt.gz``: the signature PyTorch's ``torch.overrides.get_testing_overrides()``
gives each function's dummy.

PyTorch writes that table by hand, one lambda per function with the function's documented parameters
(``torch.add``: ``(input, other, out=None)``), which are often not the parameters its Python binding takes.
``core.overrides.get_testing_overrides`` gives core's functions the same dummies; this list is where it reads
their signatures: one line per function, ``name<TAB>signature``, ``name`` as ``torch.overrides.resolve_name``
spells it (``torch.Tensor.grad.__get__``). It is read from an installed PyTorch, so this script needs one::

    python tools/gen_testing_overrides.py
"""

from __future__ import annotations

import gzip
import inspect
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "core" / "_testing_overrides.txt.gz"


def _name(torch, func) -> str | None:
    name = torch.overrides.resolve_name(func)
    if name is None and getattr(torch, getattr(func, "__name__", ""), None) is func:
        name = f"torch.{func.__name__}"  # (private functions resolve_name does not name: torch._assert_async)
    return name


def main() -> int:
    import torch  # only here: the signatures are PyTorch's table's, read once

    lines = {}
    for func, dummy in torch.overrides.get_testing_overrides().items():
        name = _name(torch, func)
        if name is not None:
            lines[name] = f"{name}\t{inspect.signature(dummy)}"
    text = "\n".join(lines[name] for name in sorted(lines)) + "\n"
    OUT.write_bytes(gzip.compress(text.encode(), mtime=0))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(lines)} functions, torch {torch.__version__})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
