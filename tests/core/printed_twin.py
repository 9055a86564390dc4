"""Run one learner's snippet with ``torch`` bound to PyTorch or to core and return everything it shows.

The sweep tests of #19 (module, optimizer and distribution reprs, error and warning texts, tensor printing) compare
the two texts whole: what the snippet printed, then the exception's type and ``str(e)`` if it raised, then each
warning's category and message. Two things cannot match and are normalised away: object addresses (``at 0x...``)
and the ``(Triggered internally at <torch's C++ file>)`` tail of torch's C++ warnings.
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_TRIGGERED = re.compile(r"\s*\(Triggered internally at [^)]*\)$")


def shown(lib, source: str) -> str:
    """What running ``source`` with ``torch``/``nn``/``F`` bound to ``lib`` prints, raises and warns, as text."""
    names = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional}
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with contextlib.redirect_stdout(out):
                lib.manual_seed(0)
                exec(source, names)  # (the snippet is the test's own text)
            raised = ""
        except Exception as e:  # (the exception is what is compared)
            raised = f"{type(e).__name__}: {e}"
        finally:
            lib.set_printoptions(profile="default")
            lib.set_printoptions(sci_mode=None)
    said = [f"{w.category.__name__}: {_TRIGGERED.sub('', str(w.message))}" for w in caught]
    return _ADDRESS.sub(" at 0x?", "\n".join([out.getvalue(), raised, *said]))
