"""Write ``core/_method_signatures.json.gz``: what PyTorch's argument parser knows of each C-implemented Tensor method.

``core.ops.arity_words`` gives a method called with too few, too many or unknown arguments the TypeError PyTorch's
parser raises (``x.sum(0, True, 1, 2)``: "sum() received an invalid combination of arguments - got (int, bool, int,
int), but expected one of: ..."), which depends on the parser's signatures. They live in PyTorch's C extension, so
this script asks an installed PyTorch for them through the parser's own errors, once::

    python tools/gen_method_signatures.py

Per method name, one entry: ``["overloads", one, lines]`` for a method with several signatures (``lines``: the
signatures the parser prints, ``one``: it prints a single one as "expected (...)", the others being hidden), or
``["single", required, min_args, max_pos, params]`` for a method with one (its required parameters' names in order,
the number of arguments it needs, the most it takes by position, ``max_pos`` None where it takes ints as varargs,
and its positional parameters as ``[name, type, takes None]``, as far as probes find them).
Methods whose probes answer neither way (a Python-level method, one taking no arguments) are left out.
"""

from __future__ import annotations

import gzip
import json
import re
import warnings
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "core" / "_method_signatures.json.gz"
_PROBE = "nodegrad_probe"
_COMBINATION = re.compile(r"^\w+\(\) received an invalid combination of arguments - got \(.*?\), but expected ")
_MISSING = re.compile(r"^\w+\(\) missing \d+ required positional arguments?: (.*)$")
_EXTRA = re.compile(r"^\w+\(\) takes (?:from (\d+) to )?(\d+) positional arguments? but \d+ (?:was|were) given$")


def _error(call) -> str | None:
    try:
        call()
    except Exception as error:  # (any refusal is an answer)
        return str(error) if isinstance(error, TypeError) else ""
    return None


def _overloads(message: str) -> tuple[bool, list[str]]:
    rest = _COMBINATION.sub("", message, count=1)
    if rest.startswith("one of:\n"):
        return False, [line[3:] for line in rest.splitlines() if line.startswith(" * (")]
    return True, [rest.strip()]


def _entry(torch, name: str):
    method = getattr(torch.ones(2, 3), name)  # (a fresh tensor per probe: a probe may run an in-place method)
    keyword = _error(lambda: method(**{f"{_PROBE}{i}": 0 for i in range(40)}))  # (more than any signature takes:
    # a method of several signatures lists them, one of a single signature names its first missing or unknown one)
    if keyword is None or keyword == "" or "takes no keyword arguments" in keyword:
        return None
    if "got unrecognized keyword arguments" in keyword:  # (one signature printed: it says only which keywords)
        keyword = _error(lambda: getattr(torch.ones(2, 3), name)(*[0] * 40)) or ""
    if _COMBINATION.match(keyword):
        return ["overloads", *_overloads(keyword)]
    if not _MISSING.match(keyword) and not keyword.endswith(f"unexpected keyword argument '{_PROBE}0'"):
        return None
    missing = _MISSING.match(_error(lambda: getattr(torch.ones(2, 3), name)()) or "")
    required = re.findall(r'"(\w+)"', missing.group(1)) if missing else []
    extra = _EXTRA.match(_error(lambda: getattr(torch.ones(2, 3), name)(*[0] * 40)) or "")
    if extra is None:
        return ["single", required, len(required), None, _positional(torch, name, 1)]
    low, high = extra.groups()
    return ["single", required, int(low if low is not None else high), int(high), _positional(torch, name, int(high))]


class _Probe:
    """An argument no parameter takes: the parser names the parameter at its position, and the type it wanted."""


_SAMPLES = {"int": lambda torch: 0, "tuple of ints": lambda torch: (0,), "bool": lambda torch: False,
            "float": lambda torch: 0.0, "Number": lambda torch: 0, "Tensor": lambda torch: torch.ones(1),
            "torch.dtype": lambda torch: torch.float32, "str": lambda torch: "a"}


def _positional(torch, name: str, count: int) -> list:
    """The first ``count`` positional parameters of a method of one signature, ``[name, type]`` each, found one by
    one: a probe at each position, after values of the types found so far (the parser refuses it before anything
    runs); it stops at a type it has no value for."""
    params: list = []
    given: list = []
    for i in range(count):
        error = _error(lambda: getattr(torch.ones(2, 3), name)(*given, _Probe())) or ""
        match = re.match(rf"^\w+\(\): argument '(\w+)' \(position {i + 1}\) must be (.+), not _Probe$", error)
        if match is None:
            break
        refused = _error(lambda: getattr(torch.ones(2, 3), name)(*given, None)) or ""  # (may it be None?)
        none_ok = not refused.endswith(f"(position {i + 1}) must be {match.group(2)}, not NoneType")
        params.append([match.group(1), match.group(2), none_ok])
        if match.group(2) not in _SAMPLES:
            break
        given.append(_SAMPLES[match.group(2)](torch))
    return params


def main() -> int:
    import torch  # only here: the signatures are PyTorch's, read once

    warnings.simplefilter("ignore")
    table = {}
    for name in sorted(dir(torch._C.TensorBase)):
        if name.startswith("__") or type(getattr(torch._C.TensorBase, name)).__name__ != "method_descriptor":
            continue
        entry = _entry(torch, name)
        if entry is not None:
            table[name] = entry
    OUT.write_bytes(gzip.compress(json.dumps(table, indent=0, sort_keys=True).encode(), mtime=0))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(table)} methods, torch {torch.__version__})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
