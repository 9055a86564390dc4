"""Write ``core/_aten_overloads.txt.gz``: every ``torch.ops.aten`` operator name and its overload names.

``core.ops.aten`` (``core/_aten_ops.py``) answers ``aten.<name>`` for the names of this list and
``aten.<name>.<overload>`` for their overloads, as PyTorch's dispatcher does, and refuses the rest
with torch's AttributeError. The list is PyTorch's operator registry (its ``native_functions.yaml``
and TorchScript's builtins): one line per operator, ``name overload overload ...``, ``default`` for
the overload without a name. It is read from an installed PyTorch, so this script needs one::

    python tools/gen_aten_overloads.py
"""

from __future__ import annotations

import gzip
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "core" / "_aten_overloads.txt.gz"


def main() -> int:
    import torch  # only here: the list is PyTorch's registry, read once

    names = {s.name.removeprefix("aten::") for s in torch._C._jit_get_all_schemas() if s.name.startswith("aten::")}
    names |= {n.removeprefix("aten::").split(".")[0] for n in torch._C._dispatch_get_all_op_names()
              if n.startswith("aten::")}
    lines = [" ".join([name, *getattr(torch.ops.aten, name).overloads()]) for name in sorted(names)]
    OUT.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(lines)} operators, torch {torch.__version__})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
