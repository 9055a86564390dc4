"""scikit-learn's stand-in for the corpus (not installed here): the toy data sets and split course notebooks use.

``make_circles``, ``make_moons``, ``make_blobs`` and ``train_test_split`` take scikit-learn's arguments and follow its
recipe (a ``numpy.random.RandomState`` from ``random_state``, points shuffled, then noise), so the data has the
right shapes, dtypes (float64 points, int64 labels) and layout. The numbers need not be scikit-learn's: both runs of a
script use this module, so core and torch see the same data. The runner installs it as ``sklearn``,
``sklearn.datasets``, ``sklearn.model_selection``, ``sklearn.metrics`` (``accuracy_score``), ``sklearn.linear_model``
(``LinearRegression``, ``Ridge``, ``Lasso``: scikit-learn's objectives, solved in NumPy; Captum's Lime and
KernelShap fit Lasso) and ``sklearn.svm`` (empty).
"""

from __future__ import annotations

import math

import numpy as np


def _state(random_state):
    """scikit-learn's ``check_random_state``: ``None`` is NumPy's global generator (the runner seeds it), so an
    unseeded call draws the same points in both runs."""
    if isinstance(random_state, np.random.RandomState):
        return random_state
    if random_state is None:
        return np.random.mtrand._rand
    return np.random.RandomState(random_state)


def _shuffled(rng, X, y):
    order = np.arange(len(y))
    rng.shuffle(order)
    return X[order], y[order]

def _two_classes(rng, X, n_out, n_in, shuffle, noise):
    """Labels 0 for the first ``n_out`` points and 1 for the rest, shuffled and noised as scikit-learn does."""
    y = np.hstack([np.zeros(n_out, dtype=np.int64), np.ones(n_in, dtype=np.int64)])
    if shuffle:
        X, y = _shuffled(rng, X, y)
    if noise is not None:
        X = X + rng.normal(scale=noise, size=X.shape)
    return X, y


def make_circles(n_samples=100, *, shuffle=True, noise=None, random_state=None, factor=0.8):
    """Two concentric circles (outer label 0, inner label 1, radius ``factor``)."""
    rng = _state(random_state)
    n_out = n_samples // 2
    n_in = n_samples - n_out
    out = np.linspace(0, 2 * np.pi, n_out, endpoint=False)
    inn = np.linspace(0, 2 * np.pi, n_in, endpoint=False)
    X = np.vstack([np.append(np.cos(out), np.cos(inn) * factor), np.append(np.sin(out), np.sin(inn) * factor)]).T
    return _two_classes(rng, X, n_out, n_in, shuffle, noise)


def make_moons(n_samples=100, *, shuffle=True, noise=None, random_state=None):
    """Two interleaving half circles."""
    rng = _state(random_state)
    n_out = n_samples // 2
    n_in = n_samples - n_out
    out = np.linspace(0, np.pi, n_out)
    inn = np.linspace(0, np.pi, n_in)
    X = np.vstack([np.append(np.cos(out), 1 - np.cos(inn)), np.append(np.sin(out), 1 - np.sin(inn) - 0.5)]).T
    return _two_classes(rng, X, n_out, n_in, shuffle, noise)


def make_blobs(n_samples=100, n_features=2, *, centers=None, cluster_std=1.0, center_box=(-10.0, 10.0),
               shuffle=True, random_state=None):
    """Gaussian blobs around ``centers`` (a count: drawn uniformly in ``center_box``; default 3)."""
    rng = _state(random_state)
    if centers is None or isinstance(centers, int):
        centers = rng.uniform(center_box[0], center_box[1], size=(centers or 3, n_features))
    centers = np.asarray(centers, dtype=np.float64)
    counts = [n_samples // len(centers)] * len(centers)
    for i in range(n_samples % len(centers)):
        counts[i] += 1
    X = np.concatenate([rng.normal(loc=c, scale=cluster_std, size=(n, centers.shape[1]))
                        for c, n in zip(centers, counts)])
    y = np.concatenate([np.full(n, i, dtype=np.int64) for i, n in enumerate(counts)])
    if shuffle:
        X, y = _shuffled(rng, X, y)
    return X, y


def train_test_split(*arrays, test_size=None, train_size=None, random_state=None, shuffle=True, stratify=None):
    """``[a_train, a_test, b_train, b_test, ...]``: rows picked by one permutation (each array indexed by an
    integer NumPy array, as scikit-learn indexes tensors too; a list gives lists)."""
    n = len(arrays[0])
    if test_size is None:
        test_size = 0.25 if train_size is None else 1 - train_size
    n_test = math.ceil(test_size * n) if isinstance(test_size, float) else test_size
    n_train = n - n_test
    order = _state(random_state).permutation(n) if shuffle else np.arange(n)
    train, test = order[n_test:n_test + n_train], order[:n_test]
    return [part for a in arrays for part in (_rows(a, train), _rows(a, test))]


def _rows(a, index):
    """scikit-learn's ``_safe_indexing``: a list gives a list of its items, an array or tensor its indexed rows."""
    return [a[i] for i in index] if isinstance(a, list) else a[index]


class Bunch(dict):
    """scikit-learn's ``Bunch``: a dict whose keys are attributes too (``iris['data']``, ``iris.data``)."""

    __getattr__ = dict.__getitem__


_IRIS_MEANS = [[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]]  # per class, roughly Iris's


def load_iris(*, return_X_y=False, as_frame=False):
    """150 flowers of 4 float64 measurements (cm, one decimal) in 3 classes of 50, seeded around Iris's class means;
    ``target`` is int64, as scikit-learn's."""
    rng = np.random.RandomState(0)
    data = np.vstack([np.round(rng.normal(m, 0.3, size=(50, 4)).clip(0.1), 1) for m in _IRIS_MEANS])
    target = np.repeat(np.arange(3, dtype=np.int64), 50)
    if return_X_y:
        return data, target
    return Bunch(data=data, target=target, target_names=np.array(["setosa", "versicolor", "virginica"]),
                 feature_names=["sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"])


def make_regression(n_samples=100, n_features=100, *, n_informative=10, n_targets=1, bias=0.0, noise=0.0,
                    shuffle=True, coef=False, random_state=None):
    """A random linear problem: standard normal ``X``, ``y = X @ w + bias`` plus Gaussian ``noise`` (float64; ``y``
    1-D for one target), with scikit-learn's order of draws (points, weights, noise, then the shuffles)."""
    rng = _state(random_state)
    n_informative = min(n_features, n_informative)
    X = rng.standard_normal(size=(n_samples, n_features))
    truth = np.zeros((n_features, n_targets))
    truth[:n_informative, :] = 100 * rng.uniform(size=(n_informative, n_targets))
    y = X @ truth + bias
    if noise > 0.0:
        y += rng.normal(scale=noise, size=y.shape)
    if shuffle:
        order = rng.permutation(n_samples)
        X, y = X[order], y[order]
        features = rng.permutation(n_features)
        X, truth = X[:, features], truth[features]
    y, truth = np.squeeze(y), np.squeeze(truth)
    return (X, y, truth) if coef else (X, y)


def load_breast_cancer(*, return_X_y=False, as_frame=False):
    """569 tumours of 30 positive float64 measurements, 212 malignant (0) and 357 benign (1) as in the real set,
    seeded around per-class means so that a linear model can learn them; ``target`` is int64."""
    rng = np.random.RandomState(0)
    scale = rng.uniform(0.05, 50.0, size=30)
    shift = rng.uniform(-1.0, 1.0, size=30)
    target = np.repeat(np.array([0, 1], dtype=np.int64), [212, 357])
    rng.shuffle(target)
    data = scale * np.abs(1.5 + rng.normal(size=(569, 30)) * 0.8 + np.outer(target - 0.5, shift))
    if return_X_y:
        return data, target
    return Bunch(data=data, target=target, target_names=np.array(["malignant", "benign"]),
                 feature_names=[f"feature {i}" for i in range(30)])


class StandardScaler:
    """Columns centred and scaled to unit variance with the training data's mean and (population) deviation."""

    def __init__(self, *, copy=True, with_mean=True, with_std=True):
        self.with_mean, self.with_std = with_mean, with_std

    def fit(self, X, y=None):
        X = np.asarray(X, dtype=np.float64)
        self.mean_ = X.mean(axis=0)
        self.var_ = X.var(axis=0)
        self.scale_ = np.where(self.var_ == 0, 1.0, np.sqrt(self.var_))
        self.n_samples_seen_ = X.shape[0]
        return self

    def transform(self, X):
        X = np.asarray(X, dtype=np.float64)
        return (X - self.mean_ * self.with_mean) / (self.scale_ if self.with_std else 1.0)

    def fit_transform(self, X, y=None):
        return self.fit(X).transform(X)

    def inverse_transform(self, X):
        return np.asarray(X) * (self.scale_ if self.with_std else 1.0) + self.mean_ * self.with_mean


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    """``sklearn.metrics.accuracy_score``: the fraction (or, without ``normalize``, the count) of equal labels; of
    multilabel indicator rows (2-D), the rows whose labels all match (subset accuracy, Ignite's multilabel tests)."""
    matches = np.asarray(y_true) == np.asarray(y_pred)
    if matches.ndim == 2:
        matches = matches.all(axis=1)
    return float(matches.mean()) if normalize else int(matches.sum())


__version__ = "1.5.2"  # Captum checks for >= 0.23 before it trains Lasso


def _weighted_center(X, y, sample_weight, fit_intercept):
    """X and y centred on their (weighted) means, and those means: the intercept is fitted apart, as scikit-learn's
    linear models do."""
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    w = np.ones(len(X)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    w = w * len(X) / w.sum()  # scikit-learn rescales the weights to sum to n_samples
    if not fit_intercept:
        return X, y, w, np.zeros(X.shape[1]), np.zeros(y.shape[1:])
    x_mean, y_mean = np.average(X, axis=0, weights=w), np.average(y, axis=0, weights=w)
    return X - x_mean, y - y_mean, w, x_mean, y_mean


class LinearRegression:
    """``sklearn.linear_model.LinearRegression``: least squares (weighted), intercept from the means."""

    def __init__(self, *, fit_intercept=True, copy_X=True, n_jobs=None, positive=False):
        self.fit_intercept = fit_intercept

    def _solve(self, X, y, w):
        root = np.sqrt(w)[:, None]
        return np.linalg.lstsq(X * root, y * (root if y.ndim > 1 else root[:, 0]), rcond=None)[0]

    def fit(self, X, y, sample_weight=None):
        Xc, yc, w, x_mean, y_mean = _weighted_center(X, y, sample_weight, self.fit_intercept)
        coef = self._solve(Xc, yc, w)
        self.coef_ = coef.T if coef.ndim > 1 else coef
        self.intercept_ = y_mean - x_mean @ coef if self.fit_intercept else 0.0
        return self

    def predict(self, X):
        return np.asarray(X, dtype=np.float64) @ self.coef_.T + self.intercept_


class Ridge(LinearRegression):
    """``sklearn.linear_model.Ridge``: the normal equations with ``alpha`` on the diagonal."""

    def __init__(self, alpha=1.0, *, fit_intercept=True, **kwargs):
        self.alpha, self.fit_intercept = alpha, fit_intercept

    def _solve(self, X, y, w):
        gram = X.T @ (X * w[:, None]) + self.alpha * np.eye(X.shape[1])
        return np.linalg.solve(gram, X.T @ (y * (w[:, None] if y.ndim > 1 else w)))


class Lasso(LinearRegression):
    """``sklearn.linear_model.Lasso``: cyclic coordinate descent on (1 / 2n) * sum(w * r^2) + alpha * |coef|_1,
    stopped when no coefficient moves by more than ``tol`` times the largest one."""

    def __init__(self, alpha=1.0, *, fit_intercept=True, max_iter=1000, tol=1e-4, **kwargs):
        self.alpha, self.fit_intercept, self.max_iter, self.tol = alpha, fit_intercept, max_iter, tol

    def _solve(self, X, y, w):
        n, d = X.shape
        coef, residual = np.zeros(d), y.astype(np.float64).copy()
        norms = (w[:, None] * X * X).sum(axis=0)
        for _ in range(self.max_iter):
            largest_step = 0.0
            for j in range(d):
                if norms[j] == 0:
                    continue
                old = coef[j]
                rho = (w * X[:, j]) @ residual + norms[j] * old
                coef[j] = np.sign(rho) * max(abs(rho) - self.alpha * n, 0.0) / norms[j]
                if coef[j] != old:
                    residual -= X[:, j] * (coef[j] - old)
                    largest_step = max(largest_step, abs(coef[j] - old))
            if largest_step <= self.tol * max(np.abs(coef).max(initial=0.0), 1e-12):
                break
        return coef


class _Namespace:
    def __init__(self, **names):
        self.__dict__.update(names)


linear_model = _Namespace(LinearRegression=LinearRegression, Ridge=Ridge, Lasso=Lasso)
svm = _Namespace()  # imported by Captum, unused
