"""torch's ``torch.linalg``, ``torch.fft`` and ``torch.special`` functions are C functions of ``torch._C._linalg``
(``_fft``, ``_special``) named ``linalg_inv``, ``fft_fft``, ``special_erf``: what ``__name__`` shows users and the
``func`` a ``__torch_function__`` handler receives. core gives each public function of those namespaces its own
function object under that name, kept in ``core._C._linalg`` and so on, where ``pickle`` looks it up."""

from __future__ import annotations

import sys
import types

__all__ = ["PREFIXES", "publish", "register"]

PREFIXES = {"core.linalg": "linalg", "core.fft": "fft", "core.special": "special"}  # namespace -> torch's prefix


def register(prefix: str, fn: types.FunctionType) -> None:
    """Keep ``fn`` (already named ``linalg_inv``) in ``core._C._linalg`` and say it lives there."""
    module_name = f"core._C._{prefix}"
    module = sys.modules.get(module_name)
    if module is None:
        import core._C

        module = sys.modules[module_name] = types.ModuleType(module_name)
        setattr(core._C, f"_{prefix}", module)
    setattr(module, fn.__name__, fn)
    fn.__module__ = module_name


def publish(namespace: dict) -> None:
    """Put torch's named copy of each public function in ``namespace`` (a namespace module's globals) in place of
    it: the same code and defaults, its own object (``torch.special.erf`` is not ``torch.erf``)."""
    prefix = PREFIXES[namespace["__name__"]]
    for name in namespace["__all__"]:
        fn = namespace.get(name)
        if type(fn) is not types.FunctionType:
            continue
        named = types.FunctionType(fn.__code__, fn.__globals__, f"{prefix}_{name}", fn.__defaults__, fn.__closure__)
        named.__kwdefaults__ = dict(fn.__kwdefaults__) if fn.__kwdefaults__ else None
        named.__dict__.update(fn.__dict__)
        named.__qualname__, named.__doc__, named.__annotations__ = f"{prefix}_{name}", fn.__doc__, fn.__annotations__
        register(prefix, named)
        namespace[name] = named
