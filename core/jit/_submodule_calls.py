"""``jit.trace``'s submodule calls: which recorded operations a traced module's submodules ran, so that ``graph`` and
``code`` show each call as PyTorch's do (the submodule read with ``prim::GetAttr``, then ``prim::CallMethod[name=
"forward"]`` on it; ``(linear).forward(x, )`` in the code), while ``inlined_graph`` shows their operations.

While the tracer records a module, global forward hooks note each call of a submodule made by the module's own
forward (not from inside another submodule) with the range of top-level calls it made. A call is shown as a call
where its tensors allow it: its output one tensor made inside that range, its arguments tensors made before it, and
nothing else made inside read after it; otherwise its operations stay inline, as before.
"""

from __future__ import annotations

import contextlib
from typing import NamedTuple

__all__ = ["SubmoduleCalls", "Call", "placed", "show_call"]


class Call(NamedTuple):
    """A submodule call shown as one node: ``path`` holds ``(attribute, TorchScript class)`` from the root down;
    the recording's steps ``start`` to ``end`` are its operations."""

    path: tuple
    start: int
    end: int
    inputs: tuple  # slot indices
    output: int  # slot index


class SubmoduleCalls:
    """The submodule calls of one recording of ``root`` (``watching``), as ``(module, start, end, args, output)``."""

    def __init__(self, root):
        self.root = root
        self.calls: list | None = None  # the recorder's list of top-level calls (given by ``seen``)
        self.stack: list = []
        self.found: list = []

    def seen(self, calls) -> None:
        self.calls = calls

    def _count(self) -> int:
        return 0 if self.calls is None else len(self.calls)

    def _pre(self, module, args) -> None:
        if module is not self.root:
            self.stack.append((module, self._count()))

    def _post(self, module, args, output) -> None:
        if module is self.root or not self.stack:
            return
        called, start = self.stack.pop()
        if not self.stack:
            self.found.append((called, start, self._count(), args, output))

    @contextlib.contextmanager
    def watching(self):
        from core.nn.module import register_module_forward_hook, register_module_forward_pre_hook

        handles = [register_module_forward_pre_hook(self._pre), register_module_forward_hook(self._post)]
        try:
            yield self
        finally:
            for handle in handles:
                handle.remove()


def placed(found, root, slots: dict, steps: list, result_slots: list, class_path) -> list:
    """The ``Call``s among ``found`` that can be shown as nodes (``slots``: id of a tensor -> its slot; ``steps``: the
    recording's ``(cls, args, kwargs, out_slots)``)."""
    from core import Tensor
    from core.jit._trace_render import _slots_in  # (the recording's own walk over its templates)

    names = {id(m): name for name, m in root.named_modules() if name}
    made_at = {i: n for n, step in enumerate(steps) for i in step[3] if i is not None}
    reads = [(n, set(_slots_in((step[1], step[2])))) for n, step in enumerate(steps)]
    shown = []
    for module, start, end, args, output in found:
        name = names.get(id(module))
        if name is None or start == end or not isinstance(output, Tensor) or id(output) not in slots:
            continue
        out = slots[id(output)]
        if not start <= made_at.get(out, -1) < end or not all(isinstance(a, Tensor) for a in args):
            continue
        inputs = tuple(slots.get(id(a)) for a in args)
        if any(i is None or made_at.get(i, -1) >= start for i in inputs):
            continue
        inside = {i for i, n in made_at.items() if start <= n < end} - {out}
        if any(inside & read for n, read in reads if not start <= n < end) or inside & set(result_slots):
            continue
        path, holder = [], root
        for part in name.split("."):
            holder = getattr(holder, part)
            path.append((part, class_path(type(holder))))
        shown.append(Call(tuple(path), start, end, inputs, out))
    return shown


def show_call(call: Call, namer) -> None:
    """Add ``call``'s nodes to the IR lines and code of ``namer`` (``jit._trace._Namer``), naming its output."""
    holder_ir, holder_py = "%self.1", "self"
    for attribute, class_path in call.path:
        namer.lines.append(f'  %{attribute} : {class_path} = prim::GetAttr[name="{attribute}"]({holder_ir})')
        namer.code.append(f"  {attribute} = {holder_py}.{attribute}")
        holder_ir, holder_py = f"%{attribute}", attribute
    args = [namer.value_of_slot(i) for i in call.inputs]
    out_ir, out_py = namer.fresh(), f"_{len(namer.code)}"
    operands = ", ".join([holder_ir] + [a[0] for a in args])
    namer.lines.append(f'  {out_ir} : Tensor = prim::CallMethod[name="forward"]({operands})')
    namer.code.append(f"  {out_py} = ({holder_py}).forward({''.join(a[1] + ', ' for a in args)})")
    namer.ir[("slot", call.output)], namer.py[("slot", call.output)] = out_ir, out_py
