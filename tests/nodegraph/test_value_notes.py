"""A number that stands for something else carries a note that says what (a dataset's batch_size 0: the whole set),
so a summary of the node does not read ``batch_size=0`` as an empty batch."""

import core.nodegraph.model.nodes  # noqa: F401  registers the built-in node types
from core.nodegraph.model.nodes.data import batch_rows
from core.nodegraph.model.spec import get_spec


def _batch_size():
    return next(p for p in get_spec("data.dataset").params if p.name == "batch_size")


def test_a_datasets_batch_size_zero_is_noted_as_the_whole_set_and_takes_every_row_each_step():
    param = _batch_size()
    assert param.value_note(0) == "whole set"
    assert all(len(batch_rows(100, 0, step, 0, True)) == 100 for step in range(3))  # what the note promises


def test_other_batch_sizes_and_a_false_that_equals_zero_carry_no_note():
    param = _batch_size()
    assert [param.value_note(v) for v in (1, 32, 100, False, None)] == ["", "", "", "", ""]
