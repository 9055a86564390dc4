"""Constant padding as a fill and one copied run, and its gradient as PyTorch's slice (twenty-eighth session).

``F.pad(mode="constant")`` took the input along each padded dim and then a ``where`` for the fill; it is now the fill
and one copy of the source's run (the same values). Its backward multiplied the gradient by 0/1 matrices, so an inf
or NaN gradient in the padding made every gradient NaN and a -0 came out +0; PyTorch's ``constant_pad_nd`` backward
slices the gradient. Both directions compared with torch bit for bit: negative pads (crops), fill values, dtypes,
channels-last layouts, and gradients holding inf, NaN and -0 anywhere.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import core

_SPECIAL = [np.inf, -np.inf, np.nan, -0.0]


def _bits(t):
    a = np.ascontiguousarray(t.detach().numpy())
    return a.view(np.uint8), a.shape, a.dtype


@settings(max_examples=120, deadline=None)
@given(shape=st.lists(st.integers(1, 6), min_size=1, max_size=4), pads=st.lists(st.integers(-2, 3), min_size=2,
       max_size=8), value=st.sampled_from([0, 1.5, -2, float("inf")]), dtype=st.sampled_from(["float32", "float64"]),
       channels_last=st.booleans(), seed=st.integers(0, 2 ** 32 - 1),
       specials=st.lists(st.sampled_from(_SPECIAL), max_size=4))
def test_constant_pad_and_its_gradient_equal_torchs(torch, shape, pads, value, dtype, channels_last, seed, specials):
    pads = pads[: min(len(pads) // 2, len(shape)) * 2]
    sizes = list(shape)
    cropped = list(shape)
    for i in range(len(pads) // 2):
        sizes[-1 - i] += pads[2 * i] + pads[2 * i + 1]
        cropped[-1 - i] += min(pads[2 * i], 0) + min(pads[2 * i + 1], 0)
    if min(sizes) < 1 or min(cropped) < 1:
        return  # (torch refuses a padded size below 1, and a crop past the input: narrow())
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    g = rng.standard_normal(sizes)
    g.reshape(-1)[rng.integers(0, g.size, len(specials))] = specials
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, dtype=getattr(lib, dtype))
        if channels_last and len(shape) == 4:
            t = t.to(memory_format=lib.channels_last)
        t.requires_grad_(True)
        y = lib.nn.functional.pad(t, pads, value=value)
        y.backward(lib.tensor(g, dtype=getattr(lib, dtype)))
        results.append((_bits(y), y.stride(), _bits(t.grad)))
    (y, stride, grad), (ty, tstride, tgrad) = results
    assert y[1] == ty[1] and y[2] == ty[2] and np.array_equal(y[0], ty[0]) and stride == tstride
    assert grad[1] == tgrad[1] and np.array_equal(grad[0], tgrad[0])


def test_an_inf_gradient_in_the_padding_leaves_the_inputs_gradient_finite(torch):
    for lib in (core, torch):
        x = lib.zeros(2, 3, requires_grad=True)
        y = lib.nn.functional.pad(x, (1, 2, -1, 1))
        g = lib.ones(*y.shape)
        g[0, 0], g[0, 1], g[1, 1] = float("inf"), -0.0, float("nan")
        y.backward(g)
        assert x.grad.tolist() == [[0.0, 0.0, 0.0], [0.0, 1.0, 1.0]]
        assert str(x.grad[1, 0].item()) == "-0.0"


def test_a_crop_past_the_input_is_refused_as_torch_refuses_it(torch):
    """Negative pads crop by ``narrow``; one that crops more than the dim holds is narrow's error in both (core gave a
    tensor for ``pad(zeros(1), [2, -2])``), while a crop to exactly nothing is an empty result in both."""
    for shape, pads in [((1,), [2, -2]), ((1,), [-1, -1]), ((1,), [-2, 0]), ((2, 3), [0, 0, -3, 1]),
                        ((4,), [-3, -2]), ((1,), [0, -1]), ((3,), [-1, -2]), ((2, 2), [-1, -1, 1, 1])]:
        outcomes = []
        for lib in (core, torch):
            try:
                outcomes.append(tuple(lib.nn.functional.pad(lib.zeros(*shape), pads).shape))
            except RuntimeError as error:
                outcomes.append(str(error))
        assert outcomes[0] == outcomes[1], (shape, pads, outcomes)
