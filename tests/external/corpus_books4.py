"""Stand-ins for the fourth batch of books' and courses' scripts (``recipes_books4.py``).

Aurélien Géron's "Hands-On Machine Learning" (PyTorch edition) loads scikit-learn's California housing table and
OpenML's Fashion-MNIST, both downloads. ``fetch_california_housing`` returns a ``Bunch`` of seeded float64 rows
with the table's 8 features (their rough ranges) and a target in hundreds of thousands of dollars;
``fetch_openml`` returns Fashion-MNIST's layout (float64 pixels 0..255 in rows of 784, string labels '0'..'9').
Both are NumPy, so both runs see the same arrays; they are smaller than the real tables so a script's training
loops take a fraction of a second.
"""

from __future__ import annotations

import collections
import sys
import types

import numpy as np

HOUSING_ROWS = 400


class Bunch(dict):
    """scikit-learn's ``Bunch``: a dict whose keys are attributes too."""

    __getattr__ = dict.__getitem__


HOUSING_FEATURES = ["MedInc", "HouseAge", "AveRooms", "AveBedrms", "Population", "AveOccup", "Latitude",
                    "Longitude"]
_HOUSING_RANGES = [(0.5, 15.0), (1.0, 52.0), (1.0, 10.0), (0.5, 2.0), (3.0, 5000.0), (1.0, 6.0), (32.5, 42.0),
                   (-124.3, -114.3)]


def fetch_california_housing(*, data_home=None, download_if_missing=True, return_X_y=False, as_frame=False):
    """``HOUSING_ROWS`` districts of 8 float64 features; the target is a noisy linear function of them, clipped to
    the real table's 0.15..5.0."""
    rng = np.random.RandomState(42)
    data = np.column_stack([rng.uniform(low, high, HOUSING_ROWS) for low, high in _HOUSING_RANGES])
    scaled = (data - data.mean(0)) / data.std(0)
    target = np.clip(2.0 + scaled @ rng.normal(0, 0.5, 8) + rng.normal(0, 0.3, HOUSING_ROWS), 0.15, 5.0)
    if return_X_y:
        return data, target
    return Bunch(data=data, target=target, feature_names=HOUSING_FEATURES, target_names=["MedHouseVal"])


def fetch_openml(name=None, *, version="active", as_frame="auto", n_rows=1_000, **kwargs):
    """Fashion-MNIST as OpenML serves it: ``data`` float64 of shape (n, 784), ``target`` an object array of the
    labels' strings."""
    rng = np.random.RandomState(0)
    data = rng.randint(0, 256, size=(n_rows, 784)).astype(np.float64)
    target = rng.randint(0, 10, size=n_rows).astype(str).astype(object)
    return Bunch(data=data, target=target, feature_names=[f"pixel{i + 1}" for i in range(784)])


def load_mnist(batch_size=64):
    """Microsoft Learn's ``pytorchcv.load_mnist`` on ``corpus_support``'s MNIST stand-in: it makes ``data_train``,
    ``data_test``, ``train_loader`` and ``test_loader`` (the original puts them in ``builtins``; here they go to
    the calling notebook's globals and to ``pytorchcv``'s, where its helpers read them, so no later script sees
    them)."""
    import corpus_support
    import pytorchcv
    import torch  # the runner's torch: core under the alias, or PyTorch

    data_train, data_test = corpus_support.fake_mnist(train=True), corpus_support.fake_mnist(train=False)
    names = {"data_train": data_train, "data_test": data_test,
             "train_loader": torch.utils.data.DataLoader(data_train, batch_size=batch_size),
             "test_loader": torch.utils.data.DataLoader(data_test, batch_size=batch_size)}
    sys._getframe(1).f_globals.update(names)
    vars(pytorchcv).update(names)


class _Vocab:
    """torchtext 0.9's ``Vocab(counter, min_freq=..., specials=...)``: the specials first, then the words by
    decreasing frequency (ties alphabetically); ``stoi`` gives ``<unk>``'s index for any other word."""

    def __init__(self, counter, max_size=None, min_freq=1, specials=("<unk>", "<pad>"), vectors=None, unk_init=None,
                 vectors_cache=None, specials_first=True):
        self.freqs = counter
        counter = counter.copy()
        self.itos = list(specials) if specials_first else []
        limit = None if max_size is None else max_size + (len(specials) if specials_first else 0)
        for token in specials:
            del counter[token]
        ordered = sorted(counter.items(), key=lambda pair: pair[0])
        ordered.sort(key=lambda pair: pair[1], reverse=True)
        for word, freq in ordered:
            if freq < max(min_freq, 1) or len(self.itos) == limit:
                break
            self.itos.append(word)
        self.unk_index = None
        if "<unk>" in specials:
            at = specials.index("<unk>")
            self.unk_index = at if specials_first else len(self.itos) + at
        if not specials_first:
            self.itos.extend(specials)
        self.stoi = collections.defaultdict((lambda: self.unk_index) if "<unk>" in specials else None)
        self.stoi.update({token: i for i, token in enumerate(self.itos)})

    def __len__(self):
        return len(self.itos)

    def __getitem__(self, token):
        return self.stoi.get(token, self.stoi.get("<unk>"))


def _ngrams_iterator(token_list, ngrams):
    """torchtext's: the tokens, then each n-gram (2..ngrams) joined by spaces."""
    yield from token_list
    for n in range(2, ngrams + 1):
        for gram in zip(*[token_list[i:] for i in range(n)]):
            yield " ".join(gram)


def torchtext_09():
    """The torchtext 0.9 API that Microsoft Learn's NLP notebooks and their torchnlp.py use, over
    ``corpus_torchtext``'s AG_NEWS texts (400 training, 100 test): ``datasets.AG_NEWS(root)`` (both splits),
    ``data.utils.get_tokenizer('basic_english')``, ``data.utils.ngrams_iterator`` and ``vocab.Vocab``."""
    import corpus_torchtext

    module = types.ModuleType("torchtext")
    utils = types.SimpleNamespace(get_tokenizer=corpus_torchtext.get_tokenizer, ngrams_iterator=_ngrams_iterator)
    module.data = types.SimpleNamespace(utils=utils)
    module.datasets = types.SimpleNamespace(AG_NEWS=corpus_torchtext.AG_NEWS)
    module.vocab = types.SimpleNamespace(Vocab=_Vocab)
    return module
