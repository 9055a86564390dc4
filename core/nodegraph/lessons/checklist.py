"""A lesson step's promises as a learner's checklist, checked against a live session (the window's own).

A step's ``expect:`` lines are written for the headless test (``x.grad = [1.5, -0.5]``); ``promise_text``
says each in plain language ("x.grad is [1.5, -0.5]", "xw's saved tensors are freed") or returns None for a
promise it can't phrase for learners (the panel hides it). ``promises(step, session, ...)`` says, for one
step, each promise's text and whether it holds in that session now.

``Checklist`` keeps the ticks of a whole lesson as the learner works through it. A promise ticks when it
holds and stays ticked (the learner saw it come true; later steps change the state again), except that a reset
(``forget_run``) takes back the ticks of promises about a training run (its losses, or what a ``do: train`` left):
that run is gone, and the next run ticks them again or not. The promises of a
step tick in the order they are written (each describes the state after the actions before it), and only
for the steps the learner has reached: the current step (``focus`` moves it on when a link of a later step is
followed; it also moves on by itself once every promise of the step has ticked, to be checked from the next
change on) and the ones before it. So "b.grad is None" in step 2 does not tick before the learner gets
there, and "the last step ran x" in step 5 does not tick on step 1's first Forward step.

"The last step ran x" is about what the learner did: given the steps their last action ran (``SessionRefs.ran``;
Forward all runs every node), it holds when one of them ran x in the direction of the ``do:`` written before it
(a forward ``step = x`` is not kept by the backward step of x, nor step 2's backward ``step = z`` by Forward all),
so a learner who presses Forward all at once ticks step 1 whole. An action that ran past x (Backward all ran z, then
b, ...) passed through the state the promises after ``step = x`` describe: one that does not hold at the end is
ticked as passed, with how to see it ("b.grad is None (passed in one go: Step back 5 times to see it)"), so the
checklist follows a learner who pressed the big button; it is ticked plainly once the learner steps back to it.
Likewise a training run (``TRAINED`` in ``ran``) passes through the steps that do only what one training step does,
before a step that trains (lesson 6's Zero, Forward, Backward, Step, for a learner who presses Train first).
When a step completes on an action that steps in
the direction of the next step's ``do:`` (lesson 6: "Zero" held already and the learner pressed Forward all, as
"Forward" says), the next step is checked against that action too instead of waiting for another change; so is a
next step with no ``do:`` of its own (lesson 3's "view(12) fails" and "reshape" describe the state Forward all left:
they waited, open, for some unrelated change).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import core
from core.nodegraph.lessons.runner import HintSource, SessionRefs, StepMetrics, matches
from core.nodegraph.lessons.texts import Action, Expectation, Lesson, Step
from core.nodegraph.model.names import node_label
from core.nodegraph.model.numtext import printed

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph
    from core.nodegraph.run.session import Session
    from core.nodegraph.training.runs import Run

__all__ = ["Promise", "promise_text", "promises", "Checklist", "metrics_of_run"]

_OPS = {"=": "is", "!=": "is not", "<": "is below", ">": "is above", "~": "contains"}
_FIGURES = {"losses.first": "the first loss", "losses.last": "the last loss", "accuracy.last": "the accuracy",
            "val_loss.last": "the validation loss", "val_accuracy.last": "the validation accuracy"}
_YES_NO = {"is_leaf": ("is a leaf", "is not a leaf"), "requires_grad": ("requires grad", "does not require grad"),
           "contiguous": ("is contiguous", "is not contiguous"),
           "freed": ("has its saved tensors freed", "keeps its saved tensors"),
           "shares_memory": ("shares memory with another tensor", "has memory of its own")}
_NAMED_ATTRS = ("grad", "shape", "dtype", "grad_fn", "version", "grad.shape", "grad.dtype")


@dataclass(frozen=True)
class Promise:
    """One promise as a learner reads it, and whether it holds now."""

    text: str
    holds: bool
    expectation: Expectation


def _subject(ref: str, graph: Graph | None) -> tuple[str, str | None]:
    """``(what the promise is about, its attribute)``: ``"n1.grad"`` -> ``("x", "grad")``."""
    parts = ref.split(".")
    attr = None
    for name in sorted((a for a in (*_NAMED_ATTRS, *_YES_NO, "device", "error", "hints", "contributions")),
                       key=len, reverse=True):
        if len(parts) > len(name.split(".")) and ".".join(parts[-len(name.split(".")):]) == name:
            attr, parts = name, parts[:-len(name.split("."))]
            break
    node = parts[0]
    if graph is not None and node in graph.nodes:
        node = node_label(graph, node)
    return ".".join([node, *parts[1:]]), attr


def _bool_text(e: Expectation, yes: str, no: str) -> str | None:
    if not isinstance(e.value, bool) or e.op not in ("=", "!="):
        return None
    return yes if e.value == (e.op == "=") else no


def _special_text(e: Expectation, graph: Graph | None) -> str | None:
    if e.ref == "step":
        target = node_label(graph, e.value) if graph is not None and e.value in graph.nodes else e.text
        return f"the last step ran {target}" if e.op == "=" else None
    if e.ref == "losses.count":
        return f"{e.text} losses were recorded" if e.op == "=" else f"the number of losses {_OPS[e.op]} {e.text}"
    if e.ref == "hints":
        return _hints_text(e, None)
    if e.ref in _FIGURES:
        return f"{_FIGURES[e.ref]} {_OPS[e.op]} {e.text}"
    return None


def _hints_text(e: Expectation, subject: str | None) -> str | None:
    where = f" on {subject}" if subject else ""
    if e.op == "~":
        return f"a hint{where}: {str(e.value).replace('_', ' ')}"
    if e.op == "=" and e.value == []:
        return f"no hint{where}"
    return None


def promise_text(e: Expectation, graph: Graph | None = None) -> str | None:
    """A promise in plain language (node ids named by their titles), or None when it can't be phrased."""
    if e.ref in ("step", "losses.count", "hints") or e.ref in _FIGURES:
        return _special_text(e, graph)
    subject, attr = _subject(e.ref, graph)
    value = "None" if e.value is None else _tensor_text(e) if attr in (None, "grad") and e.op in ("=", "!=") \
        else e.text  # a bound (max_error < 1e-6) is no tensor: as written
    if attr in _YES_NO:
        return _bool_text(e, *(f"{subject} {t}" for t in _YES_NO[attr]))
    if attr == "hints":
        return _hints_text(e, subject)
    if attr == "error":
        if e.op == "=" and e.value is None:
            return f"{subject} runs without an error"
        return f"{subject} fails with “{e.text}”" if e.op == "~" else None
    if attr == "device":
        return f"{subject} is on {value}" if e.op == "=" else None
    if attr == "contributions":
        return f"{subject}.grad has {value} contribution{'' if e.value == 1 else 's'} since zero_grad" \
            if e.op == "=" else None
    if isinstance(e.value, bool) and e.op in ("=", "!="):
        return f"{subject}{'.' + attr if attr else ''} is {'true' if e.value == (e.op == '=') else 'false'}"
    return f"{subject}{'.' + attr if attr else ''} {_OPS[e.op]} {value}"


def _numbers(value: object) -> bool:
    """Whether ``value`` is a number or a (nested, non-empty) list of numbers: a tensor's values."""
    if isinstance(value, list):
        return bool(value) and all(_numbers(v) for v in value)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _tensor_text(e: Expectation) -> str:
    """A promised tensor value as the canvas prints that tensor (core's print, PyTorch's style: ``[2., 3.]``,
    ``[ 1.5000, -0.5000]``, ``1.6000``, a matrix's rows on one line), so the checklist reads as the node beside
    it; the promise's text as written when it is no tensor (text, a ragged list)."""
    if not _numbers(e.value):
        return e.text
    try:
        t = core.tensor(e.value)
    except (TypeError, ValueError):  # ragged nesting: no tensor to print
        return e.text
    return printed(t).replace("\n", "")


_PHASES = {"forward_step": "forward", "forward": "forward", "backward_step": "backward", "backward": "backward"}
_LOOP_PARTS = {"zero_grad", "forward", "backward", "optimizer_step"}  # what one training step does, in that order
TRAINED = ("train", "")  # the ``ran`` entry of a training run (the GUI's Train, a ``train`` action)


def _loop_parts(lesson: Lesson) -> list[bool]:
    """For each step, whether it does only parts of a training step, in a run of such steps right before a step
    that trains (lesson 6's Zero, Forward, Backward, Step): a learner who presses Train first ran through them."""
    out = [False] * len(lesson.steps)
    before_training = False
    for i in reversed(range(len(lesson.steps))):
        dos = {item.name for kind, item in lesson.steps[i].program if kind == "do" and isinstance(item, Action)}
        if "train" in dos:
            before_training = True
        elif dos and dos <= _LOOP_PARTS and before_training:
            out[i] = True
        else:
            before_training = False
    return out


def _phases(step: Step) -> list[str | None]:
    """For each of ``step``'s expectations, the direction of the stepping ``do:`` written before it (None: none)."""
    phase: str | None = None
    out: list[str | None] = []
    for kind, item in step.program:
        if kind == "do" and isinstance(item, Action):
            phase = _PHASES.get(item.name, phase)
        elif kind == "expect":
            out.append(phase)
    return out if len(out) == len(step.expects) else [None] * len(step.expects)


def _ran(refs: SessionRefs, e: Expectation, phase: str | None) -> bool:
    """``step = x`` against the steps the last action ran: one of them ran x (in ``phase`` when known)."""
    node = refs.node_id(e.value) if isinstance(e.value, str) else e.value
    return any(n == node and (phase is None or p == phase) for p, n in refs.ran)


_RUN_FIGURES = ("losses.first", "losses.last", "losses.count", "accuracy.last", "val_loss.last", "val_accuracy.last")


def _of_run(step: Step) -> list[bool]:
    """For each of ``step``'s expectations, whether it is about a training run: a run's figures (``losses.last``),
    or anything written after a ``do: train`` (lesson 6's hints describe what the buggy loop left)."""
    trained = False
    out: list[bool] = []
    for kind, item in step.program:
        if kind == "do" and isinstance(item, Action):
            trained = trained or item.name == "train"
        elif kind == "expect" and isinstance(item, Expectation):
            out.append(trained or item.ref in _RUN_FIGURES)
    return out if len(out) == len(step.expects) else [e.ref in _RUN_FIGURES for e in step.expects]


def _anchors(step: Step) -> list[int | None]:
    """For each of ``step``'s expectations, the index of the ``step = x`` promise it follows within the same
    ``do:`` (the state it describes is the one right after x ran), or None."""
    anchor: int | None = None
    out: list[int | None] = []
    for kind, item in step.program:
        if kind == "do":
            anchor = None
        elif kind == "expect" and isinstance(item, Expectation):
            out.append(anchor)
            if item.ref == "step" and item.op == "=":
                anchor = len(out) - 1
    return out if len(out) == len(step.expects) else [None] * len(step.expects)


def _ran_past(refs: SessionRefs, e: Expectation, phase: str | None) -> int:
    """How many steps the last action ran after it ran ``step = x``'s x (in ``phase`` when known): 0 when it
    stopped there or did not run x. Backward all runs past z, so step 2's "b.grad is None" was passed through."""
    try:
        node = refs.node_id(e.value) if isinstance(e.value, str) else e.value
    except Exception:  # a node renamed or deleted
        return 0
    at = [i for i, (p, n) in enumerate(refs.ran) if n == node and (phase is None or p == phase)]
    if not at:
        return 0
    return sum(1 for p, _ in refs.ran[at[-1] + 1:] if phase is None or p == phase)


def _holds(refs: SessionRefs, e: Expectation, phase: str | None = None) -> bool:
    """Whether the promise holds in ``refs``'s session; anything it can't read (a node renamed or deleted, a
    value not computed yet) counts as not holding. ``phase``: the direction a ``step`` promise is about."""
    try:
        if e.ref == "step" and e.op == "=" and refs.ran:
            return _ran(refs, e, phase)
        actual = refs.resolve(e.ref)
        expected = refs.node_id(e.value) if e.ref == "step" and isinstance(e.value, str) else e.value
        return matches(actual, e.op, expected, e.places)
    except Exception:  # a promise that can't be read is simply not kept (yet)
        return False


def promises(step: Step, session: Session | SessionRefs, metrics: Iterable[StepMetrics] = (),
             last_node: str | None = None, hints: HintSource | None = None) -> list[Promise]:
    """Each phrasable promise of ``step`` with whether it holds in ``session`` now (``metrics``, ``last_node``
    and ``hints`` as for ``SessionRefs``: the last training's figures, the node the last step ran, the hints)."""
    refs = session if isinstance(session, SessionRefs) else SessionRefs(session, "lesson", metrics, last_node, hints)
    out = []
    for e, phase in zip(step.expects, _phases(step)):
        text = promise_text(e, refs.graph)
        if text is not None:
            out.append(Promise(text, _holds(refs, e, phase), e))
    return out


class Checklist:
    """The ticks of one lesson's promises in one session (see the module docstring for when they tick)."""

    def __init__(self, lesson: Lesson, graph: Graph | None = None) -> None:
        self.lesson = lesson
        phrased = [[(promise_text(e, graph), e, phase) for e, phase in zip(step.expects, _phases(step))]
                   for step in lesson.steps]
        self.texts = [[(t, e) for t, e, _ in items if t is not None] for items in phrased]
        self.phases = [[phase for t, _, phase in items if t is not None] for items in phrased]
        anchors = [_anchors(step) for step in lesson.steps]
        self.anchors = [[a for a, (t, _, _) in zip(row, items) if t is not None] for row, items in
                        zip(anchors, phrased)]  # every shipped promise is phrasable: the indices agree
        self.of_run = [[r for r, (t, _, _) in zip(_of_run(step), items) if t is not None]
                       for step, items in zip(lesson.steps, phrased)]
        self.ticked = [[False] * len(items) for items in self.texts]
        self.passed = [[0] * len(items) for items in self.texts]  # ticked as passed through: steps back to see it
        self.loop_parts = _loop_parts(lesson)
        self.current = self._with_promises(0)

    def _with_promises(self, start: int) -> int:
        """The first step from ``start`` on that has promises (len(steps) when none is left)."""
        return next((i for i in range(start, len(self.texts)) if self.texts[i]), len(self.texts))

    def focus(self, step_index: int) -> None:
        """The learner works on step ``step_index`` (followed one of its links, or paged to it). The current step
        only moves on: a link of an earlier step (Backward step is in several) redoes an action, it does not
        take the learner back."""
        self.current = max(self.current, min(step_index, len(self.texts)))

    def forget_run(self) -> bool:
        """The session was reset: the run the promises about training described is gone (a new run begins), so
        their ticks are taken back, to tick again from the next run's figures; True when a tick changed."""
        changed = False
        for i, row in enumerate(self.of_run):
            for k, of_run in enumerate(row):
                if of_run and self.ticked[i][k]:
                    self.ticked[i][k], self.passed[i][k], changed = False, 0, True
        return changed

    def items(self, step_index: int) -> list[tuple[str, bool]]:
        """``[(text, ticked)]`` of a step's phrasable promises, in written order."""
        return [(t + _passed_note(n), done) for (t, _), done, n in
                zip(self.texts[step_index], self.ticked[step_index], self.passed[step_index])]

    def update(self, refs: SessionRefs) -> bool:
        """Tick what came true in ``refs``'s session; True when a tick (or the current step) changed."""
        changed = False
        done = {phase for phase, _ in refs.ran}  # the directions the learner's last action stepped in
        if "train" in done:  # each training step runs a forward and a backward pass
            done |= {"forward", "backward"}
        while True:
            changed = self._tick_reached(refs) or changed
            if self.current >= len(self.texts) or not all(self.ticked[self.current]):
                return changed
            completed = self.current
            self.current, changed = self._with_promises(self.current + 1), True
            if self.current >= len(self.texts) or not (done & set(self.phases[self.current])
                                                        or "train" in done and self.loop_parts[completed]
                                                        or not self.lesson.steps[self.current].actions):
                return changed  # checked from the next change on
            # else the action was the next step's own (a training run is a training step's parts; a learner who
            # skipped a step that held already pressed Forward all as the next one says), or the next step has
            # no action of its own (lesson 3's "view(12) fails" describes what Forward all left): its promises
            # are checked against it now

    def _tick_reached(self, refs: SessionRefs) -> bool:
        """Tick, in written order, what holds now of the steps up to the current one."""
        changed = False
        for i in range(min(self.current + 1, len(self.texts))):
            for k, (_, e) in enumerate(self.texts[i]):
                if self.ticked[i][k]:
                    if self.passed[i][k] and _holds(refs, e, self.phases[i][k]):  # stepped back to it: seen
                        self.passed[i][k], changed = 0, True
                    continue
                if _holds(refs, e, self.phases[i][k]):
                    self.ticked[i][k] = changed = True
                    continue
                past = self._ran_past(refs, i, k)
                if not past:
                    break
                self.ticked[i][k], self.passed[i][k], changed = True, past, True
        return changed

    def _ran_past(self, refs: SessionRefs, i: int, k: int) -> int:
        """Steps the last action ran past the state promise ``k`` of step ``i`` describes (0: not passed)."""
        anchor = self.anchors[i][k] if k < len(self.anchors[i]) else None
        if self.loop_parts[i] and TRAINED in refs.ran:
            return TRAINED_PAST
        if anchor is None or not refs.ran:
            return 0
        return _ran_past(refs, self.texts[i][anchor][1], self.phases[i][anchor])


TRAINED_PAST = -1  # ``Checklist.passed`` of a promise that a training run passed through


def _passed_note(steps_back: int) -> str:
    """What a promise passed through in one go says: how to see it."""
    if not steps_back:
        return ""
    if steps_back == TRAINED_PAST:
        return " (passed by Train: Reset, then step through to see it)"
    times = "once" if steps_back == 1 else f"{steps_back} times"
    return f" (passed in one go: Step back {times} to see it)"


def metrics_of_run(run: Run | None) -> list[dict[str, float | None]]:
    """A ``core.nodegraph.training.runs.Run`` as the per-step metrics dicts ``SessionRefs`` reads (NaN as None)."""
    if run is None or not len(run):
        return []
    def column(name: str) -> list[float | None]:
        return [None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)
                for v in run.series(name).tolist()]
    names = run.names()
    cols = {name: column(name) for name in ("loss", "accuracy", "val_loss", "val_accuracy") if name in names}
    return [{name: values[i] for name, values in cols.items()} for i in range(len(run))]
