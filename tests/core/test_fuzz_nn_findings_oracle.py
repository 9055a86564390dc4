"""Oracle tests of what the autograd/nn differential fuzzer (test_differential_fuzz_nn.py) found: each program runs
in core and in torch, and the result, the exception's type and text, and the warnings are compared."""

from __future__ import annotations

import warnings

import pytest

import core
from tests.core.differential import same_result


def _outcome(lib, code: str):
    """``out`` after running ``code`` with ``torch``/``nn`` bound to ``lib``, or the exception; and the warnings."""
    scope = {"torch": lib, "nn": lib.nn}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, scope)  # (this file's own test programs)
            error = None
        except Exception as exc:  # compared with torch's
            error = exc
    said = [f"{w.category.__name__}: {str(w.message).split(' (Triggered internally')[0]}" for w in caught]
    return scope.get("out"), error, said


def same_outcome(torch, code: str) -> None:
    theirs, their_error, their_warnings = _outcome(torch, code)
    ours, our_error, our_warnings = _outcome(core, code)
    assert our_warnings == their_warnings
    if their_error is not None:
        assert type(our_error).__name__ == type(their_error).__name__, f"core: {our_error!r}, torch: {their_error!r}"
        assert str(our_error) == str(their_error).split("\nException raised from ")[0]
        return
    assert our_error is None, f"core raised {our_error!r}"
    same_result(ours, theirs)


@pytest.mark.parametrize("code", [
    # a version-2 state dict (what state_dict() makes) without num_batches_tracked: reported missing
    "m = nn.Sequential(nn.BatchNorm1d(3)); sd = m.state_dict(); sd.popitem(); out = m.load_state_dict(sd)",
    "m = nn.Sequential(nn.BatchNorm1d(3)); sd = m.state_dict(); sd.popitem(); out = m.load_state_dict(sd, assign=True)",
    "m = nn.BatchNorm1d(3); sd = m.state_dict(); sd.popitem(); out = repr(m.load_state_dict(sd, strict=False))",
    # an old one (no metadata, or version 1) keeps the module's own count
    "m = nn.BatchNorm1d(3); m.num_batches_tracked.fill_(4); sd = dict(m.state_dict()); sd.popitem(); "
    "out = repr(m.load_state_dict(sd)), m.num_batches_tracked",
    "m = nn.BatchNorm1d(3); m.num_batches_tracked.fill_(4); sd = m.state_dict(); sd._metadata['']['version'] = 1; "
    "sd.popitem(); out = repr(m.load_state_dict(sd)), m.num_batches_tracked",
    "out = dict(nn.Sequential(nn.BatchNorm1d(3), nn.Linear(3, 3)).state_dict()._metadata)",
])
def test_batch_norm_state_dict_versions(torch, code):
    same_outcome(torch, code)


@pytest.mark.parametrize("hook", ["lambda p: p.grad.mul_(10)", "lambda p: None", "lambda p: 0",
                                  "lambda p: seen.append(p.grad.clone())"])
def test_post_accumulate_grad_hooks_must_return_none(torch, hook):
    same_outcome(torch, f"seen = []; a = torch.ones(2, requires_grad=True); "
                        f"a.register_post_accumulate_grad_hook({hook}); a.sum().backward(); out = a.grad, seen")
