"""What PyTorch says when a layer or function gets something that is not a tensor (a NumPy array, a list, the builtin
``input``): the same TypeError and message in core, the type named as PyTorch's argument parser names it."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import raised


class Foo:
    pass


ROW, IMAGE = np.ones((1, 3), np.float32), np.ones((1, 1, 4, 4), np.float32)

CALLS = {
    "linear_module_numpy": lambda lib: lib.nn.Linear(3, 2)(ROW),
    "linear_weight": lambda lib: lib.nn.functional.linear(lib.ones(2), np.ones(2)),
    "linear_bias": lambda lib: lib.nn.functional.linear(lib.ones(2), lib.ones(2, 2), [1.0]),
    "conv2d_module": lambda lib: lib.nn.Conv2d(1, 1, 3)(IMAGE),
    "conv2d_module_no_bias": lambda lib: lib.nn.Conv2d(1, 1, 3, bias=False)(IMAGE),
    "conv2d_module_same_padding": lambda lib: lib.nn.Conv2d(1, 1, 3, padding="same")(IMAGE),
    "conv2d_module_builtin_input": lambda lib: lib.nn.Conv2d(1, 1, 3)(input),
    "conv1d_module": lambda lib: lib.nn.Conv1d(1, 1, 3)(IMAGE[0]),
    "conv3d_module": lambda lib: lib.nn.Conv3d(1, 1, 1)(IMAGE[None]),
    "conv2d_weight": lambda lib: lib.nn.functional.conv2d(lib.ones(1, 1, 4, 4), IMAGE),
    "conv2d_stride": lambda lib: lib.nn.functional.conv2d(IMAGE, lib.ones(1, 1, 3, 3), None, 2),
    "relu_module": lambda lib: lib.nn.ReLU()(ROW),
    "sigmoid_object": lambda lib: lib.sigmoid(Foo()),
    "tanh_numpy_scalar": lambda lib: lib.tanh(np.float64(1)),
    "embedding_indices": lambda lib: lib.nn.Embedding(3, 2)([1, 2]),
    "embedding_weight": lambda lib: lib.nn.functional.embedding(lib.tensor([1]), [1.0]),
    "cross_entropy_target": lambda lib: lib.nn.CrossEntropyLoss()(lib.zeros(2, 3), [1, 2]),
    "cross_entropy_input": lambda lib: lib.nn.functional.cross_entropy([1.0], lib.tensor([1])),
    "cross_entropy_bad_reduction_first": lambda lib: lib.nn.functional.cross_entropy([1.0], [1], reduction="bad"),
    "nll_loss_input": lambda lib: lib.nn.functional.nll_loss(ROW, lib.tensor([1])),
    "max_pool2d_module": lambda lib: lib.nn.MaxPool2d(2)(np.ones((1, 1, 4, 4))),
    "max_pool2d_indices": lambda lib: lib.nn.functional.max_pool2d([1.0], 2, return_indices=True),
    "avg_pool2d": lambda lib: lib.nn.functional.avg_pool2d(IMAGE, 2),
    "max_pool1d": lambda lib: lib.nn.functional.max_pool1d([1.0], 2),
    "avg_pool1d": lambda lib: lib.nn.functional.avg_pool1d(ROW, 2),
    "dropout_module": lambda lib: lib.nn.Dropout()(ROW),
}



@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_non_tensor_argument_raises_torchs_typeraised(torch, name):
    ours, theirs = raised(lambda: CALLS[name](core)), raised(lambda: CALLS[name](torch))
    assert theirs is not None
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda lib: lib.randn(1, 2, 2, 3, names=("N", "C", "H", "W")),  # named tensors are gone from torch 2.13
    lambda lib: lib.rand(1, 2, names=("N", "C")),
    lambda lib: lib.randn((2, 3), names=None),
    lambda lib: lib.randn(foo=1),
    lambda lib: lib.rand(size=(2,), foo=1),
    lambda lib: lib.randn(2, dtype=lib.float32, foo=1),
    lambda lib: lib.randn(2, 3, a=1, b=2, c=3),
])
def test_rand_and_randn_refuse_an_unknown_keyword_with_torchs_message(torch, call):
    ours, theirs = raised(lambda: call(core)), raised(lambda: call(torch))
    assert theirs is not None
    assert ours == theirs
