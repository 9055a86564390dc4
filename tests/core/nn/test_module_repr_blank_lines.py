"""A module's repr inside its parent keeps blank lines empty, as PyTorch's ``_addindent`` does: MAML's ``Learner``
ends its ``extra_repr`` with a newline, and printing the meta-learner that holds it shows an empty line."""

from __future__ import annotations

import core


def _nested(lib):
    class Learner(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.vars = lib.nn.ParameterList([lib.nn.Parameter(lib.zeros(2))])

        def extra_repr(self):
            return "conv2d:(ch_in:1)\nrelu:(True,)\n\n"

    class Meta(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = Learner()
            self.seq = lib.nn.Sequential(Learner(), Learner())

    return Meta(), Learner()


def test_blank_lines_of_a_childs_repr_stay_empty(torch):
    ours, theirs = _nested(core), _nested(torch)
    assert repr(ours[0]) == repr(theirs[0])
    assert "\n\n" in repr(ours[0]) and " \n" not in repr(ours[0])


def test_the_top_level_repr_keeps_its_own_indent(torch):
    ours, theirs = _nested(core), _nested(torch)
    assert repr(ours[1]) == repr(theirs[1])  # the module itself: "\n  " before each of its lines, blank ones too
