"""Stand-ins the recipes' edits put where a corpus script downloads data (our code, committed).

``fake_mnist(...)`` (and ``fake_cifar10``, 3x32x32) takes ``torchvision.datasets.MNIST``'s arguments and returns a small
dataset of seeded NumPy noise with MNIST's shapes and dtypes (uint8 28x28 images, int64 labels) and its old and
new attribute names, so a script's shapes, prints and training loop run as written; items are
``(float tensor 1x28x28 in [0, 1], int label)``, what ``transforms.ToTensor()`` gives.
"""

from __future__ import annotations

import types

import numpy as np
import torch  # the runner's torch: core under the alias, or PyTorch

TRAIN, TEST = 300, 100


class FakeMNIST:
    shape = (28, 28)
    classes = ["0 - zero", "1 - one", "2 - two", "3 - three", "4 - four", "5 - five", "6 - six", "7 - seven",
               "8 - eight", "9 - nine"]  # torchvision's names

    def __init__(self, root=None, train=True, transform=None, download=False, size=None, **kwargs):
        n = size or (TRAIN if train else TEST)
        rng = np.random.default_rng(1 if train else 2)
        self.data = torch.from_numpy(rng.integers(0, 256, size=(n, *self.shape), dtype=np.uint8))
        self.targets = torch.from_numpy(rng.integers(0, 10, size=n).astype(np.int64))
        self.train_data = self.test_data = self.data
        self.train_labels = self.test_labels = self.targets
        self.train = train  # torchvision's datasets keep which split they are

    @property
    def class_to_idx(self) -> dict:
        return {name: i for i, name in enumerate(self.classes)}

    def __len__(self) -> int:
        return self.data.shape[0]

    def __getitem__(self, i):
        image = self.data[i].float() / 255.0
        return (image.unsqueeze(0) if image.ndim == 2 else image), int(self.targets[i])


class FakeCIFAR10(FakeMNIST):
    shape = (3, 32, 32)  # channels first, what ToTensor gives
    classes = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.targets = self.targets.tolist()  # torchvision's CIFAR10 keeps its labels in a list of ints


def fake_mnist(*args, **kwargs) -> FakeMNIST:
    return FakeMNIST(*args, **kwargs)


def fake_mnist_small(*args, train=True, **kwargs) -> FakeMNIST:
    """``fake_mnist`` with 32 training and 8 test images, for scripts whose model is slow in core."""
    return FakeMNIST(*args, train=train, size=32 if train else 8, **kwargs)


def fake_cifar10(*args, **kwargs) -> FakeCIFAR10:
    return FakeCIFAR10(*args, **kwargs)


class FakeMNIST32(FakeMNIST):
    shape = (32, 32)


def fake_cifar10_small(*args, train=True, **kwargs) -> FakeCIFAR10:
    """``fake_cifar10`` with 32 training and 16 test images, for a script whose network is slow in core."""
    return FakeCIFAR10(*args, train=train, size=32 if train else 16, **kwargs)


def fake_mnist_32(*args, train=True, **kwargs) -> FakeMNIST:
    """``fake_mnist`` with 32x32 images (a GAN script's ``transforms.Resize(32)``, a stub, then ToTensor), 16 training
    and 8 test images: convolutional GANs at full width are slow in core."""
    return FakeMNIST32(*args, train=train, size=16 if train else 8, **kwargs)


class FakeSuperResolution:
    """Pairs like pytorch/examples' BSDS300 super-resolution set: a seeded random 1x24x24 luminance crop as the
    target and its ``upscale_factor``-times smaller block average as the input (the real set resizes photos)."""

    def __init__(self, upscale_factor: int, size: int, seed: int):
        rng = np.random.default_rng(seed)
        crop = 24 - 24 % upscale_factor
        self.targets = rng.random((size, 1, crop, crop), dtype=np.float32)
        small = crop // upscale_factor
        blocks = self.targets.reshape(size, 1, small, upscale_factor, small, upscale_factor)
        self.inputs = blocks.mean(axis=(3, 5), dtype=np.float32)

    def __len__(self) -> int:
        return len(self.targets)

    def __getitem__(self, i):
        return torch.from_numpy(self.inputs[i].copy()), torch.from_numpy(self.targets[i].copy())


def fake_super_resolution_train(upscale_factor):
    return FakeSuperResolution(upscale_factor, 32, seed=1)


def fake_super_resolution_test(upscale_factor):
    return FakeSuperResolution(upscale_factor, 8, seed=2)


def _tiny_vgg(widths):
    nn = torch.nn
    layers, channels = [], 3
    for width in widths:
        if width == "M":
            layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
        else:
            conv = nn.Conv2d(channels, width, kernel_size=3, padding=1)
            nn.init.kaiming_normal_(conv.weight, nonlinearity="relu")  # trained VGG's activations keep their scale
            layers += [conv, nn.ReLU(inplace=True)]
            channels = width
    return nn.Sequential(*layers)


def tiny_vgg19_features():
    """``torchvision.models.vgg19(pretrained=True).features``'s layout (37 layers: its convolutions, ReLUs and max
    pools at the same indices, so a style-transfer script's ``conv1_1`` ... ``conv5_1`` picks are conv layers) with
    a sixteenth of its channels and He-initialised weights (the trained ones are a download)."""
    return _tiny_vgg((4, 4, "M", 8, 8, "M", 16, 16, 16, 16, "M", 32, 32, 32, 32, "M", 32, 32, 32, 32, "M"))


def tiny_vgg16_features():
    """``torchvision.models.vgg16(...).features``'s 31-layer layout, as ``tiny_vgg19_features``."""
    return _tiny_vgg((4, 4, "M", 8, 8, "M", 16, 16, 16, "M", 32, 32, 32, "M", 32, 32, 32, "M"))


def use_tiny_vgg16(vgg_module) -> None:
    """A script's ``vgg.py`` (fast neural style's ``Vgg16``) builds ``tiny_vgg16_features`` where it asks torchvision
    for VGG-16 with ImageNet weights: its ``models`` becomes a namespace with that ``vgg16``."""
    weights = types.SimpleNamespace(IMAGENET1K_V1="IMAGENET1K_V1")
    vgg_module.models = types.SimpleNamespace(VGG16_Weights=weights,
                                              vgg16=lambda weights=None: types.SimpleNamespace(
                                                  features=tiny_vgg16_features()))


class FakeFashionMNIST(FakeMNIST):
    """FashionMNIST's shapes and class names; a ``target_transform`` (the runner's real ``Lambda``) is applied."""

    classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
               "Ankle boot"]

    def __init__(self, root=None, train=True, transform=None, target_transform=None, download=False, **kwargs):
        super().__init__(root, train, transform, download, **kwargs)
        self.target_transform = target_transform

    def __getitem__(self, i):
        image, label = super().__getitem__(i)
        return image, (self.target_transform(label) if self.target_transform else label)


def fake_fashion_mnist(*args, **kwargs) -> FakeFashionMNIST:
    return FakeFashionMNIST(*args, **kwargs)


class FakeFashionMNIST64(FakeFashionMNIST):
    shape = (64, 64)


def fake_fashion_mnist_64(*args, **kwargs) -> FakeFashionMNIST:
    """``fake_fashion_mnist`` with 64x64 images: a notebook's ``transforms.Resize(64)`` (a stub) then ToTensor."""
    return FakeFashionMNIST64(*args, **kwargs)


def fake_fashion_mnist_small(*args, train=True, **kwargs) -> FakeFashionMNIST:
    """``fake_fashion_mnist`` with 32 training and 32 test images, for scripts whose model is slow in core."""
    return FakeFashionMNIST(*args, train=train, size=32, **kwargs)


class FixedTimer:
    """``torch.utils.benchmark.Timer``'s stand-in: reports a fixed time without running ``stmt`` (timings differ
    from run to run, and the statements repeat what the script ran before; a recipe's edit imports it)."""

    def __init__(self, stmt="pass", setup="pass", globals=None, **kwargs):
        self.stmt = stmt

    def timeit(self, number=1000000):
        return FixedMeasurement(self.stmt)

    blocked_autorange = adaptive_autorange = timeit


class FixedMeasurement:
    times = [1.0]
    mean = median = 1.0

    def __init__(self, stmt):
        self.stmt = stmt

    def __repr__(self) -> str:
        return f"<Measurement: {self.stmt}: 1 s (a fixed stand-in time)>"


def fake_mnist_pickle():
    """``mnist.pkl.gz``'s content ("What is torch.nn really?"): ``((x_train, y_train), (x_valid, y_valid), None)``,
    float32 rows of 784 pixels in [0, 1) (multiples of 1/256, as the real file's) and int64 labels. Like MNIST's,
    the images are mostly dark and their labels learnable (each class lights its own seeded set of pixels, plus
    sparse noise), so the tutorial's training at lr 0.5 converges instead of amplifying rounding."""
    templates = np.random.default_rng(0).random((10, 784)) < 0.12
    parts = []
    for n, seed in ((TRAIN, 1), (TEST, 2)):
        rng = np.random.default_rng(seed)
        y = rng.integers(0, 10, size=n)
        ink = templates[y] * rng.integers(128, 256, size=(n, 784))
        noise = (rng.random((n, 784)) < 0.03) * rng.integers(0, 256, size=(n, 784))
        parts.append(((np.maximum(ink, noise) / 256).astype(np.float32), y.astype(np.int64)))
    return parts[0], parts[1], None


class FakeTorchviz:
    """``torchviz``'s stand-in (a recipe's edit binds it to the name): ``make_dot`` prints the tensors whose graph it
    would draw, each with its ``grad_fn``, instead of drawing the graph."""

    @staticmethod
    def make_dot(var, params=None, **kwargs):
        for t in var if isinstance(var, (tuple, list)) else (var,):
            print("make_dot:", t, t.grad_fn)


def fake_german_credit():
    """``np.loadtxt("german.data-numeric")``'s stand-in (Statlog German Credit, numeric form): 1000 rows of 24 integer
    features and a label column of 1s and 2s, float64 as ``loadtxt`` reads them. Seeded; the label follows a fixed
    linear rule of the features plus noise, so a logistic regression learns something."""
    rng = np.random.default_rng(3)
    features = rng.integers(0, 5, size=(1000, 24)) * rng.integers(1, 12, size=24)
    score = (features - features.mean(0)) / features.std(0) @ rng.normal(size=24) + rng.normal(size=1000)
    return np.column_stack([features, 1 + (score > 0.5)]).astype(np.float64)


class SilentWriter:
    """``SummaryWriter``'s stand-in for notebooks that show its methods' results: every method takes anything and
    returns None (torch's run has no tensorboard package, so its writer is the runner's stub, whose results print
    as ``<stub>``; core's writer would be fed the stub images of ``torchvision.utils.make_grid``)."""

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


class _Frame:
    """What a notebook reads of a ``pandas.read_csv`` table: ``.iloc[rows, columns]`` (NumPy's slicing)."""

    def __init__(self, values):
        self.iloc = values


def fake_fashion_csv(path) -> _Frame:
    """Kaggle's ``fashion-mnist_train.csv`` / ``_test.csv`` as ``pd.read_csv`` gives them: a label column (0-9) and
    784 pixel columns (0-255), int64; seeded, 256 training rows (one batch of the handbook's 256) or 100 test rows."""
    train = "train" in str(path)
    rng = np.random.default_rng(11 if train else 12)
    n = 256 if train else 100
    return _Frame(np.column_stack([rng.integers(0, 10, n), rng.integers(0, 256, (n, 784))]).astype(np.int64))


class _Table:
    """A ``pandas.DataFrame``'s rows as a notebook reads them: ``len(df)`` and ``df.iloc[i].Column`` (NumPy scalars)."""

    def __init__(self, columns: dict):
        self.columns = columns
        self.iloc = self

    def __len__(self) -> int:
        return len(next(iter(self.columns.values())))

    def __getitem__(self, i):
        return type("Row", (), {name: values[i] for name, values in self.columns.items()})()


def fake_bulldozer_csv(path) -> _Table:
    """Kaggle's Blue Book for Bulldozers ``median_benchmark.csv`` (the handbook's Dataset demo): SalesID and SalePrice
    (float64) for 100 sales, seeded."""
    rng = np.random.default_rng(13)
    return _Table({"SalesID": np.arange(1222837, 1222937), "SalePrice": rng.integers(50, 1000, 100) * 100.0})


class _AverageValueMeter:
    """``torchnet.meter.AverageValueMeter``: the running mean and (sample) standard deviation of added values."""

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        self.values = []

    def add(self, value, n: int = 1) -> None:
        self.values.extend([float(value)] * n)

    def value(self) -> tuple:
        if not self.values:
            return float("nan"), float("nan")
        mean = sum(self.values) / len(self.values)
        var = sum((v - mean) ** 2 for v in self.values) / max(len(self.values) - 1, 1)
        return mean, var ** 0.5


class FakeMeters:
    """``from torchnet import meter``'s stand-in (torchnet is not installed): the meters the pytorch-book uses."""

    AverageValueMeter = _AverageValueMeter


POEM_CHARS = "春江花月夜凉如水闲云潭影日悠悠细雨鱼儿出微风燕子斜深度学习山高望远白首归来明朝清秋落叶"


def fake_poems(opt):
    """The pytorch-book's ``tang.npz`` (``get_data(opt)``): 32 seeded 'poems' of 24 characters and punctuation from a
    small vocabulary, each as <START> ... <EOP> left-padded with </s> to ``opt.maxlen`` ids (int32, as the book's
    pad_sequences gives), with its word2ix and ix2word."""
    words = sorted(set(POEM_CHARS)) + ["，", "。", ",", "<EOP>", "<START>", "</s>"]  # "," is in its prefix_words
    word2ix = {w: i for i, w in enumerate(words)}
    ix2word = dict(enumerate(words))
    rng = np.random.default_rng(17)
    data = np.full((32, opt.maxlen), word2ix["</s>"], dtype=np.int32)
    for row in data:
        body = []
        for line in range(4):
            body += list(rng.choice(list(POEM_CHARS), 5)) + ["，" if line % 2 == 0 else "。"]
        poem = ["<START>"] + body + ["<EOP>"]
        row[-len(poem):] = [word2ix[w] for w in poem]
    return data, word2ix, ix2word
