"""``torch.neg``/``negative``, ``cumsum`` and ``mean`` take ``out=`` as PyTorch 2.13's do: the result is written
into ``out`` (resized when its shape differs) and ``out`` itself is returned."""

import pytest

import core
from tests.core.oracle import assert_same

CALLS = {
    "neg": lambda lib, x, o: lib.neg(x, out=o),
    "negative": lambda lib, x, o: lib.negative(x, out=o),
    "cumsum": lambda lib, x, o: lib.cumsum(x, 1, out=o),
    "mean over all": lambda lib, x, o: lib.mean(x, out=o),
    "mean over a dim": lambda lib, x, o: lib.mean(x, 0, out=o),
    "mean keepdim": lambda lib, x, o: lib.mean(x, 1, True, out=o),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_out_receives_the_result_and_is_returned(torch, name):
    def fn(lib):
        x = lib.arange(6.0).view(2, 3) - 2
        o = lib.empty(0)
        r = CALLS[name](lib, x, o)
        return r is o, o

    ours, theirs = fn(core), fn(torch)
    assert ours[0] and theirs[0]
    assert_same(ours[1], theirs[1])
