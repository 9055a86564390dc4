"""``torch._utils._flatten_dense_tensors`` / ``_unflatten_dense_tensors``: the flat buffers guided-diffusion's
float16 training keeps its float32 master weights in (``fp16_util.make_master_params``), with PyTorch's values,
views, node names and gradients."""

import numpy as np

import core
from tests.core.oracle import assert_same, check_grads

RNG = np.random.default_rng(0)
A = RNG.standard_normal((2, 3)).astype(np.float32)
B = RNG.standard_normal((4,)).astype(np.float32)
C = RNG.standard_normal((3, 2)).astype(np.float32)


def test_flatten_lays_tensors_out_one_after_another(torch):
    def flat(lib, a, b, c):
        return lib._utils._flatten_dense_tensors([a, b, c.t()]) * lib.arange(16.0)  # a transposed one too
    check_grads(flat, [A, B, C], torch)


def test_unflatten_gives_views_of_the_buffer_in_the_tensors_shapes(torch):
    results = []
    for lib in (core, torch):
        from importlib import import_module

        utils = import_module(f"{lib.__name__}._utils")
        a, b = lib.tensor(A), lib.tensor(B)
        flat = utils._flatten_dense_tensors([a, b]).requires_grad_()
        parts = utils._unflatten_dense_tensors(flat, [a, b])
        (parts[0].sum() * 2 + parts[1].square().sum()).backward()
        results.append((parts, flat.grad, type(parts).__name__, [p.grad_fn.name() for p in parts],
                        parts[1]._base is flat))
    assert_same(results[0], results[1])


def test_a_single_tensor_flattens_to_its_own_view(torch):
    names = []
    for lib in (core, torch):
        a = lib.tensor(A, requires_grad=True)
        flat = lib._utils._flatten_dense_tensors([a])
        names.append((flat.grad_fn.name(), tuple(flat.shape), lib._utils._unflatten_dense_tensors(flat, [a])[0].shape))
    assert names[0] == (names[1][0], names[1][1], tuple(names[1][2]))
