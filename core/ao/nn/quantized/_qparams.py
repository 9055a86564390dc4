"""What torch's quantized modules share: output qparams kept in the state dict, and the packed Linear weight's API.

Mixins, listed before ``Module`` in a class's bases, so that ``super()`` reaches ``Module``'s state-dict methods.
"""

from __future__ import annotations

import core


class OutputQParams:
    """A module's output ``scale`` and ``zero_point``, saved after its own entries as torch's quantized modules save
    them (``fc.scale``, ``fc.zero_point``) and read back. A dynamic module, whose output is float, keeps its values
    when a state dict lacks them (``_qparams_required = False``)."""

    scale: float
    zero_point: int
    _qparams_required = True

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)  # type: ignore[misc]
        destination[prefix + "scale"] = core.tensor(self.scale)
        destination[prefix + "zero_point"] = core.tensor(self.zero_point)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        if self._qparams_required:
            scale, zero_point = state_dict.pop(prefix + "scale"), state_dict.pop(prefix + "zero_point")
        else:
            scale = state_dict.pop(prefix + "scale", self.scale)
            zero_point = state_dict.pop(prefix + "zero_point", self.zero_point)
        self.scale, self.zero_point = float(scale), int(zero_point)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,  # type: ignore[misc]
                                      missing_keys, unexpected_keys, error_msgs)


class PackedWeightBias:
    """``weight()``, ``bias()`` and ``set_weight_bias`` of a quantized Linear, read from its ``_packed_params``."""

    def _weight_bias(self):
        return self._packed_params._weight_bias()

    def weight(self):
        return self._packed_params._weight_bias()[0]

    def bias(self):
        return self._packed_params._weight_bias()[1]

    def set_weight_bias(self, w, b) -> None:
        self._packed_params.set_weight_bias(w, b)
