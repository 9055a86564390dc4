"""Write ``core/_vf_names.txt.gz``: the names ``torch._VF`` answers (``torch._C._VariableFunctions``' functions).

``core._VF`` gives these names core's functions with their native signatures and refuses every other name with
torch's AttributeError. The list is read from an installed PyTorch, so this script needs one::

    python tools/gen_vf_names.py
"""

from __future__ import annotations

import gzip
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "core" / "_vf_names.txt.gz"


def main() -> int:
    import torch  # only here: the list is PyTorch's, read once

    names = sorted(n for n in dir(torch._C._VariableFunctions) if not n.startswith("__"))
    OUT.write_bytes(gzip.compress(("\n".join(names) + "\n").encode(), mtime=0))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(names)} names, torch {torch.__version__})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
