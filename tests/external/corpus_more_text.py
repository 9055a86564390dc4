"""Stand-ins for the data of ``recipes_more_text.py``'s scripts (our code, committed; a recipe's edit calls them).

``flow_datasets`` is what ikostrikov/pytorch-flows' ``main.py`` imports as ``datasets`` (its own package would clash
with the runner's Hugging Face stand-in of that name): ``MOONS()`` splits two moons 80/10/10 into ``trn``, ``val``
and ``tst`` (each ``.x``, float32, and ``.N``) as the repository's ``datasets/moons.py`` does, from 1250 points
(fake_sklearn's ``make_moons`` on NumPy's global generator, which the runner seeds) instead of 30000.
``scipy_lu()`` is a context in which ``import scipy`` gives a stand-in whose ``linalg.lu`` is Doolittle's LU with
partial pivoting in NumPy (``A = P @ L @ U``, SciPy's convention; SciPy is not installed), for the flows module's
``LUInvertibleMM``; it leaves no ``scipy`` in ``sys.modules`` behind.

``hf_datasets`` and ``torchtext`` stand in for Hugging Face ``datasets``' IMDB and the torchtext 0.15 pieces that
bentrevett's sentiment-analysis notebooks call: ``load_dataset("imdb", split=[...])`` gives ``Dataset``s of
corpus_imdb's generated reviews (500 training, 200 test; label 0 negative, 1 positive) with ``map``,
``train_test_split`` (NumPy's global generator shuffles), ``with_format("torch", columns)``, ``unique`` and column
access; ``get_tokenizer("basic_english")`` is torchtext's rules; ``build_vocab_from_iterator`` orders tokens by
frequency, then alphabetically, after the specials; ``GloVe().get_vecs_by_tokens`` gives each token a 300-d vector
seeded by its text (zeros for ``<unk>`` and ``<pad>``, which GloVe does not know). For bentrevett's seq2seq
notebooks, ``load_dataset("bentrevett/multi30k")`` gives generated English-German pairs from a phrase table
(240 training, 40 validation, 20 test), ``spacy`` a tokenizer of words and punctuation, and ``evaluate`` a BLEU
(the tensorflow/nmt ``compute_bleu`` that Hugging Face's metric wraps: 4-gram precisions, brevity penalty).
``make_classification`` follows scikit-learn's recipe (informative features in Gaussian clusters around the
vertices of a hypercube, redundant ones as random linear mixtures of them, the rest noise, rows and columns
shuffled) on a ``RandomState``, not its numbers. ``FakeData`` is torchvision's: each image drawn from a generator
seeded by its index (``torch.randn`` of ``image_size``, squashed to [0, 1] as ``ToTensor`` would give a picture's
pixels; the transform is not applied) and a label from it; ``load_boston`` is 506 seeded rows of 13 features whose
target is a linear function of them plus noise, in the removed scikit-learn loader's shapes. ``KFold`` splits as
scikit-learn's does (shuffled by NumPy's global generator when ``random_state`` is None; the first ``n % k`` folds one
longer; training indices ascending). ``Accelerator`` is Hugging Face Accelerate's on one CPU process: ``prepare``
hands its arguments back, ``backward`` calls ``loss.backward()``. ``binarized_mnist(path)`` writes the ``.npz``
karpathy's MADE reads (``train_data`` 500 and ``valid_data`` 200 rows of 784 zeros and ones, float32): seeded
pixels, each class a different set more often on.
"""

from __future__ import annotations

import collections
import contextlib
import math
import re
import sys
import types
import zlib

import numpy as np
from fake_sklearn import make_moons


class _Split:
    def __init__(self, x):
        self.x = x.astype(np.float32)
        self.N = self.x.shape[0]


class MOONS:
    def __init__(self, n_samples: int = 1250):
        x = make_moons(n_samples=n_samples, shuffle=True, noise=0.05)[0]
        cut, end = n_samples * 8 // 10, n_samples * 9 // 10
        self.trn, self.val, self.tst = _Split(x[:cut]), _Split(x[cut:end]), _Split(x[end:])
        self.n_dims = self.trn.x.shape[1]


flow_datasets = types.SimpleNamespace(MOONS=MOONS)


def _lu(a):
    u = np.array(a, dtype=np.float64)
    n = u.shape[0]
    perm, lower = np.arange(n), np.eye(n)
    for k in range(n - 1):
        p = k + int(np.argmax(np.abs(u[k:, k])))
        u[[k, p]], perm[[k, p]], lower[[k, p], :k] = u[[p, k]], perm[[p, k]], lower[[p, k], :k]
        if u[k, k] != 0:
            lower[k + 1:, k] = u[k + 1:, k] / u[k, k]
            u[k + 1:] -= np.outer(lower[k + 1:, k], u[k])
    dtype = np.result_type(a, np.float32)
    return np.eye(n, dtype=dtype)[perm].T, lower.astype(dtype), np.triu(u).astype(dtype)


@contextlib.contextmanager
def scipy_lu():
    linalg = types.ModuleType("scipy.linalg")
    linalg.lu = _lu
    scipy = types.ModuleType("scipy")
    scipy.linalg = linalg
    saved = {name: sys.modules.pop(name) for name in ("scipy", "scipy.linalg") if name in sys.modules}
    sys.modules.update({"scipy": scipy, "scipy.linalg": linalg})
    try:
        yield
    finally:
        del sys.modules["scipy"], sys.modules["scipy.linalg"]
        sys.modules.update(saved)


class Dataset:
    """Rows of dicts, as a Hugging Face ``Dataset`` reads them (a tensor per selected column once formatted)."""

    def __init__(self, rows: list, columns=None):
        self.rows, self.columns = rows, columns

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        return f"Dataset({{\n    features: {list(self.rows[0])},\n    num_rows: {len(self.rows)}\n}})"

    @property
    def features(self) -> dict:
        return {k: type(v).__name__ for k, v in self.rows[0].items()}

    def _format(self, row: dict) -> dict:
        if self.columns is None:
            return row
        import torch  # the runner's torch: core under the alias, or PyTorch
        tensors = {k: torch.tensor(row[k]) for k in self.columns}
        return {**row, **tensors} if getattr(self, "all_columns", False) else tensors

    def __getitem__(self, key):
        if isinstance(key, str):
            return [self._format(r)[key] for r in self.rows]
        return self._format(self.rows[key])

    def map(self, function, fn_kwargs=None) -> Dataset:
        return Dataset([{**r, **function(r, **(fn_kwargs or {}))} for r in self.rows], self.columns)

    def train_test_split(self, test_size: float) -> dict:
        order = np.random.permutation(len(self.rows))
        n_test = int(np.ceil(test_size * len(self.rows)))
        test, train = order[:n_test], order[n_test:]
        return {"train": Dataset([self.rows[i] for i in train], self.columns),
                "test": Dataset([self.rows[i] for i in test], self.columns)}

    def with_format(self, type=None, columns=None, output_all_columns=False) -> Dataset:
        formatted = Dataset(self.rows, columns if type == "torch" else None)
        formatted.all_columns = output_all_columns
        return formatted

    def unique(self, column: str) -> list:
        return list(dict.fromkeys(r[column] for r in self.rows))


class DatasetDict(dict):
    def __repr__(self) -> str:
        inner = "\n".join(f"    {k}: " + repr(v).replace("\n", "\n    ") for k, v in self.items())
        return f"DatasetDict({{\n{inner}\n}})"


SUBJECTS = {"a man": "ein mann", "a woman": "eine frau", "two dogs": "zwei hunde", "a child": "ein kind",
            "the girl": "das mädchen", "a boy": "ein junge", "three people": "drei leute"}
VERBS = {"is sitting on": "sitzt auf", "is walking along": "geht entlang", "is playing with": "spielt mit",
         "is looking at": "schaut auf", "stands near": "steht neben", "is running to": "rennt zu"}
OBJECTS = {"a bench": "einer bank", "the street": "der straße", "a ball": "einem ball", "the water": "dem wasser",
           "a red car": "einem roten auto", "the beach": "dem strand", "a small dog": "einem kleinen hund"}
ENDINGS = {".": ".", " outside .": " draußen .", " today .": " heute ."}


def _sentence(words: str) -> str:
    return (words[0].upper() + words[1:]).replace(" .", ".")


def _multi30k() -> DatasetDict:
    import random
    rng = random.Random(30)
    splits = DatasetDict()
    for split, size in (("train", 240), ("validation", 40), ("test", 20)):
        rows = []
        for _ in range(size):
            s, v, o, e = (rng.choice(list(table)) for table in (SUBJECTS, VERBS, OBJECTS, ENDINGS))
            en, de = f"{s} {v} {o}{e}", f"{SUBJECTS[s]} {VERBS[v]} {OBJECTS[o]}{ENDINGS[e]}"
            rows.append({"en": _sentence(en), "de": _sentence(de)})
        splits[split] = Dataset(rows)
    return splits


def _load_dataset(name: str, split=("train", "test")):
    if name == "bentrevett/multi30k":
        return _multi30k()
    from corpus_imdb import IMDB
    sets = {s: Dataset([{"text": text, "label": label - 1} for label, text in IMDB(split=s)])
            for s in ("train", "test")}
    return sets[split] if isinstance(split, str) else [sets[s] for s in split]


hf_datasets = types.SimpleNamespace(load_dataset=_load_dataset, Dataset=Dataset)

_BASIC_ENGLISH = [(r"\'", " '  "), (r"\"", ""), (r"\.", " . "), (r"<br \/>", " "), (r",", " , "), (r"\(", " ( "),
                  (r"\)", " ) "), (r"\!", " ! "), (r"\?", " ? "), (r"\;", " "), (r"\:", " "), (r"\s+", " ")]


def _basic_english(line: str) -> list:
    line = line.lower()
    for pattern, replacement in _BASIC_ENGLISH:
        line = re.sub(pattern, replacement, line)
    return line.split()


def get_tokenizer(name: str):
    if name != "basic_english":
        raise ValueError(f"corpus_more_text has no tokenizer {name!r}")
    return _basic_english


class _Token:
    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


class _Language:
    def tokenizer(self, text: str) -> list:
        return [_Token(t) for t in re.findall(r"\w+|[^\w\s]", text)]


spacy = types.SimpleNamespace(load=lambda name: _Language())


def _ngrams(tokens: list, n: int) -> collections.Counter:
    return collections.Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


class _Bleu:
    def compute(self, predictions, references, tokenizer=str.split, max_order: int = 4) -> dict:
        matches, possible = [0] * max_order, [0] * max_order
        pred_len = ref_len = 0
        for prediction, refs in zip(predictions, references):
            pred, refs = tokenizer(prediction), [tokenizer(r) for r in refs]
            pred_len, ref_len = pred_len + len(pred), ref_len + min(len(r) for r in refs)
            for n in range(1, max_order + 1):
                merged = collections.Counter()
                for r in refs:
                    merged |= _ngrams(r, n)
                overlap = _ngrams(pred, n) & merged
                matches[n - 1] += sum(overlap.values())
                possible[n - 1] += max(len(pred) - n + 1, 0)
        precisions = [m / p if p > 0 else 0.0 for m, p in zip(matches, possible)]
        geo = math.exp(sum(math.log(p) for p in precisions) / max_order) if min(precisions) > 0 else 0.0
        ratio = pred_len / ref_len
        penalty = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio) if ratio > 0 else 0.0
        return {"bleu": geo * penalty, "precisions": precisions, "brevity_penalty": penalty,
                "length_ratio": ratio, "translation_length": pred_len, "reference_length": ref_len}


evaluate = types.SimpleNamespace(load=lambda name: _Bleu())


class Vocab:
    def __init__(self, itos: list):
        self.itos, self.stoi, self.default = itos, {t: i for i, t in enumerate(itos)}, None

    def __len__(self) -> int:
        return len(self.itos)

    def __contains__(self, token: str) -> bool:
        return token in self.stoi

    def __getitem__(self, token: str) -> int:
        if token not in self.stoi and self.default is None:
            raise RuntimeError(f"Token {token} not found and default index is not set")
        return self.stoi.get(token, self.default)

    def set_default_index(self, index: int) -> None:
        self.default = index

    def get_itos(self) -> list:
        return list(self.itos)

    def get_stoi(self) -> dict:
        return dict(self.stoi)

    def lookup_indices(self, tokens: list) -> list:
        return [self[t] for t in tokens]

    def lookup_tokens(self, indices: list) -> list:
        return [self.itos[i] for i in indices]


def build_vocab_from_iterator(iterator, min_freq: int = 1, specials=None, special_first: bool = True) -> Vocab:
    counts = collections.Counter(t for tokens in iterator for t in tokens)
    specials = list(specials or [])
    words = [t for t, n in sorted(counts.items(), key=lambda x: (-x[1], x[0])) if n >= min_freq and t not in specials]
    return Vocab(specials + words if special_first else words + specials)


class GloVe:
    dim = 300

    def get_vecs_by_tokens(self, tokens):
        import torch
        rows = [np.zeros(self.dim, np.float32) if t.startswith("<") else
                np.random.default_rng(zlib.crc32(t.encode())).normal(0, 0.4, self.dim).astype(np.float32)
                for t in ([tokens] if isinstance(tokens, str) else tokens)]
        vectors = torch.from_numpy(np.stack(rows))
        return vectors[0] if isinstance(tokens, str) else vectors


torchtext = types.SimpleNamespace(data=types.SimpleNamespace(utils=types.SimpleNamespace(get_tokenizer=get_tokenizer)),
                                  vocab=types.SimpleNamespace(build_vocab_from_iterator=build_vocab_from_iterator,
                                                              GloVe=GloVe))


def make_classification(n_samples=100, n_features=20, *, n_informative=2, n_redundant=2, n_classes=2,
                        class_sep=1.0, shuffle=True, random_state=None):
    rng = np.random.RandomState(random_state)
    centroids = (rng.randint(2, size=(n_classes, n_informative)) * 2 - 1) * class_sep
    y = np.arange(n_samples) % n_classes
    informative = centroids[y] + rng.standard_normal((n_samples, n_informative))
    redundant = informative @ (2 * rng.uniform(size=(n_informative, n_redundant)) - 1)
    noise = rng.standard_normal((n_samples, n_features - n_informative - n_redundant))
    X = np.hstack([informative, redundant, noise])
    if shuffle:
        rows = rng.permutation(n_samples)
        X, y = X[rows][:, rng.permutation(n_features)], y[rows]
    return X, y


class FakeData:
    def __init__(self, size=1000, image_size=(3, 224, 224), num_classes=10, transform=None, target_transform=None,
                 random_offset=0):
        self.size, self.image_size, self.num_classes, self.offset = size, image_size, num_classes, random_offset

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int):
        import torch
        generator = torch.Generator().manual_seed(index + self.offset)
        image = torch.sigmoid(torch.randn(*self.image_size, generator=generator))
        label = torch.randint(0, self.num_classes, size=(1,), dtype=torch.long, generator=generator)[0]
        return image, int(label)


def load_boston(*, return_X_y=False):
    rng = np.random.RandomState(506)
    X = rng.gamma(2.0, 2.0, size=(506, 13))
    y = X @ rng.uniform(-1, 1, size=13) + 22 + rng.normal(0, 2, size=506)
    return (X, y) if return_X_y else types.SimpleNamespace(data=X, target=y)


class KFold:
    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        self.n_splits, self.shuffle, self.random_state = n_splits, shuffle, random_state

    def split(self, X, y=None, groups=None):
        n = len(X)
        indices = np.arange(n)
        if self.shuffle:
            (np.random.mtrand._rand if self.random_state is None else np.random.RandomState(self.random_state)).shuffle(
                indices)
        sizes = np.full(self.n_splits, n // self.n_splits)
        sizes[:n % self.n_splits] += 1
        start = 0
        for size in sizes:
            test = indices[start:start + size]
            mask = np.zeros(n, dtype=bool)
            mask[test] = True
            yield np.arange(n)[~mask], test
            start += size


class Accelerator:
    device = "cpu"

    def prepare(self, *objects):
        return objects if len(objects) != 1 else objects[0]

    def backward(self, loss, **kwargs):
        loss.backward(**kwargs)


def binarized_mnist(path: str) -> None:
    rng = np.random.default_rng(784)
    prototypes = rng.random((10, 784)) < 0.25
    def rows(n):
        labels = rng.integers(0, 10, size=n)
        on = np.where(prototypes[labels], rng.random((n, 784)) < 0.8, rng.random((n, 784)) < 0.05)
        return on.astype(np.float32)
    np.savez(path, train_data=rows(500), valid_data=rows(200))
