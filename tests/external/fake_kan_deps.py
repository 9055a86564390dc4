"""What pykan (``recipes_kan.py``) imports and is not installed here (our text).

- ``yaml``: a KAN saves a checkpoint at each logged step (``saveckpt``: its configuration through ``yaml.dump``) and
  ``loadckpt`` reads it back (``yaml.safe_load``); the stand-in writes the dict's ``repr`` and reads it with
  ``ast.literal_eval`` (the configuration holds numbers, strings, lists and booleans only).
- ``tqdm``: ``fit``'s bar over ``range(steps)``, whose ``set_description`` text (the train and test losses and the
  regularisation, ``%.2e``) is printed on stdout, so both runs' losses are compared.
- ``sklearn.linear_model.LinearRegression``: ``utils.fit_params`` (symbolic fitting) fits ``y = c * f(a x + b) + d``'s
  ``c`` and ``d`` by ordinary least squares on NumPy arrays; the stand-in is scikit-learn's recipe (centred data,
  ``numpy.linalg.lstsq``), not its code. ``sklearn.cluster.AgglomerativeClustering`` (``hypothesis``, imported only)
  raises if called. ``sklearn.datasets`` is the runner's ``fake_sklearn`` (``make_moons`` for the classification
  tutorial).
"""

from __future__ import annotations

import ast
import importlib
import importlib.machinery

import numpy as np
from fake_stand_ins import PrintingBar
from fake_stand_ins import module as _module


def dump(data, stream=None, **kwargs):
    """``yaml.dump``: the object's ``repr`` (written to ``stream`` if given)."""
    text = repr(data) + "\n"
    if stream is None:
        return text
    stream.write(text)
    return None


def safe_load(stream):
    """``yaml.safe_load`` of what ``dump`` wrote."""
    return ast.literal_eval(stream if isinstance(stream, str) else stream.read())


class LinearRegression:
    """Ordinary least squares with an intercept, as scikit-learn fits it (centred data, ``lstsq``)."""

    def __init__(self, fit_intercept=True):
        self.fit_intercept = fit_intercept

    def fit(self, X, y):
        X, y = np.asarray(X, np.float64), np.asarray(y, np.float64)
        x_mean = X.mean(axis=0) if self.fit_intercept else np.zeros(X.shape[1])
        y_mean = y.mean(axis=0) if self.fit_intercept else np.zeros(y.shape[1:])
        coef = np.linalg.lstsq(X - x_mean, y - y_mean, rcond=None)[0]
        self.coef_ = coef.T if y.ndim > 1 else coef
        self.intercept_ = y_mean - x_mean @ coef
        return self

    def predict(self, X):
        return np.asarray(X, np.float64) @ np.asarray(self.coef_).T + self.intercept_


class AgglomerativeClustering:
    """Imported by ``kan.hypothesis``; the recipes never cluster."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("AgglomerativeClustering is not available in the corpus (a stand-in)")


def modules() -> dict:
    """The stand-ins, by module name, for ``runner._fetched_packages``."""
    linear = _module("sklearn.linear_model", LinearRegression=LinearRegression)
    cluster = _module("sklearn.cluster", AgglomerativeClustering=AgglomerativeClustering)
    tqdm = _module("tqdm", tqdm=PrintingBar, trange=PrintingBar.trange)
    auto = _module("tqdm.auto", tqdm=PrintingBar)
    tqdm.auto = auto
    datasets = importlib.import_module("fake_sklearn")
    return {"yaml": _module("yaml", dump=dump, safe_load=safe_load, load=safe_load),
            "sklearn": _module("sklearn", linear_model=linear, cluster=cluster, datasets=datasets),
            "sklearn.linear_model": linear, "sklearn.cluster": cluster, "sklearn.datasets": datasets, "tqdm": tqdm,
            "tqdm.auto": auto}
