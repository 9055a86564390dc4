"""The 3-D lazy layers and lazy instance norms against PyTorch: repr before and after the first call, the
parameters they draw (same seed, same numbers), the eager class they become, and their outputs."""

import numpy as np
import pytest

import core

CASES = [("LazyConv3d", (4, 2), {"padding": 1}, (2, 3, 4, 5, 5)),
         ("LazyConvTranspose3d", (2, 3), {"stride": 2}, (1, 3, 3, 4, 2)),
         ("LazyBatchNorm3d", (), {}, (2, 3, 2, 3, 2)),
         ("LazyInstanceNorm1d", (), {}, (2, 3, 5)),
         ("LazyInstanceNorm2d", (), {"affine": False}, (2, 3, 4, 5)),
         ("LazyInstanceNorm3d", (), {"track_running_stats": False}, (2, 3, 2, 3, 4))]


@pytest.mark.parametrize("name, args, kw, shape", CASES, ids=[c[0] for c in CASES])
def test_lazy_layer_materialises_and_becomes_its_eager_class_as_torch(name, args, kw, shape, torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        layer = getattr(lib.nn, name)(*args, **kw)
        before = repr(layer)
        x = lib.tensor(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
        out = layer(x)
        results.append((before, repr(layer), type(layer).__name__, out.detach().numpy(),
                        {k: v.detach().numpy() for k, v in layer.state_dict().items()}))
    ours, theirs = results
    assert ours[:3] == theirs[:3]
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-5, atol=1e-5)
    assert list(ours[4]) == list(theirs[4])
    for key in ours[4]:
        np.testing.assert_allclose(ours[4][key], theirs[4][key], rtol=1e-6, atol=1e-7)
