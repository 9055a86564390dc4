"""``torch.__future__``: the two flags that choose how ``nn.Module.to()`` and friends change parameters.

``set_overwrite_module_params_on_conversion(True)``: conversions make new ``Parameter`` objects (references
held elsewhere, an optimizer's, keep the old ones). ``set_swap_module_params_on_conversion(True)``: the
converted tensor is swapped into the existing parameter object (``core.utils.swap_tensors``), and
``load_state_dict`` goes through ``Tensor.module_load``. Both off (the default): the parameter's ``.data`` is
replaced in place.
"""

__all__ = ["set_overwrite_module_params_on_conversion", "get_overwrite_module_params_on_conversion",
           "set_swap_module_params_on_conversion", "get_swap_module_params_on_conversion"]

_overwrite_module_params_on_conversion = False
_swap_module_params_on_conversion = False


def set_overwrite_module_params_on_conversion(value: bool) -> None:
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion() -> bool:
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value: bool) -> None:
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion() -> bool:
    return _swap_module_params_on_conversion
