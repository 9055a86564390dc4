"""Run a lesson's steps on a session and check what the lesson promises (headless).

``SessionRefs(session, ...)`` reads refs and checks promises against any session (the window's own too: see
``core.nodegraph.lessons.checklist``). ``LessonRun(lesson)`` loads the lesson's graph with ``files.load`` and opens a
``Session`` on it (with ``Diagnostics`` when that module is available). ``run_step(step)`` performs the step's ``do:``
actions and checks its ``expect:`` lines in written order; ``perform(action)`` runs one action (what an action link
does headless); ``resolve(ref)`` reads a ref (see ``core.nodegraph.lessons.texts``). A failed expectation is
reported as a ``Failure`` with the actual value, never raised, so a test can list them all; so is one whose ref
can't be read (a node deleted or renamed since the lesson was written: the actual value is the reason), and an
action on such a node is skipped, as the app's action link skips it.
``python -m core.nodegraph.lessons.runner [KEY ...]`` runs lessons from the command line (exit 1 if a
promise is broken), for whoever writes or edits a lesson.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

import core
from core.nodegraph.explain.diagnostics import Diagnostics
from core.nodegraph.files import io as files
from core.nodegraph.lessons.texts import ATTRIBUTES, Action, Expectation, Lesson, LessonError, Step
from core.nodegraph.run.session import Session

if TYPE_CHECKING:
    from core.nodegraph.explain.diagnostics import Hint
    from core.nodegraph.model.document import Graph

__all__ = ["LessonRun", "SessionRefs", "Failure", "matches"]

RTOL, ATOL = 1e-4, 1e-6
_NONE = object()

StepMetrics = dict[str, Any]  # one training step's figures (``Session.train``'s dicts)
HintSource = Callable[[], Iterable["Hint"]]  # gives the current diagnostic hints


@dataclass(frozen=True)
class Failure:
    step: str
    expectation: Expectation
    actual: object

    def __str__(self) -> str:
        e = self.expectation
        return f"step {self.step!r}: expected {e.ref} {e.op} {e.text}, got {self.actual!r}"


def _plain(value: Any) -> Any:
    """Tensors, arrays and records as plain Python data (lists, numbers, text)."""
    if isinstance(value, core.Tensor):
        return value.detach().cpu().numpy().tolist()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _close(a: Any, b: Any, places: int | None) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        tol = max(ATOL, 0.5 * 10.0 ** -places * (1 + 1e-9)) if places is not None else ATOL
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=RTOL, abs_tol=tol)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, places) for x, y in zip(a, b))
    return str(a) == str(b)


def matches(actual: Any, op: str, expected: Any, places: int | None = None) -> bool:
    """Whether ``actual op expected`` holds: ``=`` for numbers means equal once rounded to ``places``
    decimals (or within 1e-4 relative), ``~`` contains."""
    actual = _plain(actual)
    if op == "=":
        return _close(actual, expected, places)
    if op == "!=":
        return not _close(actual, expected, places)
    if op == "~":
        return str(expected) in actual if isinstance(actual, str) else (
            isinstance(actual, list) and expected in actual)
    try:
        return actual < expected if op == "<" else actual > expected
    except TypeError:
        return False


class SessionRefs:
    """Reads a lesson's refs and checks its promises against any session: a ``LessonRun``'s own, or the window's.

    ``metrics`` are the last training's per-step dicts (``Session.train``'s; ``losses.*``, ``accuracy.last`` and
    ``val_*.last`` read them), ``last_node`` the graph node the last stepping action ran (``step``), ``ran`` the
    ``(phase, node)`` of every step that action ran (Forward all runs several; ``("train", "")`` for a training
    run; the checklist reads it) and ``hints``
    a callable giving the current diagnostic hints (None: ``hints`` refs raise LessonError). ``names``, the
    lesson's own graph, names the nodes that the session's document leaves untitled (the start document is
    lesson 4's graph with some titles left out)."""

    def __init__(self, session: Session, key: str = "lesson", metrics: Iterable[StepMetrics] = (),
                 last_node: str | None = None, hints: HintSource | None = None, names: Graph | None = None,
                 ran: Iterable[tuple[str, str]] = ()) -> None:
        self.session = session
        self.graph = session.graph
        self.key = key
        self.metrics = list(metrics)
        self.last_node = last_node
        self.ran = list(ran)
        self.hints = hints
        self.names = names

    # ----- reading refs ---------------------------------------------------------------------------
    def node_id(self, name: str) -> str:
        """A node named by id or by its unique title."""
        if name in self.graph.nodes:
            return name
        found = [nid for nid, n in self.graph.nodes.items() if n.title == name]
        if not found and self.names is not None:
            found = [nid for nid, n in self.names.nodes.items() if n.title == name and nid in self.graph.nodes
                     and not self.graph.nodes[nid].title]
        if len(found) != 1:
            raise LessonError(f"{self.key}: no single node with id or title {name!r}")
        return found[0]

    def _split(self, ref: str) -> tuple[str, str, str | None]:
        parts = ref.split(".")
        attr = parts.pop() if len(parts) > 1 and parts[-1] in ATTRIBUTES else None
        if attr in ("shape", "dtype") and len(parts) > 1 and parts[-1] == "grad":
            attr = "grad." + attr
            parts.pop()
        return self.node_id(parts[0]), (".".join(parts[1:]) or "out"), attr

    def resolve(self, ref: str) -> Any:
        """The current value a ref names (see the lessons module for the ref forms)."""
        special = self._special(ref)
        if special is not _NONE:
            return special
        nid, port, attr = self._split(ref)
        s = self.session
        if attr is None:
            return s.value(nid, port)
        if attr == "error":
            err = s.errors.get(nid)
            return None if err is None else str(err)
        if attr == "hints":
            return self._hints(nid)
        if attr.startswith("grad."):
            g = s.grad(nid, port)
            return None if g is None else (list(g.shape) if attr == "grad.shape" else str(g.dtype).split(".")[-1])
        if attr == "contributions":
            return len(s.ledger.contributions(f"{nid}.{port}"))
        info = s.inspector.port_info(nid, port)
        if attr == "shares_memory":
            return bool(info.shares_memory_with)
        return {"grad": info.grad, "shape": list(info.shape) if info.shape is not None else None,
                "dtype": info.dtype, "device": info.device, "is_leaf": info.is_leaf,
                "requires_grad": info.requires_grad, "contiguous": info.contiguous, "grad_fn": info.grad_fn,
                "freed": info.freed, "version": info.version}[attr]

    def _special(self, ref: str) -> Any:
        """The value of a ref that names no node (``step``, ``losses.*``...), else ``_NONE``."""
        losses = [m["loss"] for m in self.metrics if m.get("loss") is not None]
        table = {"step": lambda: self.last_node, "losses.first": lambda: losses[0] if losses else None,
                 "losses.last": lambda: losses[-1] if losses else None, "losses.count": lambda: len(losses),
                 "accuracy.last": lambda: self.metrics[-1].get("accuracy") if self.metrics else None,
                 "val_loss.last": lambda: self._last_measured("val_loss"),
                 "val_accuracy.last": lambda: self._last_measured("val_accuracy"),
                 "hints": lambda: self._hints(None)}
        return table[ref]() if ref in table else _NONE

    def _last_measured(self, name: str) -> Any:
        """The last value of a metric that only some steps report (validation), or None."""
        return next((m[name] for m in reversed(self.metrics) if m.get(name) is not None), None)

    def _hints(self, nid: str | None) -> list[str]:
        if self.hints is None:
            raise LessonError("these refs were given no diagnostics to read hints from")
        hints = self.hints()
        return sorted({h.rule for h in hints if nid is None or h.node_id == nid})

    def check(self, step_title: str, e: Expectation) -> Failure | None:
        """None when the expectation holds, else a Failure with the actual value."""
        actual = self.resolve(e.ref)
        expected = self.node_id(e.value) if e.ref == "step" and isinstance(e.value, str) else e.value
        return None if matches(actual, e.op, expected, e.places) else Failure(step_title, e, _plain(actual))


class LessonRun(SessionRefs):
    """A lesson's graph in a fresh session, with the state its actions need (retain_graph, losses)."""

    def __init__(self, lesson: Lesson, device: str = "cpu") -> None:
        graph = files.load(lesson.file)
        session = Session(graph, device=device, seed=graph.training.get("seed", 0) or 0)
        self.diagnostics = Diagnostics(session)
        super().__init__(session, lesson.key, hints=self.diagnostics.update)
        self.lesson = lesson
        self.retain_graph = False

    # ----- actions --------------------------------------------------------------------------------
    def perform(self, action: Action) -> None:
        """Do what the app's action of that name does, through the session."""
        s, a = self.session, action.args
        handler = getattr(self, f"_do_{action.name}", None)
        if handler is not None:
            handler(a)
        elif action.name in ("backward_step", "backward"):
            retain = bool(a.get("retain_graph", self.retain_graph))
            fn = s.backward_step if action.name == "backward_step" else s.backward
            self.last_node = fn(retain_graph=retain)
        elif action.name == "forward_step":
            self.last_node = s.forward_step()
        else:
            getattr(s, action.name)()

    def _do_retain_graph(self, args: dict[str, Any]) -> None:
        self.retain_graph = bool(args.get("value", not self.retain_graph))

    def _do_retain_grad(self, args: dict[str, Any]) -> None:
        self.session.retain_grad_nodes.add(self.node_id(args["node"]))

    def _do_set(self, args: dict[str, Any]) -> None:
        self.graph.set_param(self.node_id(args["node"]), args["param"], args["value"])

    def _do_set_loss(self, args: dict[str, Any]) -> None:
        self.graph.set_training("loss", self.node_id(args["node"]))

    def _do_train(self, args: dict[str, Any]) -> None:
        """``n`` steps of the canonical loop (``zero_grad=false``: the loop that forgets zero_grad), as the app's
        Train runs them; their metrics are the run the ``losses.*`` refs read."""
        self.metrics = list(self.session.train(int(args.get("n", 1)), bool(args.get("zero_grad", True))))

    def _do_reset(self, _args: dict[str, Any]) -> None:
        """The session starts again from the seeds, and the last run's figures go with it (a new run begins)."""
        self.session.reset()
        self.metrics = []

    # ----- steps ----------------------------------------------------------------------------------
    def run_step(self, step: Step) -> list[Failure]:
        """Perform the step's actions and check its expectations in written order; the failures. Never raises for a
        node the session's document no longer has: an action on it is skipped (the app's link does nothing then)
        and an expectation that reads it is a Failure whose actual value says which node is missing."""
        failures = []
        for _, item in step.program:  # ("do", Action) or ("expect", Expectation)
            try:
                if isinstance(item, Action):
                    self.perform(item)
                    continue
                f = self.check(step.title, item)
            except LessonError as exc:  # a ref or node= that names no node now (deleted, renamed)
                f = None if isinstance(item, Action) else Failure(step.title, item, str(exc))
            if f is not None:
                failures.append(f)
        return failures

    def run(self) -> list[Failure]:
        """Every step of the lesson in order; all the failures."""
        out = []
        for step in self.lesson.steps:
            out.extend(self.run_step(step))
        return out


def main(argv: list[str] | None = None) -> int:
    """``python -m core.nodegraph.lessons.runner [KEY ...]``: run lessons headless, print each broken promise."""
    import sys

    import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
    from core.nodegraph.lessons.texts import list_lessons

    keys = sys.argv[1:] if argv is None else argv
    broken = 0
    for lesson in list_lessons():
        if keys and lesson.key not in keys:
            continue
        failures = LessonRun(lesson).run()
        broken += len(failures)
        print(f"{lesson.key}: {'ok' if not failures else f'{len(failures)} broken'}")
        for f in failures:
            print(f"  {f}")
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
