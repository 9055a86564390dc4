"""Reflect and replicate padding's input gradient is PyTorch's bit for bit (twenty-eighth session).

ATen's ``cpu_padding_backward`` adds each plane's output gradients into the input gradient in raster order, from
zeros; core multiplied the gradient by 0/1 matrices (a BLAS product: another order where an input takes three or
more gradients, and an inf or NaN anywhere in a row spread NaN over it). It now adds them as ATen does, through
the nearest-upsampling kernel's ``scatter_backward``. Compared with torch: 1-3 padded dims, float32 and float64,
channels-last images, large gradients and an inf. (Circular padding is a composite in PyTorch, not this loop.)
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import core


@settings(max_examples=80, deadline=None)
@given(mode=st.sampled_from(["reflect", "replicate"]), k=st.integers(1, 3), batch=st.booleans(),
       sizes=st.lists(st.integers(2, 7), min_size=5, max_size=5), dtype=st.sampled_from(["float32", "float64"]),
       seed=st.integers(0, 2 ** 32 - 1), channels_last=st.booleans(), inf=st.booleans())
def test_reflect_and_replicate_gradients_equal_torchs(torch, one_thread, mode, k, batch, sizes, dtype, seed,
                                                      channels_last, inf):
    rng = np.random.default_rng(seed)
    shape = sizes[: k + 1 + batch]
    pads = []
    for n in reversed(shape[-k:]):
        top = n - 1 if mode == "reflect" else n + 3
        pads += [int(rng.integers(0, top + 1)), int(rng.integers(0, top + 1))]
    x = rng.standard_normal(shape)
    grads = []
    g = None
    for lib in (core, torch):
        t = lib.tensor(x, dtype=getattr(lib, dtype))
        if channels_last and t.dim() == 4:
            t = t.to(memory_format=lib.channels_last)
        t.requires_grad_(True)
        y = lib.nn.functional.pad(t, pads, mode=mode)
        if g is None:
            g = rng.standard_normal(tuple(y.shape)) * 100
            if inf:
                g.reshape(-1)[rng.integers(0, g.size)] = np.inf
        y.backward(lib.tensor(g, dtype=getattr(lib, dtype)))
        grads.append(np.ascontiguousarray(t.grad.numpy()))
    assert np.array_equal(grads[0].view(np.uint8), grads[1].view(np.uint8))
