"""What DeepXDE (``recipes_deepxde.py``) imports and is not installed here: SciPy, scikit-learn and scikit-optimize
(our text, NumPy only). Each gives the few names DeepXDE's PyTorch side calls in the recipes' examples; any other
name raises ``NotImplementedError`` naming itself, so a script that needs more fails loudly in both runs.

- ``skopt.sampler``: the Hammersley and Halton sequences DeepXDE's geometries sample collocation points with (its
  default ``train_distribution``): the van der Corput radical inverses in the first primes, skipping as skopt's
  ``min_skip``/``max_skip`` say, the Hammersley sequence's last coordinate ``linspace(0, 1, n + 1)[:-1]``.
- ``scipy.interpolate.interp1d`` (linear, or a not-a-knot cubic spline through the points) and
  ``sklearn.gaussian_process.kernels``' ``RBF`` and ``ExpSineSquared``: ``dde.data.GRF``'s Gaussian random fields,
  the PI-DeepONet examples' input functions.
- ``scipy.spatial.distance.pdist``/``squareform`` (euclidean, chebyshev): ``Polygon``'s diagonals.
- ``sklearn.preprocessing.normalize``/``StandardScaler`` and ``sklearn.metrics.mean_squared_error``.

Stand-ins of ours: the sampled points are what these algorithms give, not necessarily those libraries' last bits.
Both runs (core and torch) get the same ones, which is all the comparison needs.
"""

from __future__ import annotations

import numpy as np
from fake_stand_ins import module


def _refuse(module):
    def missing(name):
        if name.startswith("__"):
            raise AttributeError(name)
        def refused(*args, **kwargs):
            raise NotImplementedError(f"{module}.{name} is not in fake_deepxde_deps")
        return refused
    return missing


def _module(name, **attributes):
    """A package whose names it lacks refuse when called (``_refuse``)."""
    return module(name, package=True, __path__=[], **attributes, __getattr__=_refuse(name))


def _primes(count):
    primes, candidate = [], 2
    while len(primes) < count:
        if all(candidate % p for p in primes):
            primes.append(candidate)
        candidate += 1
    return primes


def _van_der_corput(indices, base):
    """The radical inverse of ``indices + 1`` in ``base`` (skopt's ``_van_der_corput_samples``)."""
    idx = np.asarray(indices).flatten() + 1
    out = np.zeros(len(idx), dtype=float)
    exponent, todo = 1, np.ones(len(idx), dtype=bool)
    while np.any(todo):
        out[todo] += (idx[todo] % base) / (base ** exponent)
        idx = idx // base
        exponent += 1
        todo = idx > 0
    return out


def _bounds(dimensions):
    for low, high in dimensions:
        if not (isinstance(low, float) and isinstance(high, float)):
            raise NotImplementedError("fake_deepxde_deps samples float bounds only")
    return np.array(dimensions, dtype=float)


class Halton:
    """skopt.sampler.Halton: the points ``skip + 0, 1, ...`` of the Halton sequence in the first primes."""

    def __init__(self, min_skip=-1, max_skip=-1, primes=None):
        if primes is not None:
            raise NotImplementedError("fake_deepxde_deps' Halton takes no primes")
        self.min_skip, self.max_skip = min_skip, max_skip

    def _skip(self, primes):
        if self.min_skip == self.max_skip:
            return self.min_skip
        if self.min_skip < 0 and self.max_skip < 0:
            return max(primes)
        raise NotImplementedError("fake_deepxde_deps' Halton draws no random skip")

    def generate(self, dimensions, n_samples, random_state=None):
        bounds = _bounds(dimensions)
        primes = _primes(len(bounds))
        indices = [i + self._skip(primes) for i in range(n_samples)]
        unit = np.stack([_van_der_corput(indices, p) for p in primes], axis=1)
        return (bounds[:, 0] + unit * (bounds[:, 1] - bounds[:, 0])).tolist()


class Hammersly(Halton):
    """skopt.sampler.Hammersly: Halton's first ``d - 1`` coordinates, the last one ``i / n``."""

    def __init__(self, min_skip=0, max_skip=0, primes=None):
        super().__init__(min_skip, max_skip, primes)

    def generate(self, dimensions, n_samples, random_state=None):
        bounds = _bounds(dimensions)
        if len(bounds) == 1:
            return super().generate(dimensions, n_samples)
        unit = np.empty((n_samples, len(bounds)))
        unit[:, :-1] = super().generate([(0.0, 1.0)] * (len(bounds) - 1), n_samples)
        unit[:, -1] = np.linspace(0, 1, n_samples + 1)[:-1]
        return (bounds[:, 0] + unit * (bounds[:, 1] - bounds[:, 0])).tolist()


def _not_a_knot(x, y):
    """The second derivatives of the not-a-knot cubic spline through ``(x, y[..., i])`` (a dense solve)."""
    n, h = len(x), np.diff(x)
    a, rhs = np.zeros((n, n)), np.zeros((n, *y.shape[1:]))
    a[0, :3] = [h[1], -(h[0] + h[1]), h[0]]
    a[-1, -3:] = [h[-1], -(h[-2] + h[-1]), h[-2]]
    for i in range(1, n - 1):
        a[i, i - 1:i + 2] = [h[i - 1], 2 * (h[i - 1] + h[i]), h[i]]
        rhs[i] = 6 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1])
    return np.linalg.solve(a, rhs)


class interp1d:
    """scipy.interpolate.interp1d along axis 0 (``kind`` "linear" or "cubic"), no extrapolation."""

    def __init__(self, x, y, kind="linear", copy=True, assume_sorted=False, **kwargs):
        if kwargs or kind not in ("linear", "cubic"):
            raise NotImplementedError(f"fake_deepxde_deps' interp1d: kind {kind!r}, {sorted(kwargs)}")
        self.x, self.y, self.kind = np.asarray(x, dtype=float), np.asarray(y, dtype=float), kind
        self.m = _not_a_knot(self.x, self.y) if kind == "cubic" and len(self.x) > 3 else None

    def __call__(self, xs):
        shape_out = np.shape(xs) + self.y.shape[1:]
        xs = np.ravel(np.asarray(xs, dtype=float))
        if np.any(xs < self.x[0]) or np.any(xs > self.x[-1]):
            raise ValueError("A value in x_new is outside the interpolation range.")
        i = np.clip(np.searchsorted(self.x, xs, side="right") - 1, 0, len(self.x) - 2)
        h, t0, t1 = self.x[i + 1] - self.x[i], xs - self.x[i], self.x[i + 1] - xs
        shape = (-1,) + (1,) * (self.y.ndim - 1)
        h, t0, t1 = h.reshape(shape), t0.reshape(shape), t1.reshape(shape)
        linear = (self.y[i] * t1 + self.y[i + 1] * t0) / h
        if self.m is None:
            return linear.reshape(shape_out)
        curve = (self.m[i] * (t1 ** 3 / h - h * t1) + self.m[i + 1] * (t0 ** 3 / h - h * t0)) / 6
        return (linear + curve).reshape(shape_out)


class RBF:
    """sklearn.gaussian_process.kernels.RBF(length_scale)(X): exp(-|x - x'|^2 / (2 l^2))."""

    def __init__(self, length_scale=1.0):
        self.length_scale = length_scale

    def __call__(self, X, Y=None):
        X = np.asarray(X, dtype=float) / self.length_scale
        Y = X if Y is None else np.asarray(Y, dtype=float) / self.length_scale
        return np.exp(-0.5 * np.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=-1))


class ExpSineSquared:
    """sklearn.gaussian_process.kernels.ExpSineSquared(length_scale, periodicity)(X): exp(-2 sin^2(pi d / p) / l^2)."""

    def __init__(self, length_scale=1.0, periodicity=1.0):
        self.length_scale, self.periodicity = length_scale, periodicity

    def __call__(self, X):
        X = np.asarray(X, dtype=float)
        d = np.sqrt(np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1))
        return np.exp(-2 * (np.sin(np.pi * d / self.periodicity) / self.length_scale) ** 2)


def pdist(X, metric="euclidean"):
    """scipy.spatial.distance.pdist for the euclidean and chebyshev metrics (the condensed upper triangle)."""
    X = np.asarray(X, dtype=float)
    diff = np.abs(X[:, None, :] - X[None, :, :])
    if metric == "euclidean":
        full = np.sqrt(np.sum(diff ** 2, axis=-1))
    elif metric == "chebyshev":
        full = np.max(diff, axis=-1)
    else:
        raise NotImplementedError(f"fake_deepxde_deps' pdist: metric {metric!r}")
    return full[np.triu_indices(len(X), 1)]


def squareform(condensed):
    """scipy.spatial.distance.squareform of a condensed distance vector."""
    n = int(round((1 + np.sqrt(1 + 8 * len(condensed))) / 2))
    full = np.zeros((n, n))
    full[np.triu_indices(n, 1)] = condensed
    return full + full.T


def normalize(X, norm="l2", axis=1):
    """sklearn.preprocessing.normalize: rows scaled to unit l2 norm (zero rows kept)."""
    if norm != "l2" or axis != 1:
        raise NotImplementedError("fake_deepxde_deps' normalize: l2 rows only")
    X = np.asarray(X)
    norms = np.sqrt(np.einsum("ij,ij->i", X, X))
    norms[norms == 0] = 1
    return X / norms[:, None]


class StandardScaler:
    """sklearn.preprocessing.StandardScaler: columns centred and scaled by their population std."""

    def __init__(self, with_mean=True, with_std=True):
        self.with_mean, self.with_std = with_mean, with_std

    def fit(self, X):
        X = np.asarray(X)
        self.mean_ = X.mean(axis=0) if self.with_mean else None
        scale = X.std(axis=0) if self.with_std else None
        self.scale_ = None if scale is None else np.where(scale == 0, 1.0, scale)
        return self

    def transform(self, X):
        X = np.array(X, dtype=float) if not isinstance(X, np.ndarray) else X.copy()
        if self.with_mean:
            X = X - self.mean_
        return X / self.scale_ if self.with_std else X

    def fit_transform(self, X):
        return self.fit(X).transform(X)


def mean_squared_error(y_true, y_pred):
    return float(np.mean((np.asarray(y_true) - np.asarray(y_pred)) ** 2))


def modules() -> dict:
    """The stand-in modules by name."""
    sampler = _module("skopt.sampler", Halton=Halton, Hammersly=Hammersly)
    distance = _module("scipy.spatial.distance", pdist=pdist, squareform=squareform)
    spatial = _module("scipy.spatial", distance=distance)
    interpolate = _module("scipy.interpolate", interp1d=interp1d)
    linalg, stats = _module("scipy.linalg"), _module("scipy.stats")
    kernels = _module("sklearn.gaussian_process.kernels", RBF=RBF, ExpSineSquared=ExpSineSquared)
    gp = _module("sklearn.gaussian_process", kernels=kernels)
    preprocessing = _module("sklearn.preprocessing", normalize=normalize, StandardScaler=StandardScaler)
    metrics = _module("sklearn.metrics", mean_squared_error=mean_squared_error)
    found = {"skopt": _module("skopt", sampler=sampler), "skopt.sampler": sampler,
             "scipy": _module("scipy", spatial=spatial, interpolate=interpolate, linalg=linalg, stats=stats),
             "scipy.spatial": spatial, "scipy.spatial.distance": distance, "scipy.interpolate": interpolate,
             "scipy.linalg": linalg, "scipy.stats": stats,
             "sklearn": _module("sklearn", gaussian_process=gp, preprocessing=preprocessing, metrics=metrics),
             "sklearn.gaussian_process": gp, "sklearn.gaussian_process.kernels": kernels,
             "sklearn.preprocessing": preprocessing, "sklearn.metrics": metrics}
    return found
