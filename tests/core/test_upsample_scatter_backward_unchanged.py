"""``_bilinear_kernel.scatter_backward`` after the twenty-eighth session's cut gives the bits of the loop it replaced.

The reference is ``scatter_backward`` as it stood before (commit 5a65a8d4), kept verbatim: every rank of
contributions ran over the whole (planes, inputs) array, gathered along its columns, with a ``where`` for the inputs
that rank does not have (up to 25 ranks for scale 2, the last ones holding a single border input); now the planes lie
along the rows, a rank gathers whole rows and a partial rank touches only its own inputs. Both run on the same
gradients, bit for bit, on any CPU (whether they are torch's bits is ``tests/core/nn/test_upsampling.py``'s question).
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.nn.functional import _bilinear_kernel
from core.nn.functional._bilinear_kernel import _contributions
from core.nn.functional.upsampling import _axis_taps


def _fma(a, b, c):  # (the module's before the twenty-eighth session)
    return (np.asarray(a, np.float64) * b + c).astype(np.float32)


def _old_scatter_backward(g, taps):
    lead = g.shape[:2]
    sizes = tuple(int(t[2]) for t in taps)
    src, wt, mask = _contributions(taps)
    flat = g.reshape(lead[0] * lead[1], -1)
    acc = np.zeros((flat.shape[0], int(np.prod(sizes))), g.dtype)
    for r in range(src.shape[0]):
        step = flat[:, src[r]] + acc if wt is None else _fma(wt[r], flat[:, src[r]], acc)
        acc = np.where(mask[r], step, acc)
    return acc.reshape(*lead, *sizes)


_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3.4e38, -3.4e38, 1e-38]


@settings(max_examples=150, deadline=None)
@given(mode=st.sampled_from(["bilinear", "nearest", "nearest-exact"]), dims=st.integers(1, 3),
       n=st.integers(1, 3), c=st.integers(1, 5), sizes=st.lists(st.integers(1, 9), min_size=3, max_size=3),
       scale=st.sampled_from([None, 2.0, 0.5, 2.5, 3.0, 1.7]), align_corners=st.booleans(),
       float64=st.booleans(), seed=st.integers(0, 2 ** 32 - 1),
       specials=st.lists(st.sampled_from(_SPECIAL), max_size=4))
def test_scatter_backward_gives_the_old_loops_bits(mode, dims, n, c, sizes, scale, align_corners, float64, seed,
                                                  specials):
    if mode == "bilinear":
        dims, float64 = 2, False  # (core takes this kernel for float32 bilinear only)
    rng = np.random.default_rng(seed)
    ins = sizes[:dims]
    outs = [max(1, int(s * scale)) if scale else int(rng.integers(1, 12)) for s in ins]
    dtype = np.float64 if float64 else np.float32
    taps = tuple(_axis_taps(mode, i, o, o / i if scale else None, align_corners if mode == "bilinear" else None,
                            np.dtype(np.float32), np) for i, o in zip(ins, outs))
    g = rng.standard_normal((n, c, *outs)).astype(dtype)
    flat = g.reshape(-1)
    flat[rng.integers(0, flat.size, len(specials))] = specials
    with np.errstate(all="ignore"):
        old, new = _old_scatter_backward(g, taps), _bilinear_kernel.scatter_backward(g, taps)
    assert old.dtype == new.dtype and old.shape == new.shape
    assert np.array_equal(old.view(np.uint8), new.view(np.uint8))
