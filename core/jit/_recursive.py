"""``torch.jit._recursive``: where TorchScript keeps the concrete types it inferred for scripted module classes
(``concrete_type_store.type_store``, by class). core's ``jit.script`` infers none, so the store stays empty;
libraries clear their class's entry before scripting (PyTorch Geometric's ``Sequential.__prepare_scriptable__``)."""

from __future__ import annotations

__all__ = ["ConcreteTypeStore", "concrete_type_store"]


class ConcreteTypeStore:
    """The store: ``type_store`` maps a module class to the concrete types made for it (none in core)."""

    def __init__(self):
        self.type_store: dict = {}
        self.methods_compiled: set = set()


concrete_type_store = ConcreteTypeStore()
