"""A tensor made from a list holding NumPy arrays warns as PyTorch 2.13 does (TORCH_WARN_ONCE in its
``recursive_store``): "Creating a tensor from a list of numpy.ndarrays is extremely slow..." once per process, every
time under ``set_warn_always(True)``; an ndarray itself, or a list of NumPy scalars, does not warn. CS224n's parser
model builds ``torch.Tensor([... .numpy() for b in batch])``."""

import warnings

import numpy as np
import pytest

import core

CASES = {
    "tensor of a list of arrays": lambda lib: lib.tensor([np.zeros(3), np.ones(3)]),
    "Tensor of a list of arrays": lambda lib: lib.Tensor([np.zeros(3), np.ones(3)]),
    "as_tensor of a list of arrays": lambda lib: lib.as_tensor([np.zeros(3), np.ones(3)]),
    "a 0-d array deep in lists": lambda lib: lib.tensor([[np.float64(1.0)], [np.array(2.0)]]),
    "an array": lambda lib: lib.tensor(np.zeros(3)),
    "NumPy scalars": lambda lib: lib.tensor([1.0, np.float32(2)]),
}


def _messages(lib, make):
    before = lib.is_warn_always_enabled()
    lib.set_warn_always(True)  # (both warn once per process otherwise: whichever test came first took it)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            make(lib)
    finally:
        lib.set_warn_always(before)
    return [str(w.message).split(" (Triggered internally")[0] for w in caught if "numpy.ndarrays" in str(w.message)]


@pytest.mark.parametrize("name", list(CASES))
def test_a_list_of_numpy_arrays_warns_as_torch_does(torch, name):
    assert _messages(core, CASES[name]) == _messages(torch, CASES[name])
