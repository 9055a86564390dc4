"""Stepping backward to the end of a pass: the last step's event says the pass is complete, the next Backward
step starts a new call (its first event says so), and that second call without retain_graph does what PyTorch's
second ``z.backward()`` does: b's gradient accumulates (AddBackward0 and b's AccumulateGrad need no saved
tensors) and then MulBackward0 raises "backward through the graph a second time", shown on the loss node."""

import pytest

from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import chapter_graph, node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def _step_to_the_end(session, events):
    while True:
        session.backward_step()
        if not session.backward_in_progress:
            return [e for e in events if e.phase in ("backward", "error")]


def test_the_last_backward_step_says_the_pass_is_complete_and_the_first_says_it_starts():
    s = Session(chapter_graph())
    s.forward()
    events = []
    s.subscribe(events.append)
    steps = _step_to_the_end(s, events)
    assert steps[0].detail.get("starts") and steps[0].detail["backward_call"] == 1
    assert steps[-1].detail.get("done") and not any(e.detail.get("done") for e in steps[:-1])
    assert not any(e.detail.get("starts") for e in steps[1:])


def test_a_backward_step_after_the_end_starts_a_second_call_that_fails_as_pytorchs_does(torch):
    s = Session(chapter_graph())
    s.forward()
    _step_to_the_end(s, [])
    events = []
    s.subscribe(events.append)
    second = _step_to_the_end(s, events)
    assert second[0].detail.get("starts") and second[0].detail["backward_call"] == 2
    assert second[-1].phase == "error" and second[-1].node == "z"
    assert "backward through the graph a second time" in s.errors["z"].message

    x = torch.tensor([2.0, 3.0], requires_grad=True)
    w = torch.tensor([1.5, -0.5], requires_grad=True)
    b = torch.tensor(0.1, requires_grad=True)
    z = (x * w).sum() + b
    z.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        z.backward()
    for name, leaf in (("x", x), ("w", w), ("b", b)):
        assert s.value(name).grad.tolist() == pytest.approx(leaf.grad.tolist()), name  # b: 2.0 in both
