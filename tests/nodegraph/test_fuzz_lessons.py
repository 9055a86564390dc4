"""Fuzzing lessons: each lesson's steps in any order, some skipped or repeated, the graph edited between them.

The checklist the Lessons dock shows (``Checklist.update``, ``promises``) reads whatever state the learner left:
it must never raise, only leave promises unticked. The headless runner (``LessonRun.run_step``) performs a
step's actions on that state: a step whose node was deleted is refused with a ``LessonError`` naming it; a step
on the graph as the lesson left it never raises (a broken promise is a ``Failure``, a failed op an error kept on
its node).
"""

from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import core.nodegraph.model.nodes  # noqa: F401 - the node types lessons are built from
from core.nodegraph.files import io as files
from core.nodegraph.lessons.checklist import Checklist, promises
from core.nodegraph.lessons.runner import LessonRun
from core.nodegraph.lessons.texts import LessonError, list_lessons
from core.nodegraph.model import commands as cmd
from tests.hypothesis_profiles import fuzz_settings

LESSONS = list_lessons()


def _edit(run: LessonRun, kind: str, pick: int) -> bool:
    """One edit a learner might make between steps; whether it deleted a node."""
    g = run.graph
    if kind == "delete" and g.nodes:
        cmd.RemoveNodes([sorted(g.nodes)[pick % len(g.nodes)]]).do(g)
        return True
    if kind == "disconnect" and g.edges:
        e = sorted(g.edges, key=str)[pick % len(g.edges)]
        cmd.Disconnect(e.src, e.src_port, e.dst, e.dst_port).do(g)
    elif kind == "reset":
        run.session.reset()
    return False


@fuzz_settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lesson=st.sampled_from(LESSONS), data=st.data())
def test_lesson_steps_in_any_order_with_edits_between_never_raise_but_a_lesson_error(lesson, data):
    run = LessonRun(lesson)
    checklist = Checklist(lesson, run.graph)
    deleted = False
    n = len(lesson.steps)
    for _ in range(data.draw(st.integers(1, 4))):  # a lesson trains hundreds of steps: a few steps an example
        step = lesson.steps[data.draw(st.integers(0, n - 1))]
        deleted |= _edit(run, data.draw(st.sampled_from(["none", "none", "delete", "disconnect", "reset"])),
                         data.draw(st.integers(0, 99)))
        try:
            run.run_step(step)
        except LessonError as exc:
            assert deleted and "no single node" in str(exc), str(exc)
        checklist.focus(data.draw(st.integers(0, n)))
        checklist.update(run)
        for s in lesson.steps:
            promises(s, run)
    Checklist(lesson, run.graph).update(run)  # the dock reopened on the edited graph
    files.loads(files.dumps(run.graph))  # whatever the steps did, the document reopens
