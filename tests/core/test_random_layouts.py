"""Random ops on transposed and expanded inputs draw in PyTorch's order and lay their results out as PyTorch does.

A sampler fills its output in memory order, so the output's strides decide which element gets which draw:
``bernoulli(p)`` and ``gumbel_softmax``'s noise are row-major whatever the input (PyTorch's legacy contiguous
format), dropout's mask and the ``*_like`` factories take ``empty_like``'s strides (the input's when dense, else
dense in its dim order: an expanded input's mask is row-major).
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy

CASES = {
    "bernoulli of a transposed p": lambda T: T.bernoulli(T.full((3, 4), 0.5).t()),
    "bernoulli of an expanded p": lambda T: T.bernoulli(T.tensor([0.3, 0.9]).expand(5, 2)),
    "bernoulli with p of a transposed input": lambda T: T.bernoulli(T.zeros(3, 4).t(), 0.3),
    "Bernoulli distribution's sample": lambda T: T.distributions.Bernoulli(T.tensor([0.3, 0.9])).sample((5,)),
    "normal of transposed means and stds": lambda T: T.normal(T.rand(3, 4).t(), T.ones(3, 4).t()),
    "normal of expanded means": lambda T: T.normal(T.tensor([0.3, 0.9]).expand(5, 2), 1.0),
    "poisson of transposed rates": lambda T: T.poisson(T.rand(3, 4).t() * 5),
    "rand_like a transposed tensor": lambda T: T.rand_like(T.zeros(3, 4).t()),
    "randn_like an expanded tensor": lambda T: T.randn_like(T.zeros(2).expand(5, 2)),
    "multinomial of transposed weights": lambda T: T.multinomial(T.rand(4, 3).t() + 0.1, 5, True),
    "dropout of a transposed input": lambda T: T.nn.functional.dropout(T.ones(4, 5).t(), 0.5),
    "dropout of an expanded input": lambda T: T.nn.functional.dropout(T.ones(5).expand(3, 5), 0.5),
    "dropout of an expanded, permuted input":
        lambda T: T.nn.functional.dropout(T.ones(3, 1, 5).expand(3, 4, 5).transpose(0, 2), 0.5),
    "dropout2d of a transposed input": lambda T: T.nn.functional.dropout2d(T.ones(2, 3, 4, 4).transpose(2, 3), 0.5),
    "gumbel_softmax of transposed logits": lambda T: T.nn.functional.gumbel_softmax(T.rand(4, 3).t(), tau=0.5),
}


@pytest.mark.parametrize("name", list(CASES))
def test_sampler_on_a_strided_input_matches_torch(torch, name):
    torch.manual_seed(0)
    theirs = CASES[name](torch)
    core.manual_seed(0)
    ours = CASES[name](core)
    assert ours.stride() == theirs.stride()
    assert np.array_equal(to_numpy(ours), to_numpy(theirs))
