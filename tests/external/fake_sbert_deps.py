"""What sentence-transformers (``recipes_sbert.py``) imports at module level and is not installed here (our text).

- ``tqdm`` (with ``tqdm.autonotebook`` and ``tqdm.auto``): ``encode``'s and the evaluators' bars; the stand-in
  iterates what it wraps and draws nothing (the real bar draws on stderr, which is not compared).
- ``scipy.stats``: ``pearsonr`` and ``spearmanr``, which the similarity evaluators report; textbook formulas in
  NumPy float64 (Pearson's r of the centred vectors; Spearman's as Pearson's of average ranks), not SciPy's code,
  the same in both runs. ``scipy.sparse.coo_matrix`` keeps its entries and gives them back dense (``toarray``):
  ``util.manhattan_sim`` of sparse embeddings hands them to ``pairwise_distances``.
- ``sklearn.metrics``: ``average_precision_score`` (binary, scikit-learn's step-wise definition over distinct
  thresholds), ``matthews_corrcoef``, ``f1_score`` (binary), ``ndcg_score`` (one query row at a time, ties
  averaged as scikit-learn does them when ``ignore_ties`` is off), ``accuracy_score``, ``pairwise_distances``
  (euclidean, manhattan, cosine; of dense arrays or ``coo_matrix``) and ``pairwise.cosine_similarity``; the same
  NumPy code in both runs.

- transformers' training side (``trainer``, ``trainer_callback``, ``training_args``, ``modelcard``,
  ``data.data_collator``, ``integrations.integration_utils``): sentence-transformers' package imports its
  ``Trainer``, callbacks and ``TrainingArguments`` at import to subclass them, but those files are not in the
  corpus's saved copy of transformers 4.57.6 (``recipes_hf.HF_PACKAGE``: its modeling side). The stand-ins are
  classes to import and subclass: ``Trainer`` and ``TrainingArguments`` raise when built (the scripts train with
  hand-written steps and ``fit``'s old loop is not run), ``TrainerCallback``'s hooks do nothing,
  ``TrainerState``/``TrainerControl`` are empty dataclasses, ``ParallelMode`` is transformers' enum.

- the Hub's model-card names and safetensors' ``save_model`` (``CardData``, ``dataset_info``,
  ``repocard_data.EvalResult``, ``eval_results_to_model_index``, ``utils.yaml_dump``), added to ``fake_hf_hub``'s
  stand-ins for this script:
  model cards are written only from training runs' metadata, and the scripts save with ``create_model_card=False``
  where they save at all.

- transformers' ``MT5Config`` and ``MT5EncoderModel`` (``models/mt5``, not in the corpus's copy either):
  ``models.Transformer`` imports them to tell an mT5 checkpoint apart; the placeholders are set on transformers'
  package (imported here from the script's folder), a config class nothing is an instance of and a model that
  raises when built.

- ``tokenizers.AddedToken`` with its arguments and attributes (``fake_hf_hub``'s is a bare class to import) and
  ``tokenizers.__version__``; transformers takes ``AddedToken`` from ``tokenizers`` when that package's metadata is
  found: the drivers' slow tokenizer is built on transformers' ``PreTrainedTokenizer``, which makes its special
  tokens ``AddedToken``s.

A name beyond these raises ``NotImplementedError`` when called, so a script that reaches one fails the same way in
both runs and shows it.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import importlib.machinery
import sys

import numpy as np
from fake_stand_ins import Bar, module


class _Bar(Bar):
    """A tqdm bar that draws nothing, with ``tqdm.write``."""

    @staticmethod
    def write(text, file=None, end="\n", nolock=False):
        """``tqdm.write``, through which ``LoggingHandler`` logs (time-stamped lines): not printed."""


def _rank(a):
    """Average ranks from 1 (ties share the mean of their positions), as ``scipy.stats.rankdata``."""
    a = np.asarray(a, dtype=np.float64)
    order = np.argsort(a, kind="mergesort")
    ranks = np.empty(len(a), dtype=np.float64)
    sorted_a = a[order]
    start = 0
    while start < len(a):
        end = start
        while end + 1 < len(a) and sorted_a[end + 1] == sorted_a[start]:
            end += 1
        ranks[order[start:end + 1]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


class _Result(tuple):
    """``pearsonr``'s result: ``(statistic, pvalue)`` with the statistic by name (p-values are not computed)."""

    @property
    def statistic(self):
        return self[0]

    @property
    def correlation(self):
        return self[0]


def pearsonr(x, y):
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    xm, ym = x - x.mean(), y - y.mean()
    r = float(np.dot(xm, ym) / (np.linalg.norm(xm) * np.linalg.norm(ym)))
    return _Result((max(min(r, 1.0), -1.0), float("nan")))


def spearmanr(x, y):
    return pearsonr(_rank(x), _rank(y))


def average_precision_score(y_true, y_score, *, average="macro", pos_label=1, sample_weight=None):
    """Binary AP: sum over distinct thresholds (descending) of (recall step) * precision."""
    y_true = np.asarray(y_true) == pos_label
    y_score = np.asarray(y_score, dtype=np.float64)
    order = np.argsort(-y_score, kind="mergesort")
    y_true, y_score = y_true[order], y_score[order]
    last = np.r_[np.nonzero(np.diff(y_score))[0], len(y_score) - 1]  # the last index of each distinct score
    tps = np.cumsum(y_true)[last]
    fps = (last + 1) - tps
    precision = tps / (tps + fps)
    recall = tps / tps[-1] if tps[-1] else np.full_like(tps, np.nan, dtype=np.float64)
    recall_steps = np.diff(np.r_[0.0, recall])
    return float(np.sum(recall_steps * precision))


def matthews_corrcoef(y_true, y_pred, *, sample_weight=None):
    y_true, y_pred = np.asarray(y_true).astype(int), np.asarray(y_pred).astype(int)
    tp = float(np.sum((y_true == 1) & (y_pred == 1)))
    tn = float(np.sum((y_true == 0) & (y_pred == 0)))
    fp = float(np.sum((y_true == 0) & (y_pred == 1)))
    fn = float(np.sum((y_true == 1) & (y_pred == 0)))
    den = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return float((tp * tn - fp * fn) / den) if den else 0.0


def f1_score(y_true, y_pred, *, pos_label=1, average="binary", sample_weight=None, zero_division="warn"):
    y_true, y_pred = np.asarray(y_true) == pos_label, np.asarray(y_pred) == pos_label
    tp = float(np.sum(y_true & y_pred))
    den = float(np.sum(y_true) + np.sum(y_pred))
    return 2 * tp / den if den else 0.0


def _dcg(y_true, y_score, k):
    """One row's DCG with tied scores' gains averaged (scikit-learn's ``_tie_averaged_dcg``)."""
    discount = 1 / np.log2(np.arange(len(y_true)) + 2)
    if k is not None:
        discount[k:] = 0
    _, inv, counts = np.unique(-y_score, return_inverse=True, return_counts=True)
    ranked = np.zeros(len(counts))
    np.add.at(ranked, inv, y_true)
    ranked /= counts
    groups = np.cumsum(counts) - 1
    sums = np.cumsum(discount)[groups]
    sums[1:] -= sums[:-1].copy()
    return float(np.sum(ranked * sums))


def ndcg_score(y_true, y_score, *, k=None, sample_weight=None, ignore_ties=False):
    y_true, y_score = np.asarray(y_true, dtype=np.float64), np.asarray(y_score, dtype=np.float64)
    values = []
    for t, s in zip(y_true, y_score):
        ideal = _dcg(t, t, k)
        values.append(_dcg(t, s, k) / ideal if ideal else 0.0)
    return float(np.mean(values))


class coo_matrix:
    """``scipy.sparse.coo_matrix((data, (row, col)), shape=...)``: entries kept, ``toarray()`` their dense sum."""

    def __init__(self, arg, shape=None):
        self.data, (self.row, self.col) = np.asarray(arg[0]), (np.asarray(arg[1][0]), np.asarray(arg[1][1]))
        self.shape = tuple(shape)

    def toarray(self):
        dense = np.zeros(self.shape, dtype=self.data.dtype)
        np.add.at(dense, (self.row, self.col), self.data)
        return dense


def _dense(x):
    return np.asarray(x.toarray() if isinstance(x, coo_matrix) else x, dtype=np.float64)


def cosine_similarity(X, Y=None, dense_output=True):
    X = _dense(X)
    Y = X if Y is None else _dense(Y)
    xn = X / np.linalg.norm(X, axis=1, keepdims=True)
    yn = Y / np.linalg.norm(Y, axis=1, keepdims=True)
    return xn @ yn.T


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    hits = np.asarray(y_true) == np.asarray(y_pred)
    return float(hits.mean()) if normalize else float(hits.sum())


def pairwise_distances(X, Y=None, metric="euclidean", **kwargs):
    X = _dense(X)
    Y = X if Y is None else _dense(Y)
    if metric == "euclidean":
        return np.sqrt(np.maximum(((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1), 0))
    if metric == "manhattan":
        return np.abs(X[:, None, :] - Y[None, :, :]).sum(-1)
    if metric == "cosine":
        xn = X / np.linalg.norm(X, axis=1, keepdims=True)
        yn = Y / np.linalg.norm(Y, axis=1, keepdims=True)
        return 1 - xn @ yn.T
    raise NotImplementedError(f"fake_sbert_deps: pairwise_distances metric {metric!r}")


class _Refused:
    """A class to subclass whose construction raises (transformers' ``Trainer``, ``TrainingArguments``)."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"fake_sbert_deps: transformers' {type(self).__mro__[-2].__name__} is a stand-in")


class Trainer(_Refused):
    pass


class TrainingArguments(_Refused):
    pass


class TrainerCallback:
    """transformers' callback: every ``on_*`` hook does nothing."""

    def __getattr__(self, name):
        if name.startswith("on_"):
            return lambda *args, **kwargs: None
        raise AttributeError(name)


@dataclasses.dataclass
class TrainerState:
    pass


@dataclasses.dataclass
class TrainerControl:
    pass


class ParallelMode(enum.Enum):
    NOT_PARALLEL = "not_parallel"
    NOT_DISTRIBUTED = "not_distributed"
    DISTRIBUTED = "distributed"
    SAGEMAKER_MODEL_PARALLEL = "sagemaker_model_parallel"
    SAGEMAKER_DATA_PARALLEL = "sagemaker_data_parallel"
    TPU = "tpu"


def _transformers_training() -> dict:
    """transformers' training modules (not in the corpus's copy of 4.57.6) as classes to import."""
    callbacks = {n: type(n, (TrainerCallback,), {"__module__": "transformers.integrations.integration_utils"})
                 for n in ("WandbCallback", "CodeCarbonCallback", "TrackioCallback")}
    return {"transformers.trainer": _module("transformers.trainer", Trainer=Trainer,
                                            TRAINING_ARGS_NAME="training_args.bin"),
            "transformers.trainer_callback": _module("transformers.trainer_callback", TrainerCallback=TrainerCallback,
                                                     TrainerState=TrainerState, TrainerControl=TrainerControl),
            "transformers.training_args": _module("transformers.training_args", TrainingArguments=TrainingArguments,
                                                  ParallelMode=ParallelMode),
            "transformers.modelcard": _module("transformers.modelcard",
                                              make_markdown_table=_not_here("transformers.modelcard.make_markdown_table")),
            "transformers.data": _module("transformers.data"),
            "transformers.data.data_collator": _module("transformers.data.data_collator", DataCollator=object),
            "transformers.integrations.integration_utils": _module("transformers.integrations.integration_utils",
                                                                   **callbacks)}


def _not_here(name):
    def missing(*args, **kwargs):
        raise NotImplementedError(f"fake_sbert_deps: {name} is not in the stand-in")
    return missing


def _module(name, **attributes):
    return module(name, package=True, __path__=[], **attributes)


class AddedToken:
    """``tokenizers.AddedToken``: a token's text and its matching options; equal and hashed by its text."""

    def __init__(self, content="", single_word=False, lstrip=False, rstrip=False, special=False, normalized=None):
        self.content, self.single_word, self.lstrip, self.rstrip = content, single_word, lstrip, rstrip
        self.special = special
        self.normalized = normalized if normalized is not None else not special

    def __getstate__(self):
        return dict(self.__dict__)

    def __setstate__(self, state):
        self.__dict__.update(state)

    def __str__(self):
        return self.content

    def __repr__(self):
        return (f"AddedToken({self.content!r}, rstrip={self.rstrip}, lstrip={self.lstrip}, "
                f"single_word={self.single_word}, normalized={self.normalized}, special={self.special})")

    def __eq__(self, other):
        return isinstance(other, AddedToken) and self.content == other.content

    def __hash__(self):
        return hash(self.content)


def _hub_card_names() -> dict:
    """The Hub's model-card names sentence-transformers imports, on ``fake_hf_hub``'s ``huggingface_hub`` (made
    afresh for each script by the runner) and in a ``repocard_data`` module."""
    hub = sys.modules.get("huggingface_hub")
    if hub is None:
        return {}
    card_data = getattr(hub, "ModelCardData", dict)
    hub.CardData = card_data
    hub.dataset_info = _not_here("huggingface_hub.dataset_info")
    if "huggingface_hub.utils" in sys.modules:
        sys.modules["huggingface_hub.utils"].yaml_dump = _not_here("huggingface_hub.utils.yaml_dump")
    repocard = _module("huggingface_hub.repocard_data", CardData=card_data, EvalResult=type("EvalResult", (), {}),
                       eval_results_to_model_index=_not_here("eval_results_to_model_index"))
    hub.repocard_data = repocard
    if "tokenizers" in sys.modules:
        sys.modules["tokenizers"].AddedToken = AddedToken
        sys.modules["tokenizers"].__version__ = "0.22.1"  # (the cross-encoder's model card data asks it)
    if "safetensors.torch" in sys.modules:  # (Module.py imports it; the scripts save with safe_serialization=False)
        sys.modules["safetensors.torch"].save_model = _not_here("safetensors.torch.save_model")
    return {"huggingface_hub.repocard_data": repocard}


def _mt5_placeholders() -> None:
    """``transformers.MT5Config``/``MT5EncoderModel``: names to import (the scripts build no mT5 model)."""
    transformers = importlib.import_module("transformers")  # (the script folder's package: runner._real_transformers)
    transformers.MT5Config = type("MT5Config", (), {"__module__": "transformers.models.mt5"})
    transformers.MT5EncoderModel = type("MT5EncoderModel", (_Refused,), {"__module__": "transformers.models.mt5"})


def modules() -> dict:
    """The stand-in modules by name (already in ``sys.modules``: transformers, imported for its placeholders, needs
    them; the runner installs the same modules again)."""
    auto = _module("tqdm.auto", tqdm=_Bar, trange=_Bar.trange)
    notebook = _module("tqdm.autonotebook", tqdm=_Bar, trange=_Bar.trange)
    tqdm = _module("tqdm", tqdm=_Bar, trange=_Bar.trange, auto=auto, autonotebook=notebook, __version__="4.67.1")
    stats = _module("scipy.stats", pearsonr=pearsonr, spearmanr=spearmanr)
    sparse = _module("scipy.sparse", coo_matrix=coo_matrix)
    scipy = _module("scipy", stats=stats, sparse=sparse, __version__="1.16.3")
    pairwise = _module("sklearn.metrics.pairwise", cosine_similarity=cosine_similarity,
                       pairwise_distances=pairwise_distances)
    metrics = _module("sklearn.metrics", average_precision_score=average_precision_score,
                      matthews_corrcoef=matthews_corrcoef, f1_score=f1_score, ndcg_score=ndcg_score,
                      pairwise_distances=pairwise_distances, accuracy_score=accuracy_score, pairwise=pairwise)
    sklearn = _module("sklearn", metrics=metrics, __version__="1.7.2")
    made = {"tqdm": tqdm, "tqdm.auto": auto, "tqdm.autonotebook": notebook, "scipy": scipy, "scipy.stats": stats,
            "scipy.sparse": sparse, "sklearn": sklearn, "sklearn.metrics": metrics,
            "sklearn.metrics.pairwise": pairwise, **_transformers_training(),
            **_hub_card_names()}
    sys.modules.update(made)
    _mt5_placeholders()
    return made
