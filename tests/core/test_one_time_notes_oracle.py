"""The one-time notes torch prints about sparse compressed and quantized tensors, mirrored by core: same text,
once per process, pointing at the user's line."""

import json
import re
import subprocess
import sys
import warnings

import pytest

import core
from core import _warn_once

STEPS = [
    "lib.quantize_per_tensor(lib.ones(2), 0.1, 0, lib.qint8)",
    "lib.quantize_per_channel(lib.ones(2, 2), lib.tensor([0.1, 0.2]), lib.tensor([0, 1]), 0, lib.quint8)",
    "lib.ones(2, 2).to_sparse_bsc(1)",
    "lib.eye(2).to_sparse_csr()",
    "lib.sparse_csr_tensor([0, 1], [0], [1.0], (1, 1))",
    "lib.sparse_csr_tensor([0, 1], [0], [1.0], (1, 1), check_invariants=False)",
]


def _torch_messages():
    code = ("import json, warnings, torch as lib\nout = []\nfor step in json.loads(input()):\n"
            "    with warnings.catch_warnings(record=True) as seen:\n        warnings.simplefilter('always')\n"
            "        eval(step)\n    out.append([str(w.message) for w in seen])\nprint(json.dumps(out))")
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(STEPS), capture_output=True, text=True,
                          timeout=300, check=True)
    triggered = re.compile(r" \(Triggered internally at [^)]*\)$")  # torch's C++ source line, not core's to copy
    return [[triggered.sub("", m) for m in step] for step in json.loads(done.stdout.strip().splitlines()[-1])]


@pytest.fixture
def fresh_notes(monkeypatch):
    """A process that has warned nothing yet and where nobody chose the invariant checks."""
    from core import _sparse_compressed_checks as checks

    monkeypatch.setattr(_warn_once, "_warned", set())
    monkeypatch.setattr(checks, "_checks", {"enabled": False, "explicit": False})


def test_notes_say_what_torchs_say_once_per_process_at_the_users_line(torch, fresh_notes):
    ours, lines = [], []
    for step in STEPS:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            eval(compile(step, __file__, "eval"), {"lib": core})  # (the user's line: this file)
        ours.append([str(w.message) for w in seen])
        lines += [w.filename for w in seen]
    assert ours == _torch_messages()
    assert set(lines) == {__file__}


def test_an_explicit_invariant_choice_silences_the_implicit_note(fresh_notes):
    core.sparse.check_sparse_tensor_invariants.disable()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        core.sparse_csr_tensor([0, 1], [0], [1.0], (1, 1))
    assert [str(w.message) for w in seen if "implicitly" in str(w.message)] == []
