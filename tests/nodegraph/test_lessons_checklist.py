"""A lesson's promises as a learner's checklist: phrased in plain language, checked against any session (the
window's own), ticking in order and only for the steps the learner has reached."""

from __future__ import annotations

import pytest

import core
import core.nodegraph.model.nodes  # registers the node types
from core.nodegraph.files import io as files
from core.nodegraph.lessons.checklist import Checklist, metrics_of_run, promise_text, promises
from core.nodegraph.lessons.runner import LessonRun, SessionRefs
from core.nodegraph.lessons.texts import Action, list_lessons, parse_lesson
from core.nodegraph.model.numtext import printed
from core.nodegraph.run.session import Session
from core.nodegraph.training.runs import RunHistory

LESSONS = {lesson.key: lesson for lesson in list_lessons()}


def _expect(line: str):
    (step,) = parse_lesson(f"# t\n## s\n```steps\nexpect: {line}\n```\n")[2]
    return step.expects[0]


@pytest.mark.parametrize(("line", "text"), [
    ("x.grad = [1.5, -0.5]", "x.grad is [ 1.5000, -0.5000]"),
    ("b.grad = None", "b.grad is None"),
    ("step = z", "the last step ran z"),
    ("xw.grad_fn = MulBackward0", "xw.grad_fn is MulBackward0"),
    ("x.is_leaf = true", "x is a leaf"),
    ("xw.is_leaf = false", "xw is not a leaf"),
    ("xw.freed = true", "xw has its saved tensors freed"),
    ("b.contiguous = false", "b is not contiguous"),
    ("z.error ~ Trying to backward", "z fails with “Trying to backward”"),
    ("z.error = None", "z runs without an error"),
    ("x.hints ~ grad_accumulation", "a hint on x: grad accumulation"),
    ("diff_fixed.hints = []", "no hint on diff_fixed"),
    ("x.contributions = 2", "x.grad has 2 contributions since zero_grad"),
    ("critic.0.weight.grad.shape = [8, 2]", "critic.0.weight.grad.shape is [8, 2]"),
    ("losses.last < 0.1", "the last loss is below 0.1"),
    ("check.max_error < 1e-6", "check.max_error is below 1e-6"),  # a bound, not a tensor: as written
    ("check_wrong.max_error > 0.1", "check_wrong.max_error is above 0.1"),
    ("losses.count = 200", "200 losses were recorded"),
    ("val_accuracy.last > 0.95", "the validation accuracy is above 0.95"),
    ("x.device = cpu", "x is on cpu"),
])
def test_a_promise_reads_as_plain_language(line, text):
    assert promise_text(_expect(line)) == text


def test_a_promise_naming_a_node_by_id_is_phrased_with_its_title():
    graph = files.load(LESSONS["04-autograd-graph"].file)
    assert promise_text(_expect("n1.grad = [1.5, -0.5]"), graph) == "x.grad is [ 1.5000, -0.5000]"
    assert promise_text(_expect("step = n6"), graph) == "the last step ran z"


def test_a_promised_tensor_reads_as_the_canvas_prints_the_value_it_checks():
    """The checklist wrote [2.0, 3.0] beside a node printing [2., 3.]: each shipped promise of a tensor's value or
    gradient now reads as core prints the value it is checked against (PyTorch's style), at the point it is checked."""
    seen, differ = 0, []
    for key, lesson in LESSONS.items():
        run = LessonRun(lesson)
        for step in lesson.steps:
            for kind, item in step.program:
                if kind == "do":
                    run.perform(item)
                    continue
                actual = run.resolve(item.ref)
                if not isinstance(actual, core.Tensor) or item.value is None:
                    continue
                seen += 1
                text, want = promise_text(item), printed(actual).replace("\n", "")
                if not text.endswith(f" is {want}"):
                    differ.append((key, step.title, text, want))
    assert seen >= 10 and differ == []


def test_a_promise_that_cannot_be_phrased_is_hidden():
    assert promise_text(_expect("x.is_leaf < true")) is None
    assert promise_text(_expect("x.hints > 3")) is None


def test_every_promise_of_the_shipped_lessons_can_be_phrased():
    unphrased = [(key, e.ref, e.op, e.text) for key, lesson in LESSONS.items() for step in lesson.steps
                 for e in step.expects if promise_text(e) is None]
    assert unphrased == []


def test_promises_say_whether_each_holds_in_a_session_that_is_not_the_lessons_own():
    lesson = LESSONS["04-autograd-graph"]
    session = Session(files.load(lesson.file))
    first = lesson.steps[0]
    assert [p.holds for p in promises(first, session)][:6] == [False] * 6  # nothing computed yet
    node = session.forward_step()
    shown = promises(first, session, last_node=node)
    assert [(p.text, p.holds) for p in shown[:3]] == [("the last step ran x", True), ("x is [2., 3.]", True),
                                                      ("z is 1.6000", False)]
    session.forward()
    assert all(p.holds for p in promises(first, session)[2:])


def _learner(lesson):
    """A learner's session on the lesson's graph (not a LessonRun's): steps through LessonRun's actions."""
    run = LessonRun(lesson)
    return run, Checklist(lesson, run.graph)


def _ticks(checklist, index):
    return [done for _, done in checklist.items(index)]


def test_the_checklist_ticks_lesson_four_as_the_learner_steps_and_keeps_what_came_true():
    run, checklist = _learner(LESSONS["04-autograd-graph"])
    assert not checklist.update(run)
    run.perform(Action("forward_step"))
    checklist.update(run)
    assert _ticks(checklist, 0) == [True, True] + [False] * 5
    assert not any(_ticks(checklist, 4)), "step 5's 'the last step ran x' waits until the learner gets there"
    run.perform(Action("forward"))
    checklist.update(run)
    assert all(_ticks(checklist, 0)), "'the last step ran x' stays ticked after the forward pass"
    assert not any(_ticks(checklist, 1)), "the next step is checked from the next change on"
    for _ in range(6):
        run.perform(Action("backward_step"))
        checklist.update(run)
    assert [all(_ticks(checklist, i)) for i in range(5)] == [True] * 5
    assert checklist.items(5) == []


def test_the_promises_of_a_step_tick_in_written_order():
    run, checklist = _learner(LESSONS["04-autograd-graph"])
    checklist.focus(1)  # the learner follows step 2's link without stepping forward first
    run.perform(Action("forward"))
    checklist.update(run)
    assert _ticks(checklist, 1) == [False, False], "'b.grad is None' waits for 'the last step ran z'"
    run.perform(Action("backward_step"))
    checklist.update(run)
    assert _ticks(checklist, 1) == [True, True]


def test_training_figures_come_from_a_recorded_run():
    lesson = LESSONS["06-training-step"]
    run = LessonRun(lesson)
    history = RunHistory()
    current = history.new_run(run.graph.training)
    for metrics in run.session.train(100):
        current.add(metrics)
    refs = SessionRefs(run.session, metrics=metrics_of_run(current))
    step = next(s for s in lesson.steps if any(e.ref == "losses.count" for e in s.expects))
    assert [(p.text, p.holds) for p in promises(step, refs)] == [
        ("100 losses were recorded", True), ("the first loss is 11.1638", True), ("the last loss is below 1.0", True)]


def test_a_promise_about_a_node_that_is_gone_does_not_hold():
    lesson = LESSONS["04-autograd-graph"]
    graph = files.load(lesson.file)
    graph.remove_node("n1")
    assert [p.holds for p in promises(lesson.steps[0], Session(graph))][1] is False


def test_following_a_link_of_an_earlier_step_does_not_take_the_checklist_back():
    run, checklist = _learner(LESSONS["04-autograd-graph"])
    checklist.focus(2)
    checklist.focus(1)
    assert checklist.current == 2


def _learner_with_steps(lesson):
    """A learner's session and checklist, with the (phase, node) of every step the session runs recorded."""
    run, checklist = _learner(lesson)
    ran: list[tuple[str, str]] = []
    run.session.subscribe(lambda event: ran.append((event.phase, event.node)) if event.node is not None else None)
    return run, checklist, ran


def test_forward_all_at_once_ticks_the_first_step_whole():
    """A learner who presses Forward all without a Forward step first ran x too: 'the last step ran x' ticks,
    and so does everything after it in step 1."""
    run, checklist, ran = _learner_with_steps(LESSONS["04-autograd-graph"])
    run.perform(Action("forward"))
    checklist.update(SessionRefs(run.session, ran=ran))
    assert all(_ticks(checklist, 0))
    assert dict(checklist.items(0))["the last step ran x"] is True


def test_a_forward_pass_does_not_keep_a_promise_about_a_backward_step():
    """Step 2's 'the last step ran z' follows a Backward step: Forward all, which also ran z, does not keep it."""
    run, checklist, ran = _learner_with_steps(LESSONS["04-autograd-graph"])
    checklist.focus(1)
    run.perform(Action("forward"))
    checklist.update(SessionRefs(run.session, ran=ran))
    assert _ticks(checklist, 1) == [False, False]
    ran.clear()
    run.perform(Action("backward_step"))
    checklist.update(SessionRefs(run.session, ran=ran))
    assert _ticks(checklist, 1) == [True, True]


def test_a_forward_step_of_another_node_does_not_keep_the_first_steps_promise():
    lesson = LESSONS["04-autograd-graph"]
    session = Session(files.load(lesson.file))
    session.forward_step()
    refs = SessionRefs(session, ran=[("forward", "n2")])  # w ran, not x
    assert [(p.text, p.holds) for p in promises(lesson.steps[0], refs)][0] == ("the last step ran x", False)


def test_the_next_steps_own_action_ticks_it_when_the_step_before_held_already():
    """Lesson 6: 'Zero' (model.weight.grad is None) holds before anything is pressed; a learner who presses Forward
    all first, as 'Forward' says, sees loss 11.1638 ticked at once, and 'Backward' waits for a backward."""
    run, checklist, ran = _learner_with_steps(LESSONS["06-training-step"])
    run.perform(Action("forward"))
    checklist.update(SessionRefs(run.session, ran=ran))
    assert all(_ticks(checklist, 0)) and all(_ticks(checklist, 1))
    assert not any(_ticks(checklist, 2))
    ran.clear()
    run.perform(Action("backward"))
    checklist.update(SessionRefs(run.session, ran=ran))
    assert all(_ticks(checklist, 2))


def test_backward_all_at_once_ticks_lesson_four_to_the_end_saying_how_to_see_what_it_passed_through():
    """A newcomer who presses Backward all after Forward all skips step 2's state (b.grad is None right after z
    ran): the checklist follows them to the end, the passed promises say how many Step backs show them, and
    stepping back to such a state ticks it plainly."""
    run, checklist, ran = _learner_with_steps(LESSONS["04-autograd-graph"])
    run.perform(Action("forward"))
    checklist.update(SessionRefs(run.session, ran=ran))
    ran.clear()
    run.perform(Action("backward"))
    checklist.update(SessionRefs(run.session, ran=ran))
    assert all(all(_ticks(checklist, i)) for i in range(5)), [checklist.items(i) for i in range(5)]
    assert checklist.current == len(checklist.texts)
    texts = [t for i in range(5) for t, _ in checklist.items(i)]
    assert "b.grad is None (passed in one go: Step back 5 times to see it)" in texts
    assert "x.grad is None (passed in one go: Step back 4 times to see it)" in texts  # step 3, after b
    assert "x.grad is None (passed in one go: Step back twice to see it)" not in texts
    assert "x.grad is [ 1.5000, -0.5000]" in texts and "w.grad is [2., 3.]" in texts  # held at the end: plain ticks
    for _ in range(5):
        assert run.session.history.step_back()
        checklist.update(SessionRefs(run.session, ran=ran))
    assert dict(checklist.items(1))["b.grad is None"] is True, "seen after stepping back: ticked plainly"


def test_a_promise_that_is_not_passed_through_still_waits():
    """Forward steps that stop at x pass nothing: step 1's 'z is 1.6000' stays open (x was the last step run)."""
    run, checklist, ran = _learner_with_steps(LESSONS["04-autograd-graph"])
    run.perform(Action("forward_step"))
    checklist.update(SessionRefs(run.session, ran=ran))
    assert _ticks(checklist, 0) == [True, True] + [False] * 5
    assert not any(checklist.passed[0])


def test_train_first_in_lesson_six_passes_through_zero_forward_backward_and_step():
    """A learner who presses Train before stepping through lesson 6 ran Zero, Forward, Backward and Step in its first
    training step: those steps tick (what no longer holds as passed, saying how to see it) and 'The loop' ticks
    from the same run."""
    from core.nodegraph.lessons.checklist import TRAINED

    run, checklist = _learner(LESSONS["06-training-step"])
    metrics = list(run.session.train(100))
    checklist.update(SessionRefs(run.session, metrics=metrics, ran=[TRAINED]))
    assert all(all(_ticks(checklist, i)) for i in range(5)), [checklist.items(i) for i in range(5)]
    assert "loss is 11.1638 (passed by Train: Reset, then step through to see it)" in dict(checklist.items(1))
    assert dict(checklist.items(1))["model.weight.shape is [1, 4]"] is True, "what still holds ticks plainly"
    assert not any(_ticks(checklist, 5)), "the buggy loop waits for its own run"


def test_a_training_run_passes_no_step_of_a_lesson_whose_steps_do_more_than_train():
    """Lesson 10's steps set losses and read hints: Train passes none of them."""
    run, checklist = _learner(LESSONS["10-diagnosing"])
    from core.nodegraph.lessons.checklist import TRAINED

    metrics = list(run.session.train(3))
    checklist.update(SessionRefs(run.session, metrics=metrics, ran=[TRAINED]))
    assert not any(n for row in checklist.passed for n in row)


@pytest.mark.parametrize("key", ["02-broadcasting", "03-views"])
def test_forward_all_ticks_the_steps_after_it_that_only_describe_what_it_computed(key):
    """Lessons 2 and 3 say Forward all in their first step; the steps after it have no action of their own
    ("view(12) fails", "reshape, or contiguous().view") and describe what that pass left: they tick with it,
    where they stayed open until some unrelated change."""
    lesson = LESSONS[key]
    run, checklist, ran = _learner_with_steps(lesson)
    run.perform(Action("forward"))
    checklist.update(SessionRefs(run.session, ran=ran, hints=run.diagnostics.update))
    without_action = [i for i, step in enumerate(lesson.steps) if step.expects and not step.actions]
    assert without_action, "the lesson still has steps that only describe"
    assert [all(_ticks(checklist, i)) for i in without_action] == [True] * len(without_action)


def test_a_step_without_an_action_whose_promises_do_not_hold_stays_open():
    """Lesson 3's "view(12) fails" stays open when the learner changed b_view to a view that works: no tick for
    what did not happen."""
    lesson = LESSONS["03-views"]
    run, checklist, ran = _learner_with_steps(lesson)
    view_fails = next(i for i, step in enumerate(lesson.steps) if step.title.startswith("view(12)"))
    b_view = next(n for n in run.graph.nodes if run.graph.nodes[n].title == "b_view")
    run.graph.set_param(b_view, "shape", (4, 3))  # b's own shape: a view that needs no copy
    run.perform(Action("forward"))
    checklist.update(SessionRefs(run.session, ran=ran, hints=run.diagnostics.update))
    assert not any(_ticks(checklist, view_fails))


def _lesson_six_after_the_loop():
    """Lesson 6 done up to 'The loop' (Reset, Train 100 steps) by a learner: the checklist and the learner's refs."""
    run, checklist = _learner(LESSONS["06-training-step"])
    checklist.focus(4)
    for action in LESSONS["06-training-step"].steps[4].actions:
        run.perform(action)
    checklist.update(SessionRefs(run.session, metrics=run.metrics, hints=run.diagnostics.update))
    assert all(_ticks(checklist, 4)), checklist.items(4)
    return run, checklist


def test_reset_takes_back_the_ticks_about_the_run_it_ended():
    """'The loop' ticked its 100 losses; Reset starts a new run, so those ticks go (the plots start a new run too),
    while the promises about stepping by hand (Zero, Forward...) are not about a run and stay as they were."""
    run, checklist = _lesson_six_after_the_loop()
    before = [list(row) for row in checklist.ticked]
    checklist.focus(5)
    run.perform(Action("reset"))
    assert run.metrics == [], "a reset ends the run its figures came from"
    assert checklist.forget_run()
    assert not any(_ticks(checklist, 4))
    assert [row for i, row in enumerate(checklist.ticked) if i != 4] == [row for i, row in enumerate(before) if i != 4]
    checklist.update(SessionRefs(run.session, metrics=run.metrics, hints=run.diagnostics.update))
    assert not any(_ticks(checklist, 5)), "'the first loss is 11.1638' waits for the buggy loop's own run"


def test_the_buggy_loop_ticks_its_step_and_a_second_reset_takes_those_ticks_back():
    run, checklist = _lesson_six_after_the_loop()
    checklist.focus(5)
    for action in LESSONS["06-training-step"].steps[5].actions:
        run.perform(action)
        if action.name == "reset":
            checklist.forget_run()
    refs = SessionRefs(run.session, metrics=run.metrics, hints=run.diagnostics.update)
    checklist.update(refs)
    assert _ticks(checklist, 5) == [True] * 4, checklist.items(5)
    assert not any(_ticks(checklist, 4)), "the buggy loop's 20 losses are not 'The loop's 100"
    run.perform(Action("reset"))
    assert checklist.forget_run()
    checklist.update(SessionRefs(run.session, metrics=run.metrics, hints=run.diagnostics.update))
    assert not any(_ticks(checklist, 5)), checklist.items(5)


def test_a_lesson_without_training_keeps_its_ticks_over_a_reset():
    run, checklist = _learner(LESSONS["04-autograd-graph"])
    run.perform(Action("forward_step"))
    checklist.update(run)
    assert _ticks(checklist, 0)[:2] == [True, True]
    run.perform(Action("reset"))
    assert not checklist.forget_run()
    assert _ticks(checklist, 0)[:2] == [True, True]
