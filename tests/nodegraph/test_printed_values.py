"""The app writes a tensor's numbers as PyTorch prints them (numtext.printed): ``[2., 3.]`` beside the chapter's
``print(w.grad)  # tensor([2., 3.])``, for the tensors a session holds and for the ledger's NumPy copies."""

import numpy as np
import pytest

import core
from core.nodegraph.model.numtext import printed

torch = pytest.importorskip("torch", reason="the oracle compares with PyTorch's print")

CASES = [
    "lib.tensor([2.0, 3.0])", "lib.tensor([1.5, -0.5])", "lib.tensor(1.6)", "lib.tensor(1.0)", "lib.tensor([1, 2])",
    "lib.tensor([True, False])", "lib.tensor([[1.0, 2.5], [3.0, -4.0]])", "lib.tensor([1e-5, 1.0, 3e8])",
    "lib.tensor(float('nan'))", "lib.tensor([float('inf'), -1.0])", "lib.tensor([2.0, 3.0], dtype=lib.float64)",
    "lib.tensor([1.5, 2.0], dtype=lib.float16)", "lib.tensor([1.5, 2.0], dtype=lib.bfloat16)",
    "lib.tensor(1 + 2j)", "lib.tensor([])", "lib.zeros(0, 3)", "lib.ones(2, 2, 2)",
    "lib.tensor([2.0, 3.0], requires_grad=True) * lib.tensor([1.5, -0.5])", "lib.empty(2, device='meta')",
]


@pytest.mark.parametrize("code", CASES)
def test_a_tensor_is_written_as_pytorch_prints_it_without_the_tensor_wrapper(code):
    shown = printed(eval(code, {"lib": core}))
    expected = str(eval(code, {"lib": torch}))
    prefix = "tensor(" + "\n".join(" " * 7 + line if i and line else line for i, line in enumerate(shown.split("\n")))
    assert expected.startswith(prefix)
    assert expected[len(prefix)] in ",)"  # nothing of the numbers left out; only suffixes (dtype=, grad_fn=) follow


@pytest.mark.parametrize("code", ["lib.tensor([2.0, 3.0])", "lib.tensor(0.1)", "lib.tensor([[1, 2], [3, 4]])",
                                  "lib.tensor([1.5, 2.0], dtype=lib.float16)"])
def test_the_ledgers_numpy_copy_reads_as_its_tensor(code):
    t = eval(code, {"lib": core})
    assert printed(np.array(t.tolist(), dtype=str(t.dtype).split(".")[-1])) == printed(t)
