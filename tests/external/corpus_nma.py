"""Stand-ins for Neuromatch Academy's Deep Learning course notebooks (``recipes_nma.py``; our code, committed).

``install()`` (the first line of each notebook's script) puts what the notebooks import for their videos, feedback
gadgets and sliders in ``sys.modules``: ``ipywidgets``, ``vibecheck``, ``evaltools.airtable`` and ``datatops`` are
``Gadget``s, which accept any call, attribute, ``with`` block or decorator and draw nothing (a decorated slider
function is not called, as in a notebook nobody touches). They are not installed, so no other script's import of
them changes. It first empties the script's folder of what an earlier run wrote there. The data stand-ins below
replace the course's downloads with seeded noise of the same shapes.
"""

from __future__ import annotations

import io
import math
import os
import re
import shutil
import sys
import types

import numpy as np
import torch  # the runner's torch: core under the alias, or PyTorch
from corpus_support import FakeCIFAR10, FakeFashionMNIST, FakeMNIST


class Gadget:
    """A widget, video player or feedback form: every attribute and call is another Gadget; it prints nothing."""

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Gadget()

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:  # ``@widgets.interact`` on a function
            return args[0]
        return Gadget()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self) -> str:
        return "Gadget()"


class _GadgetModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Gadget


def install() -> None:
    _clean_folder()
    for name in ("ipywidgets", "ipywidgets.widgets", "vibecheck", "evaltools", "evaltools.airtable", "datatops"):
        if name not in sys.modules:
            module = _GadgetModule(name)
            module.__path__ = []
            sys.modules[name] = module
    sys.modules["ipywidgets"].widgets = sys.modules["ipywidgets.widgets"]
    sys.modules["ipywidgets"].interact = sys.modules["ipywidgets"].interactive = _interact


def _clean_folder() -> None:
    """Empty the script's folder but for ``script.py``: the notebooks' download cells open their files before the
    download fails (``requests`` is a stub), and a file one run left would send the other run down the cell's
    already-downloaded branch (core's run is first, torch's second)."""
    here = os.getcwd()
    if not os.path.basename(here).startswith("nma_") or not os.path.isfile("script.py"):
        return
    for entry in os.listdir(here):
        if entry != "script.py":
            path = os.path.join(here, entry)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)


def _interact(*args, **kwargs):
    """``@widgets.interact(...)``: the decorated function is returned uncalled (nobody moves the slider)."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda function: function


class FakeEMNIST(FakeMNIST):
    """EMNIST's ``letters`` split: 28x28 images, labels 1-26 in turn (its class 0, 'N/A', is never a label), so the
    tutorial's X-versus-O subset (labels 24 and 15) has images."""

    classes = ["N/A", *"abcdefghijklmnopqrstuvwxyz"]

    def __init__(self, root=None, split="letters", train=True, transform=None, download=False, **kwargs):
        super().__init__(root, train, transform, download, **kwargs)
        self.targets = torch.arange(len(self.targets)) % 26 + 1
        self.split = split


class BalancedFashionMNIST(FakeFashionMNIST):
    """``corpus_support``'s Fashion-MNIST with labels 0-9 in turn: the tutorial keeps T-shirts and shirts (0 and 6)
    and splits the test images 80/20, which needs a count of them divisible by 5, as the real set's 2000 is."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.targets = torch.arange(len(self.targets)) % 10


class FakeImageFolder:
    """``torchvision.datasets.ImageFolder`` over one of the course's image sets, as seeded noise: the animal faces
    (``afhq*``: cat, dog, wild at 32x32, 14630 train and 1500 val images as the tutorials' ``random_split`` sizes
    need) or a small 3-class set of 64x64 images for any other folder. Items are ``(3xHxW float tensor in [-1, 1],
    label)``, what ``ToTensor`` and ``Normalize(0.5, 0.5)`` give; each is drawn from a generator seeded by its
    index, so a dataset of thousands costs nothing until read. The transform (a stub) is not applied."""

    sizes = (14630, 1500)  # the animal faces' training and validation images

    def __init__(self, root, transform=None, target_transform=None, **kwargs):
        root = str(root)
        afhq = "afhq" in root
        self.classes = ["cat", "dog", "wild"] if afhq else ["class_a", "class_b", "class_c"]
        self.class_to_idx = {name: i for i, name in enumerate(self.classes)}
        self.size = 32 if afhq else 64
        n = self.sizes[root.rstrip("/").endswith("val")] if afhq else 60
        self.seed = 3 if root.rstrip("/").endswith("val") else 4
        self.targets = [i % len(self.classes) for i in range(n)]
        self.samples = self.imgs = [(f"{root}/{self.classes[t]}/{i}.png", t) for i, t in enumerate(self.targets)]
        self.root, self.transform, self.target_transform = root, transform, target_transform

    def __len__(self) -> int:
        return len(self.targets)

    def __getitem__(self, i):
        rng = np.random.default_rng((self.seed, int(i)))
        image = torch.from_numpy(rng.random((3, self.size, self.size), dtype=np.float32) * 2 - 1)
        label = self.targets[i]
        return image, (self.target_transform(label) if self.target_transform else label)


class SmallImageFolder(FakeImageFolder):
    """``FakeImageFolder`` with 600 training and 200 validation animal faces, for a tutorial that trains on them all
    (and needs no ``random_split`` of the full set's size)."""

    sizes = (600, 200)


DATASETS = types.SimpleNamespace(MNIST=FakeMNIST, CIFAR10=FakeCIFAR10, FashionMNIST=BalancedFashionMNIST,
                                 EMNIST=FakeEMNIST, ImageFolder=FakeImageFolder)
"""``torchvision.datasets`` as the notebooks use it: the seeded stand-ins of ``corpus_support`` and the above."""


YELP_WORDS = ("the food was great and the service slow but friendly we will come back again never "
              "terrible rude staff loved pizza burger price cheap expensive clean dirty place").split()


def yelp_dataset(train: int = 64, test: int = 32) -> dict:
    """The Yelp review set's two splits as seeded stand-in reviews of 5-20 words with labels 0-4 (a dict of
    ``{'text': [...], 'label': [...]}`` per split, read as the notebooks read ``DATASET['test']['text'][28]``)."""
    rng = np.random.default_rng(5)
    splits = {}
    for name, n in (("train", train), ("test", test)):
        texts = [" ".join(rng.choice(YELP_WORDS, size=rng.integers(5, 21))) for _ in range(n)]
        splits[name] = {"text": texts, "label": [int(v) for v in rng.integers(0, 5, size=n)]}
    return splits


def yelp_loaders(dataset: dict, vocab_size: int = 28996, max_length: int = 128, batch_size: int = 32):
    """``load_yelp_data(DATASET, tokenizer)``'s loaders with a stand-in tokenizer: each review's words as seeded ids
    below BERT's cased vocabulary size, padded with 0 to ``max_length`` (BERT's 512, shortened), batches of
    ``{'input_ids', 'label'}``; returns what the notebook's function returns, its ``max_len`` and ``num_classes``
    (the batch's length, as the notebook computes them) included."""
    ids = {word: 1000 + 97 * i for i, word in enumerate(YELP_WORDS)}
    loaders = []
    for name in ("train", "test"):
        items = []
        for text, label in zip(dataset[name]["text"], dataset[name]["label"]):
            tokens = [101, *(ids[w] for w in text.split()), 102][:max_length]
            tokens += [0] * (max_length - len(tokens))
            items.append({"input_ids": torch.tensor(tokens), "label": torch.tensor(label)})
        loaders.append(torch.utils.data.DataLoader(items, batch_size=batch_size))
    max_len = next(iter(loaders[0]))["input_ids"].shape[0]
    num_classes = next(iter(loaders[0]))["label"].shape[0]
    return loaders[0], loaders[1], max_len, vocab_size, num_classes


class trange:  # tqdm's name
    """``tqdm.notebook.trange``: ``range(*args)`` that draws no bar; ``set_description`` and the rest do nothing (the
    runner's tqdm stub has no ``trange``, and its stand-in would iterate two stubs)."""

    def __init__(self, *args, **kwargs):
        self.range = range(*args)

    def __iter__(self):
        return iter(self.range)

    def __len__(self) -> int:
        return len(self.range)

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


MOVI_JOINTS = ["Pelvis", "LeftHip", "RightHip", "Spine1", "LeftKnee", "RightKnee", "Spine2", "LeftAnkle", "RightAnkle",
               "Spine3", "LeftFoot", "RightFoot", "Neck", "LeftCollar", "RightCollar", "Head", "LeftShoulder",
               "RightShoulder", "LeftElbow", "RightElbow", "LeftWrist", "RightWrist", "LeftHand", "RightHand"]
MOVI_MOVES = ["crawling", "throw/catch", "walking", "running_in_spot", "cross_legged_sitting", "hand_clapping",
              "scratching_head", "kicking", "phone_talking", "sitting_down", "checking_watch", "pointing",
              "hand_waving", "taking_photo"]


def movi_response():
    """The example project's ``requests.get`` of its MoVi joint-angle file: a response whose ``content`` is an
    ``.npz`` with the file's arrays and shapes (1032 training and 172 test moves, 48 channels for 24 joints, 75
    frames, 14 labels) as seeded noise."""
    rng = np.random.default_rng(6)
    buffer = io.BytesIO()
    np.savez(buffer, train_moves=rng.standard_normal((1032, 48, 75)), train_labels=np.arange(1032) % 14,
             test_moves=rng.standard_normal((172, 48, 75)), test_labels=np.arange(172) % 14,
             label_names=np.array(MOVI_MOVES), joint_names=np.array(MOVI_JOINTS))
    return types.SimpleNamespace(status_code=200, content=buffer.getvalue())


def shuffle(*arrays):
    """``sklearn.utils.shuffle`` (scikit-learn is not installed): the arrays indexed by one permutation from NumPy's
    global generator (scikit-learn's recipe, not its numbers)."""
    order = np.random.permutation(len(arrays[0]))
    shuffled = [array[order] for array in arrays]
    return shuffled if len(shuffled) > 1 else shuffled[0]


def correlate2d(in1, in2, mode="valid"):
    """``scipy.signal.correlate2d`` in its ``valid`` mode, the one the convnets tutorial checks against (SciPy is not
    installed): each output is the sum of the kernel times the window it covers."""
    if mode != "valid":
        raise NotImplementedError("the stand-in has only mode='valid'")
    in1, in2 = np.asarray(in1), np.asarray(in2)
    rows, cols = in1.shape[0] - in2.shape[0] + 1, in1.shape[1] - in2.shape[1] + 1
    return np.array([[(in1[i:i + in2.shape[0], j:j + in2.shape[1]] * in2).sum() for j in range(cols)]
                     for i in range(rows)])


SCIPY = types.SimpleNamespace(signal=types.SimpleNamespace(correlate2d=correlate2d))
"""``scipy`` as the convnets tutorial imports it: ``scipy.signal.correlate2d``."""


class multivariate_normal:  # scipy.stats' name
    """``scipy.stats.multivariate_normal(mean, cov)`` for the diffusion tutorial's Gaussian mixture (SciPy is not
    installed): ``pdf`` by its formula and ``rvs(n)`` from NumPy's global generator, as SciPy draws them."""

    def __init__(self, mean, cov):
        self.mean, self.cov = np.asarray(mean, dtype=float), np.asarray(cov, dtype=float)
        self.prec = np.linalg.inv(self.cov)
        self.norm = 1.0 / np.sqrt((2 * np.pi) ** len(self.mean) * np.linalg.det(self.cov))

    def pdf(self, x):
        d = np.asarray(x, dtype=float) - self.mean
        return self.norm * np.exp(-0.5 * np.einsum("...i,ij,...j->...", d, self.prec, d))

    def rvs(self, size=1):
        return np.random.multivariate_normal(self.mean, self.cov, size)


def report(namespace: dict) -> None:
    """Our last cell (a driver): every ``nn.Module`` and floating tensor the notebook left in its globals, in name
    order, each parameter or tensor as its shape, the exact sum of its values (``math.fsum`` in float64) and its
    first three values in full, so a difference in the last bit of any trained weight shows (the notebooks print
    rounded metrics). Modules are reported once, under their first name."""
    seen = set()
    for name in sorted(namespace):
        value = namespace[name]
        if name.startswith("_") or id(value) in seen:
            continue
        if isinstance(value, torch.nn.Module):
            seen.add(id(value))
            print(f"report {name}: {type(value).__name__}")
            for key, tensor in list(value.named_parameters()) + list(value.named_buffers()):
                _print_tensor(f"  {key}", tensor)
        elif isinstance(value, torch.Tensor) and value.is_floating_point():
            seen.add(id(value))
            _print_tensor(f"report {name}", value)


def _print_tensor(label: str, tensor) -> None:
    values = tensor.detach().reshape(-1).tolist()
    if not tensor.is_floating_point():
        print(f"{label} {tuple(tensor.shape)} {tensor.dtype} sum {sum(values)}")
        return
    try:
        total = repr(math.fsum(values))
    except (ValueError, OverflowError):  # inf and -inf, or nan
        total = repr(sum(values))
    print(f"{label} {tuple(tensor.shape)} {tensor.dtype} fsum {total} first {values[:3]!r}")


AG_NEWS_LABELS = ["World", "Sports", "Business", "Sci/Tech"]
AG_NEWS_WORDS = [  # a few words for each class, and words of the tutorial's own example text
    "government minister election war president talks peace", "team game season win coach players match",
    "company shares market profit oil prices stocks", "software internet computer space study research web",
    "the a of to in and on for with at four days ago was his way which round wind better lead tour"]


def fasttext_vec(path: str, dim: int = 300) -> None:
    """fastText's ``wiki.simple.vec`` as the NLP tutorial reads it (a header line, then a word and ``dim`` values a
    line, a final newline), for the stand-in vocabulary with seeded vectors."""
    rng = np.random.default_rng(7)
    words = sorted({word for group in AG_NEWS_WORDS for word in group.split()})
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"{len(words)} {dim}\n")
        for word in words:
            f.write(word + " " + " ".join(f"{v:.4f}" for v in rng.standard_normal(dim)) + "\n")


class _Encoding:
    def __init__(self, ids):
        self.ids = ids


class _WordLevel:
    def __init__(self, vocab, unk_token):
        self.vocab, self.unk = vocab, vocab[unk_token]


class _Tokenizer:
    """Hugging Face ``tokenizers.Tokenizer`` over a ``WordLevel`` model, with the BERT normalizer (lower case) and
    pre-tokenizer (words and punctuation apart) the tutorial sets: ``encode(text).ids``, ``encode_batch``."""

    def __init__(self, model):
        self.model, self.normalizer, self.pre_tokenizer = model, None, None

    def encode(self, text):
        words = re.findall(r"\w+|[^\w\s]", text.lower())
        return _Encoding([self.model.vocab.get(word, self.model.unk) for word in words])

    def encode_batch(self, texts):
        return [self.encode(text) for text in texts]


TOKENIZERS = types.SimpleNamespace(
    Tokenizer=_Tokenizer, models=types.SimpleNamespace(WordLevel=_WordLevel),
    normalizers=types.SimpleNamespace(BertNormalizer=Gadget),
    pre_tokenizers=types.SimpleNamespace(BertPreTokenizer=Gadget))
"""The Hugging Face ``tokenizers`` names the NLP tutorial uses (the package is not installed)."""


class _Rows:
    """A Hugging Face ``Dataset`` as the NLP tutorial uses it: rows as dicts, ``map(f, batched=True)`` adding f's
    columns, ``features['label'].names``, ``train_test_split(train_size, seed)`` (a NumPy permutation: the recipe,
    not Hugging Face's numbers)."""

    def __init__(self, columns: dict):
        self.columns = columns
        self.features = {"label": types.SimpleNamespace(names=AG_NEWS_LABELS)}

    def __len__(self) -> int:
        return len(self.columns["label"])

    def __getitem__(self, i):
        return {name: values[i] for name, values in self.columns.items()}

    def map(self, function, batched=False):
        return _Rows({**self.columns, **function(self.columns)})

    def select(self, indices):
        return _Rows({name: [values[i] for i in indices] for name, values in self.columns.items()})

    def train_test_split(self, train_size=0.7, seed=None):
        order = np.random.default_rng(seed).permutation(len(self))
        cut = int(train_size * len(self))
        return {"train": self.select(order[:cut].tolist()), "test": self.select(order[cut:].tolist())}


class _Splits(dict):
    def map(self, function, batched=False):
        return _Splits({name: rows.map(function, batched) for name, rows in self.items()})


def ag_news(train: int = 256, test: int = 64) -> dict:
    """AG News' two splits as seeded headlines of 6-16 words, most from their class's words (label 0-3)."""
    rng = np.random.default_rng(8)
    groups = [group.split() for group in AG_NEWS_WORDS]
    splits = _Splits()
    for name, n in (("train", train), ("test", test)):
        labels = [int(v) for v in rng.integers(0, 4, size=n)]
        texts = [" ".join(rng.choice(groups[label] + groups[4], size=rng.integers(6, 17))) for label in labels]
        splits[name] = _Rows({"text": texts, "label": labels})
    return splits
