"""linspace/logspace given arguments of the wrong type fail with PyTorch's parser message, which lists the four
(Tensor or Number) start/end overloads; a tensor start or end must be 0-dimensional. (A UvA notebook passed an
image's size where PIL was missing: torch's message named the overloads, core's one argument.)"""

import numpy as np
import pytest

import core
from tests.core.oracle import raised

BAD = [(0, 1, 2.5), (0, 1, "a"), ("a", 1, 3), (0, 1, None), (0, 1, True), ([0.0, 1.0], 1, 3), (0, None, 3)]


def _error(lib, fn, args):
    return raised(lambda: getattr(lib, fn)(*args))


@pytest.mark.parametrize("fn", ["linspace", "logspace"])
@pytest.mark.parametrize("args", BAD, ids=[repr(a) for a in BAD])
def test_wrong_argument_types_raise_torchs_message(torch, fn, args):
    ours, theirs = _error(core, fn, args), _error(torch, fn, args)
    assert theirs is not None and ours == theirs


@pytest.mark.parametrize("fn", ["linspace", "logspace"])
def test_a_tensor_start_must_be_0_dimensional(torch, fn):
    ours = _error(core, fn, (core.tensor([0.0, 1.0]), 1, 3))
    assert ours == _error(torch, fn, (torch.tensor([0.0, 1.0]), 1, 3))


def test_accepted_argument_types_still_work(torch):
    for args in [(0, 1, np.int64(3)), (np.float32(0.5), 1, 3)]:
        assert core.linspace(*args).tolist() == torch.linspace(*args).tolist()
    assert core.linspace(core.tensor(0.0), 1, core.tensor(3)).tolist() == \
        torch.linspace(torch.tensor(0.0), 1, torch.tensor(3)).tolist()
    assert raised(lambda: core.linspace(0, 1, 3)) is None
