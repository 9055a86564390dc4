"""``torch.jit._script``: the module PyTorch's scripted-module classes live in, and the ``__module__`` core gives
its own (``core._jit_script``), so a pickle naming ``torch.jit._script.RecursiveScriptModule`` finds core's class
(a module that holds a scripted submodule saves and loads)."""


def __getattr__(name: str):
    from core import _jit_script

    if name in ("ScriptModule", "RecursiveScriptModule"):
        return getattr(_jit_script, name)
    if name == "Attribute":  # (defined with core.jit's other names, printed as PyTorch's torch.jit._script.Attribute)
        from core.jit import Attribute

        return Attribute
    raise AttributeError(f"module 'core.jit._script' has no attribute '{name}'")
