"""The fixed parts of an exported script's text: its docstring, imports, helper functions, the recorded values it
replays (``_REC``), its ``forward(step)`` function and its optimizer lines. Plain text from plain data; the exporter
(``export.script``) decides what goes in them. (Split from ``export.script``.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.nodegraph.export.code_hooks import npy_base64

__all__ = ["HELPERS", "IMPORTS", "Recorded", "RecordedHeldOut", "docstring", "forward_function", "optimizer_lines",
           "recorded_text"]

IMPORTS = {"core": "import core as torch\nimport core.nn.functional as F",
            "torch": "import torch\nimport torch.nn.functional as F"}

Recorded = dict[str, list[np.ndarray]]  # recorded key -> its values per step (one when they never change)
RecordedHeldOut = dict[str, dict[int | None, np.ndarray]]  # key -> step -> held-out values (None: every step)

HELPERS = '''
def _arr(text):
    return np.load(io.BytesIO(base64.b64decode(text)), allow_pickle=False)


def _rec(key, step):
    values = _REC[key]
    return torch.tensor(values[min(step, len(values) - 1)]).to(DEVICE)


def _load(module, weights):
    with torch.no_grad():
        for name, p in module.named_parameters():
            p.copy_(weights[name])


def _probe(x):
    if isinstance(x, torch.Tensor) and x.requires_grad and not x.is_leaf:
        x.retain_grad()
    return x.grad


def _show(kind, key, t):
    if not isinstance(t, (torch.Tensor, bool, int, float)):
        return
    if not JSON:
        print(LABELS.get(key, key) + ('.grad' if kind == 'grad' else ''), '=', repr(t))
    elif isinstance(t, torch.Tensor):
        print(kind, key, json.dumps(t.detach().cpu().tolist()))
    else:
        print(kind, key, json.dumps(t))
'''


def forward_function(outputs: dict[str, dict[str, str]], order: list[str], body: list[str]) -> str:
    """``forward(step)``: the node lines, returning every output by ``node.port``."""
    values = ", ".join(f"{nid + '.' + p!r}: {v}" for nid in order for p, v in outputs[nid].items())
    return "def forward(step):\n" + "".join(f"    {line}\n" for line in body) + f"    return {{{values}}}\n"


def optimizer_lines(t: dict[str, Any]) -> str:
    """``opt = ...`` and ``sched = ...`` lines of ``main()`` from the graph's training settings ``t``."""
    sched = t.get("schedule")
    sched_args = {k: v for k, v in sched.items() if k != "type"} if sched else {}
    sched_line = "None" if not sched else f"torch.optim.lr_scheduler.{sched['type']}(opt, **{sched_args!r})"
    return (f"    opt = torch.optim.{t.get('optimizer') or 'SGD'}(list(PARAMS.values()), "
            f"**{dict(t.get('optimizer_params') or {})!r})\n"
            f"    sched = {sched_line}\n")


def docstring(summary: str, val: bool) -> str:
    """The script's docstring: what it does and what it prints."""
    return (f'"""{summary}\n\n'
            'Prints "value <node.port> <json>", "grad ...", "param ..." and, when training, "loss <step> <value>"'
            + (' (and "val_loss <step> <value>", "val_accuracy <step> <value>" for classifiers, on the steps that'
               ' measure the held-out rows)' if val else "")
            + '.\n"""')


def recorded_text(rec: Recorded, rec_val: RecordedHeldOut, val: bool) -> str:
    """The ``_REC`` dict's text and, when the script validates (``val``), the ``_REC_VAL`` line after it."""
    text = "{" + ", ".join(f"{k!r}: [{', '.join(f'_arr({npy_base64(a)!r})' for a in v)}]" for k, v in rec.items()) + "}"
    if val:
        splits = {k: ", ".join(f"{s!r}: _arr({npy_base64(a)!r})" for s, a in v.items()) for k, v in rec_val.items()}
        text += "\n_REC_VAL = {" + ", ".join(f"{k!r}: {{{v}}}" for k, v in splits.items()) + "}"
    return text
