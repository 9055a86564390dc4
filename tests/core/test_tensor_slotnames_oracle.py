"""Pickling a tensor leaves ``__slotnames__`` on its class in PyTorch (its ``__reduce_ex__`` asks
``object.__getstate__``), so a script that prints ``dir(x)`` after a ``torch.save``, a pickle or a ``copy.copy``
shows the name; core's classes carry it after the same calls, and not before (each case in a fresh process, since
the cached name stays for the process)."""

import subprocess
import sys

import pytest

pytest.importorskip("torch")

CASES = [
    "pickle.dumps(t)",
    "copy.copy(t)",
    "copy.deepcopy(t)",
    "torch.save(t, io.BytesIO())",
    "torch.save(torch.nn.Linear(2, 2).state_dict(), io.BytesIO())",
    "torch.save(torch.nn.Linear(2, 2), io.BytesIO())",
    "pickle.dumps(torch.nn.Parameter(t))",
    "copy.deepcopy(torch.nn.Parameter(t))",
    "copy.deepcopy(torch.nn.Linear(2, 2))",
]

PROGRAM = """
import copy, io, pickle, warnings
warnings.simplefilter("ignore")
import {lib} as torch
t = torch.tensor([1.0])
before = set(dir(t))
{case}
print(sorted(set(dir(torch.tensor(1.0))) - before), '__slotnames__' in torch.nn.Parameter.__dict__)
"""


def _run(lib: str, case: str) -> str:
    out = subprocess.run([sys.executable, "-c", PROGRAM.format(lib=lib, case=case)], capture_output=True,
                         text=True, check=True)
    return out.stdout


@pytest.mark.parametrize("case", CASES)
def test_dir_after_pickling_lists_what_torch_lists(case):
    assert _run("core", case) == _run("torch", case)
