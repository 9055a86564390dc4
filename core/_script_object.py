"""``torch.ScriptObject``: an instance of a TorchScript class that torch pickles by its state, such as a
dynamically quantized RNN's cell parameters (``__torch__.torch.classes.rnn.CellParamsBase``) and the packed
weights of its linear maps (``__torch__.torch.classes.quantized.LinearPackedParamsBase``).

``__getstate__`` is ``(state, qualified class name)``, as torch's; ``torch.save`` writes the object as torch does
(``ScriptObject`` built with no arguments, then that pair), and ``torch.load(weights_only=False)`` rebuilds it.
"""

from __future__ import annotations

__all__ = ["ScriptObject", "ScriptModule"]

CELL_PARAMS = "__torch__.torch.classes.rnn.CellParamsBase"
LINEAR_PACKED = "__torch__.torch.classes.quantized.LinearPackedParamsBase"


class ScriptObject:
    """A TorchScript class instance known by its qualified name and the tuple its ``__getstate__`` returns."""

    __module__ = "core"  # torch.ScriptObject, as torch.typename and reprs name it

    def __init__(self, qualified_name: str = "", state: tuple = ()) -> None:
        self._qualified_name, self._state = qualified_name, state

    def __getstate__(self) -> tuple:
        return self._state, self._qualified_name

    def __setstate__(self, pair) -> None:
        self._state, self._qualified_name = pair

    def __repr__(self) -> str:
        return f"<torch.ScriptObject object at {hex(id(self))}>"


def cell_params(w_ih, b_ih, w_hh, b_hh, reduce_range: bool = True) -> ScriptObject:
    """A dynamic RNN layer's ``CellParamsBase``: its float biases, then its quantized weights packed with them."""
    packed = [ScriptObject(LINEAR_PACKED, (w_ih, b_ih)), ScriptObject(LINEAR_PACKED, (w_hh, b_hh))]
    return ScriptObject(CELL_PARAMS, ("quantized_dynamic", [b_ih, b_hh], [], [int(reduce_range)], packed))


def cell_weights(param) -> tuple:
    """``(w_ih, b_ih, w_hh, b_hh)`` of a ``cell_params`` object (or of the plain tuple older core files hold)."""
    if not isinstance(param, ScriptObject):
        return tuple(param)
    (w_ih, b_ih), (w_hh, b_hh) = (p.__getstate__()[0] for p in param.__getstate__()[0][4])
    return w_ih, b_ih, w_hh, b_hh


class ScriptModule(ScriptObject):
    """``torch.ScriptModule`` (``torch._C.ScriptModule``): the C++ module object a scripted module wraps. A scripted
    module (``torch.jit.ScriptModule``, a Python class) is not an instance of it; libraries name it in type hints."""

    __module__ = "core"
