"""adaptive_max_pool3d, fractional_max_pool2d/3d and CrossMapLRN2d against PyTorch: outputs, indices, gradients,
the random windows (same seed, same draws), module printing and argument checks."""

import numpy as np
import pytest

import core


def _x(lib, shape, seed=0, dtype=np.float32):
    return lib.tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype), requires_grad=True)


def _pool_both(torch, fn):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        out, idx, x = fn(lib)
        (out * lib.arange(float(out.numel())).view(out.shape)).sum().backward()
        results.append((out.detach().numpy(), idx.numpy(), x.grad.numpy(), type(out.grad_fn).__name__))
    return results


@pytest.mark.parametrize("shape, size", [((2, 3, 5, 7, 6), (2, 3, 4)), ((3, 4, 5, 3), (3, None, 2)),
                                         ((1, 2, 3, 3, 3), 1)])
def test_adaptive_max_pool3d_matches_torch(shape, size, torch):
    def run(lib):
        x = _x(lib, shape)
        out, idx = lib.nn.functional.adaptive_max_pool3d(x, size, return_indices=True)
        return out, idx, x
    ours, theirs = _pool_both(torch, run)
    for a, b in zip(ours[:3], theirs[:3]):
        np.testing.assert_array_equal(a, b)
    assert ours[3] == theirs[3] == "AdaptiveMaxPool3DBackward0"


@pytest.mark.parametrize("nd, shape, kw", [(2, (2, 3, 9, 11), {"kernel_size": 3, "output_size": (4, 5)}),
                                           (2, (3, 10, 8), {"kernel_size": (2, 3), "output_ratio": (0.5, 0.5)}),
                                           (3, (2, 2, 7, 8, 9), {"kernel_size": 2, "output_size": (3, 4, 5)}),
                                           (3, (2, 6, 6, 5), {"kernel_size": 2, "output_ratio": 0.5})])
def test_fractional_max_pool_draws_torchs_windows(nd, shape, kw, torch):
    def run(lib):
        x = _x(lib, shape)
        pool = getattr(lib.nn, f"FractionalMaxPool{nd}d")(return_indices=True, **kw)
        out, idx = pool(x)
        return out, idx, x
    ours, theirs = _pool_both(torch, run)
    for a, b in zip(ours[:3], theirs[:3]):
        np.testing.assert_array_equal(a, b)


def test_fractional_max_pool_uses_given_samples_as_torch(torch):
    outs = []
    for lib in (core, torch):
        samples = lib.tensor([[[0.1, 0.9], [0.5, 0.3]]])
        outs.append(lib.nn.functional.fractional_max_pool2d(_x(lib, (1, 2, 8, 8)), 2, output_size=5,
                                                            _random_samples=samples).detach().numpy())
    np.testing.assert_array_equal(*outs)


@pytest.mark.parametrize("kw, message", [({}, "requires specifying either an output size, or a pooling ratio"),
                                         ({"output_size": 2, "output_ratio": 0.5}, "only one of output_size and"),
                                         ({"output_ratio": 1.5}, r"output_ratio must be between 0 and 1 \(got 1.5\)")])
def test_fractional_max_pool_refuses_bad_settings_as_torch(kw, message, torch):
    for lib in (core, torch):
        with pytest.raises(ValueError, match=message):
            lib.nn.FractionalMaxPool2d(2, **kw)


def test_pooling_modules_print_as_torch(torch):
    texts = [repr(lib.nn.AdaptiveMaxPool3d((2, None, 3))) + repr(lib.nn.FractionalMaxPool3d(2, output_ratio=0.5))
             + repr(lib.nn.CrossMapLRN2d(5)) for lib in (core, torch)]
    assert texts[0] == texts[1]


@pytest.mark.parametrize("channels, size", [(7, 5), (3, 5), (8, 3), (6, 4), (9, 7)])
def test_cross_map_lrn2d_output_and_legacy_gradient_match_torch(channels, size, torch):
    results = []
    for lib in (core, torch):
        x = _x(lib, (2, channels, 3, 4), seed=channels, dtype=np.float64)
        y = lib.nn.CrossMapLRN2d(size, alpha=0.5, beta=0.75, k=2)(x)
        (y * lib.arange(float(y.numel()), dtype=lib.float64).view(y.shape)).sum().backward()
        results.append((y.detach().numpy(), x.grad.numpy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-13)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-12)
