"""core.nodegraph: the playground's document and its execution, headless (no Qt).

Its folders are its layers; each imports only the ones below it and ``core``'s public API (import-linter
contracts in pyproject.toml check both):

    export/    scripts (core, torch, DDP) and the headless command line
    lessons/   lesson texts, their promises, the runner and the learner's checklist
    run/       Session: steps one document forward/backward; owns its trainer, history, inspector, ledger
    training/  the training loop (holds a session), runs and metrics, validation split, watch list
    explain/   chain-rule products, autograd rows and layout, diagnostics
    files/     versioned JSON: io, schema, migrations, examples, code import
    model/     node specs and types, the document, commands, subgraphs, layout, validation, inference,
               evaluation of one node, events, expressions

Modules moved into these folders in 0.2; their old flat paths (``core.nodegraph.session``,
``core.nodegraph.document``...) still import, through ``_MovedFinder``, so scripts written against 0.1 run.
"""

import importlib
import importlib.abc
import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

from core.nodegraph.model.budget import flop_budget, memory_budget, set_flop_budget, set_memory_budget

__all__ = ["memory_budget", "flop_budget", "set_memory_budget", "set_flop_budget"]

_MOVED = {  # old flat module name -> its place now
    "autograd_layout": "explain.autograd_layout", "autograd_rows": "explain.autograd_rows",
    "chain_local": "explain.chain_local", "chain_rule": "explain.chain_rule", "cli": "export.cli",
    "code_build": "model.code_build", "code_import": "files.code_import", "code_map": "model.code_map",
    "code_ops": "model.code_ops", "code_trace": "model.code_trace", "commands": "model.commands",
    "device_move": "run.device_move", "diagnostics": "explain.diagnostics", "document": "model.document",
    "evaluate": "model.evaluate", "events": "model.events", "examples": "files.examples",
    "export_ddp": "export.ddp", "expression": "model.expression", "history": "run.history",
    "holdout": "training.holdout", "inference": "model.inference", "inspection": "run.inspection",
    "layout": "model.layout", "lean": "run.lean", "ledger": "run.ledger", "lesson_checklist": "lessons.checklist",
    "lesson_runner": "lessons.runner", "migrations": "files.migrations", "names": "model.names",
    "nodes": "model.nodes", "numtext": "model.numtext", "optimizer_slot": "run.optimizer_slot",
    "runs": "training.runs", "schema": "files.schema", "session": "run.session", "spec": "model.spec",
    "statistics": "model.statistics", "step_owners": "run.step_owners", "stepnorms": "run.stepnorms",
    "subgraph": "model.subgraph", "tensor_store": "model.tensor_store", "toy": "files.toy",
    "training_settings": "model.training_settings", "trainview": "training.trainview",
    "validation": "model.validation", "watch": "training.watch",
}


class _MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``core.nodegraph.<old name>`` as the module at its new place (the same module object)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        head, _, name = fullname.rpartition(".")
        if head == __name__ and name in _MOVED:
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        module = importlib.import_module(f"{__name__}.{_MOVED[spec.name.rpartition('.')[2]]}")
        spec.loader_state = module.__spec__  # the import system is about to overwrite it with the old name's
        return module

    def exec_module(self, module: ModuleType) -> None:
        if module.__spec__ is not None:  # create_module gave it the moved module's spec to put back
            module.__spec__ = module.__spec__.loader_state


sys.meta_path.append(_MovedFinder())


def __getattr__(name: str) -> ModuleType:
    """``from core.nodegraph import session`` (an old flat name) gives the moved module."""
    if name in _MOVED:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
