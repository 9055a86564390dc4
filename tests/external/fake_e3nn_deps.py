"""Stand-ins, in both runs, for what e3nn and torchsde import and is not installed here (``recipes_e3nn.py``; our
text): ``trampoline`` (torchsde's Brownian interval walks its binary tree of intervals through it, so that deep
trees need no deep Python recursion) and ``scipy.signal.find_peaks`` (``e3nn.io.SphericalTensor.find_peaks`` imports
it at module level; no script calls it)."""

from __future__ import annotations

import types


class TailCall(BaseException):
    """Raised inside a trampolined generator: replace the running generator with ``call`` (another generator)."""

    def __init__(self, call):
        super().__init__()
        self.call = call


def trampoline(generator):
    """Run ``generator`` to completion where each value it yields is a generator to run first (its result is sent
    back) and ``TailCall(g)`` replaces it by ``g``: the ``trampoline`` package's contract, on an explicit stack."""
    stack = [generator]
    value, error = None, None
    while stack:
        current = stack[-1]
        try:
            step = current.throw(error) if error is not None else current.send(value)
        except StopIteration as stop:
            stack.pop()
            value, error = stop.value, None
        except TailCall as tail:
            stack[-1] = tail.call
            value, error = None, None
        except Exception as exc:  # the error goes to the generator that yielded this one
            stack.pop()
            if not stack:
                raise
            value, error = None, exc
        else:
            stack.append(step)
            value, error = None, None
    return value


def _find_peaks(x, *args, **kwargs):
    raise NotImplementedError("scipy.signal.find_peaks: SciPy is not installed here")


def modules() -> dict:
    """The stand-in modules by name, for ``sys.modules`` while an e3nn or torchsde script runs."""
    tramp = types.ModuleType("trampoline")
    tramp.TailCall, tramp.trampoline = TailCall, trampoline
    scipy, signal = types.ModuleType("scipy"), types.ModuleType("scipy.signal")
    signal.find_peaks = _find_peaks
    scipy.signal = signal
    return {"trampoline": tramp, "scipy": scipy, "scipy.signal": signal}
