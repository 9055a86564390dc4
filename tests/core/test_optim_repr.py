"""print(optimizer) as PyTorch prints it, groups separated by a blank line (GPT scripts build a decay and a
no-decay group and print the optimizer)."""

from __future__ import annotations

import pytest

import core


def _groups(lib):
    decay, no_decay = lib.nn.Parameter(lib.ones(2, 2)), lib.nn.Parameter(lib.ones(2))
    return [{"params": [decay], "weight_decay": 0.1}, {"params": [no_decay], "weight_decay": 0.0}]


@pytest.mark.parametrize("make", [
    lambda lib, groups: lib.optim.AdamW(groups, lr=6e-4, betas=(0.9, 0.95)),
    lambda lib, groups: lib.optim.SGD(groups, lr=0.1, momentum=0.9),
    lambda lib, groups: lib.optim.Adam(groups[:1], lr=1e-3),
], ids=["adamw_two_groups", "sgd_two_groups", "adam_one_group"])
def test_optimizer_repr_is_torchs_for_one_or_several_groups(make, torch):
    assert repr(make(core, _groups(core))) == repr(make(torch, _groups(torch)))
