"""The held-out rows in an exported training script: ``validation_loss(step)`` (the loss's ancestors only),
``_validate`` and its constants, measured on the steps ``core.nodegraph.training.holdout.due`` picks, so the
script prints the ``val_loss`` (and ``val_accuracy``) that ``Session.train`` reports."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.nodegraph.model.evaluate import node_seed
from core.nodegraph.training import holdout
from core.nodegraph.training.trainer import accuracy_plan

if TYPE_CHECKING:
    from core.nodegraph.export.script import _Exporter
    from core.nodegraph.model.document import Graph

__all__ = ["VALIDATE", "measured_loss", "validation_function", "constants", "due_text"]

VALIDATE = '''
def _validate(step):
    """The loss on the held-out rows as the session measures it: the loss's inputs only, no grad, dropout off,
    a generator of its own (training's stream goes on) and the held-out values the session drew (_REC_VAL)."""
    global SPLIT, TRAINING, gen, _REC
    saved = SPLIT, TRAINING, gen, _REC
    SPLIT, TRAINING, gen = 'val', False, torch.Generator().manual_seed(VAL_SEED)
    _REC = {**_REC, **{k: [v[step] if step in v else v[None]] for k, v in _REC_VAL.items()}}
    try:
        with torch.no_grad():
            loss, pred, target = validation_loss(step)
            return loss.item(), (None if pred is None else _accuracy(pred, target))
    finally:
        SPLIT, TRAINING, gen, _REC = saved


def _accuracy(pred, target):
    """The fraction of the held-out rows classified right, counted as the session counts it (None: the target
    holds no class indices). The script stands alone, so this is core.nodegraph.training.trainer.accuracy_of again."""
    p, t = pred.detach().cpu().numpy(), target.detach().cpu().numpy()
    if ACC_KIND in ('loss.cross_entropy', 'loss.nll'):
        if t.dtype.kind not in 'iu' or p.ndim != 2:
            return None
        guess = p.argmax(1)
    else:
        guess = p > (0.0 if ACC_KIND == 'loss.bce_with_logits' else 0.5)
    hits = guess.reshape(t.shape) == t.astype(guess.dtype)
    return int(np.count_nonzero(hits)) / hits.size if hits.size else float('nan')
'''


def measured_loss(graph: Graph, mode: str, loss: str | None) -> str | None:
    """The loss node the training script measures on the validation split, as ``Session.train`` does; None when
    it measures nothing."""
    return loss if mode == "train" and holdout.measures(graph, loss) else None


def validation_function(ex: _Exporter, loss: str, lines: dict[str, list[str]]) -> str:
    """``validation_loss(step)``: the forward of the loss's ancestors only, as the session's validation runs it
    (so random nodes elsewhere draw nothing from the validation generator)."""
    needed = ex.graph.ancestors(loss) | {loss}
    body = [line for nid, node_lines in lines.items() if nid in needed for line in node_lines]
    plan = accuracy_plan(ex.graph, loss)
    pred, target = (ex.outputs[n][p] for n, p in plan[1:]) if plan else ("None", "None")
    return ("def validation_loss(step):\n" + "".join(f"    {line}\n" for line in body)
            + f"    return {next(iter(ex.outputs[loss].values()))}, {pred}, {target}\n")


def constants(ex: _Exporter, loss: str) -> str:
    """The validation generator's seed (the session's), the loss type that counts right answers (``ACC_KIND``) and,
    in torch (whose datasets are replayed), ``SPLIT``."""
    plan = accuracy_plan(ex.graph, loss)
    text = (f"\nVAL_SEED = {node_seed(int(ex.training.get('seed') or 0), 'validation')!r}"
            f"\nACC_KIND = {plan[0] if plan else None!r}  # the loss that makes validation count right answers")
    split = "\nSPLIT = 'train'  # 'val' while the script measures the validation rows"
    return text + (split if ex.api != "core" else "")


def due_text(ex: _Exporter) -> str:
    """``holdout.due`` for a ``train(STEPS)`` call, as a Python condition on ``step``."""
    steps = ex.training.get("steps")
    return (f"(step + 1) % {holdout.val_every(ex.graph)} == 0 or step + 1 == {steps!r} or "
            "(STEPS > 1 and step == STEPS - 1)")
