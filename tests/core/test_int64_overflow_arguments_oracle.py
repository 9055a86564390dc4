"""Python ints past what torch's argument parser unpacks are refused as PyTorch 2.13 refuses them (#19): a Scalar
from 2**64 up is "int too big to convert", below -2**63 "can't convert negative int to unsigned" (both
OverflowError; between 2**63 and 2**64 it is a uint64 Scalar, which an int64 kernel refuses with c10's overflow
error); an int argument past int64 is ValueError "Overflow when unpacking long long", and inside a size list the
TypeError "failed to unpack the object at pos N". torch's text goes on with its C++ trace: the first line is
compared, its closing quote aside."""

from __future__ import annotations

import pytest

import core

SNIPPETS = [
    'torch.full((2,), 2**70)',
    'torch.full((2,), -2**63-1)',
    'torch.full((2,), 2**64, dtype=torch.float32)',
    'torch.full((2,), 2**64, dtype=torch.long)',
    'torch.full((2,), 2**63)',
    'torch.ones(2).add(2**64)',
    'torch.ones(2, dtype=torch.long).add(2**64)',
    'torch.ones(2, dtype=torch.long).add(2**63)',
    'torch.ones(2) * 2**64',
    'torch.ones(2) * 2**100',
    'torch.ones(2).sub(2**64)',
    'torch.ones(3).div(2**64)',
    'torch.ones(3, dtype=torch.long) // 2**64',
    'torch.ones(3) == 2**64',
    'torch.ones(3, dtype=torch.long) < 2**64',
    'torch.ones(2).add(2**1100)',
    'torch.ones(2, dtype=torch.uint8).add(2**64)',
    'torch.ones(2).fill_(2**64)',
    'torch.ones(2, dtype=torch.long).fill_(2**64)',
    'torch.ones(3).clamp(2**64)',
    'torch.ones(3).masked_fill(torch.ones(3).bool(), 2**64)',
    'torch.ones(3).new_full((2,), 2**64)',
    'torch.scalar_tensor(2**64)',
    'torch.ones(3, dtype=torch.long).pow(2**64)',
    'torch.zeros(2**63)',
    'torch.zeros((2, 2**63))',
    'torch.empty(2**64)',
    'torch.zeros(3).new_zeros(2**63)',
    'torch.ones(2).view(2**63)',
    'torch.ones(2).view(1, 2**63)',
    'torch.ones(2).reshape(2**64)',
    'torch.arange(2**63)',
    'torch.arange(2**64)',
    'torch.arange(0, 2**63, 2**62)',
    'torch.arange(0, 2**64, 2**62)',
    'torch.randint(2**63, (2,))',
    'torch.randint(0, 2**63, (2,))',
    'torch.randint(-2**63-1, 0, (2,))',
    'torch.ones(3).sum(2**63)',
    'torch.ones(3).unsqueeze(2**64)',
    'torch.linspace(0, 1, 2**63)',
    'torch.eye(2**63)',
    'torch.tensor(2**63)',
    'torch.tensor(-2**63-1)',
    'torch.ones(3).expand(2, 2**63)',
    'torch.ones(3).expand((2**63, 3))',
    'torch.ones(3).repeat(1, 2**64)',
    'torch.ones(3).repeat([-2**63-1])',
    'torch.ones(3)[2**63]',
    'torch.ones(3)[2**64]',
    'torch.ones(2, 3)[0, -2**63-1]',
    'torch.ones(3, requires_grad=True)[2**63]',
]


def _outcome(lib, snippet: str):
    try:
        eval(snippet, {"torch": lib})  # (the test's own text)
    except Exception as e:  # (the refusal is what is compared)
        return type(e).__name__, str(e).split("\n")[0].rstrip('"')
    return "accepted"


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_an_int_past_int64_is_refused_as_torch(snippet, torch):
    assert _outcome(core, snippet) == _outcome(torch, snippet)
