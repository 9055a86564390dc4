"""Run corpus scripts under one library and print what each printed, as JSON on the last line.

``python runner.py core|torch SCRIPT...``: with ``core``, ``import torch`` (and ``torch.nn``,
``from torch.utils.data import ...``) resolves to ``core`` through an import alias, so the scripts
run unchanged. Each script runs as ``__main__`` in a fresh namespace with its own folder on
``sys.path`` and as working directory; global state scripts set (default dtype, grad mode, print
options, seeds: torch's, NumPy's and Python's) is reset before each script. ``matplotlib`` and
``torchvision`` (and ``IPython``, ``torchtext``, ``tqdm``, ``PIL``, which textbooks' helper modules import)
are stubbed in both runs (plots draw nothing; dataset downloads are replaced by the recipes' edits). A script whose
folder holds torchvision's own Python package (``recipes_torchvision.py``) gets that package instead of the stub.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import io
import json
import os
import random
import runpy
import shutil
import sys
import time
import traceback
import types
from collections.abc import Iterable

import numpy as np


class _Stub(types.ModuleType):
    """A module whose every attribute is a callable stub returning another stub (plots, transforms)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _StubObject()


class _StubObject:
    def __call__(self, *args, **kwargs):
        return _StubObject()

    def __getattr__(self, name):
        if name in ("__torch_function__", "__torch_dispatch__"):  # not a tensor-like: torch.stack([t, stub]) raises
            raise AttributeError(name)
        return _StubObject()

    def __iter__(self):  # ``fig, ax = plt.subplots()`` unpacks two
        return iter((_StubObject(), _StubObject()))

    def __getitem__(self, key):
        return _StubObject()

    def __setitem__(self, key, value):  # ``plt.rcParams['figure.figsize'] = ...``
        pass

    def __repr__(self) -> str:
        return "<stub>"

    def _arithmetic(self, other):  # ``img / 2 + 0.5`` on a stub image (``torchvision.utils.make_grid``)
        return _StubObject()

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _arithmetic


class _Compose:
    """``torchvision.transforms.Compose``: applies its transforms in order (a tutorial composes its own classes)."""

    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x


class _Lambda:
    """``torchvision.transforms.Lambda``: applies its function (one-hot labels in the basics tutorials)."""

    def __init__(self, lambd):
        self.lambd = lambd

    def __call__(self, x):
        return self.lambd(x)


def _to_tensor(pic):
    """``torchvision.transforms.functional.to_tensor`` for an array-like image (fake_hf_datasets' images): C x H x W,
    uint8 pixels as floats divided by 255."""
    torch = importlib.import_module("torch")  # the run's torch: core under the alias, or PyTorch
    array = np.asarray(pic)
    if array.dtype == object:  # a stub PIL image
        return _StubObject()
    array = array[:, :, None] if array.ndim == 2 else array
    image = torch.from_numpy(np.ascontiguousarray(array.transpose(2, 0, 1)))
    return image.to(dtype=torch.get_default_dtype()).div(255) if array.dtype == np.uint8 else image


def _install_stubs() -> None:
    for name in ("matplotlib", "matplotlib.pyplot", "matplotlib.cm", "matplotlib.animation", "matplotlib.ticker",
                 "torchvision", "torchvision.transforms", "torchvision.datasets", "torchvision.utils",
                 "torchvision.models", "IPython", "IPython.display", "torchtext", "torchtext.vocab", "tqdm", "PIL",
                 "PIL.Image", "requests", "torchvision.io", "pandas", "IPython.core", "IPython.core.debugger",
                 "matplotlib_inline", "matplotlib_inline.backend_inline", "scipy.spatial",  # d2l imports these
                 "mpl_toolkits", "mpl_toolkits.mplot3d", "matplotlib.pylab", "matplotlib.patches",
                 "matplotlib.collections", "matplotlib.lines", "matplotlib.colors"):
        stub = _Stub(name)
        stub.__path__ = []
        stub.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
        sys.modules[name] = stub
    sys.modules["tiktoken"] = importlib.import_module("fake_tiktoken")  # GPT-2's tokenizer needs the network
    for name in ("sklearn", "sklearn.datasets", "sklearn.model_selection", "sklearn.preprocessing",
                 "sklearn.metrics", "sklearn.linear_model", "sklearn.svm"):  # not installed
        sys.modules[name] = importlib.import_module("fake_sklearn")
    for part in ("datasets", "model_selection", "preprocessing", "metrics"):  # ``from sklearn import datasets``
        setattr(sys.modules["sklearn"], part, sys.modules["sklearn"])
    sys.modules["torchmetrics"] = importlib.import_module("fake_torchmetrics")
    for name in ("pytorch_lightning", "pytorch_lightning.callbacks"):  # the UvA notebooks' plain-torch cells
        sys.modules[name] = importlib.import_module("fake_lightning")
    for name in ("fastcore", "fastcore.all", "fastcore.test", "fastcore.basics"):  # fast.ai's course22p2
        sys.modules[name] = importlib.import_module("fake_fastcore")
    sys.modules["datasets"] = importlib.import_module("fake_hf_datasets")  # Hugging Face's, downloads its data
    sys.modules["fastprogress"] = importlib.import_module("fake_fastprogress")
    sys.modules["torcheval"] = sys.modules["torcheval.metrics"] = importlib.import_module("fake_torcheval")
    sys.modules.update(importlib.import_module("fake_labml").modules())  # labml_nn's experiment/tracker/configs
    functional = sys.modules["torchvision.transforms.functional"] = _Stub("torchvision.transforms.functional")
    functional.to_tensor = _to_tensor
    sys.modules["torchvision.transforms"].functional = functional
    nltk = sys.modules["nltk"] = importlib.import_module("fake_nltk")  # its tokenizer downloads punkt
    sys.modules["nltk.stem"], sys.modules["nltk.stem.porter"] = nltk.stem, nltk.stem.porter
    for name in ("mlxtend", "mlxtend.plotting"):
        sys.modules[name] = _Stub(name)
    sys.modules["mlxtend"].__version__ = "0.23.1"  # a course notebook checks it before plotting a confusion matrix
    sys.modules["torchvision"].__version__ = "0.28.0+cpu"  # course notebooks print it (the stub has no metadata)
    sys.modules["tqdm.auto"] = _Stub("tqdm.auto")
    sys.modules["tqdm.notebook"] = _Stub("tqdm.notebook")  # the UvA notebooks' progress bars
    bar = importlib.import_module("fake_stand_ins").Bar  # draws nothing; iterates, counts, and ``write`` prints
    for name in ("tqdm", "tqdm.auto", "tqdm.notebook"):
        sys.modules[name].tqdm, sys.modules[name].trange = bar, bar.trange
    sys.modules["tqdm"].auto, sys.modules["tqdm"].notebook = sys.modules["tqdm.auto"], sys.modules["tqdm.notebook"]
    colors = sys.modules["matplotlib.colors"]  # a colour is a tuple of floats (the UvA notebooks make tensors of it)
    colors.to_rgba, colors.to_rgb = (lambda c, alpha=None: (0.0, 0.0, 0.0, 1.0)), (lambda c: (0.0, 0.0, 0.0))
    sys.modules["torchvision.transforms"].Lambda = _Lambda  # a target_transform the stand-in datasets apply
    sys.modules["torchvision.transforms"].Compose = _Compose
    sys.modules["torchvision"].transforms = sys.modules["torchvision.transforms"]  # ``torchvision.transforms.Compose``


class _TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``torch`` and ``torch.X`` load as ``core`` and ``core.X``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "torch" or fullname.startswith("torch."):
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        target = "core" + spec.name[len("torch"):]
        module = importlib.import_module(target)
        # the submodules it loaded answer as torch's loaded ones: a later `import torch.optim.sgd` finds it in
        # sys.modules, as in torch, instead of making it an attribute of torch.optim (dir(torch.optim) is printed)
        for name, inner in list(sys.modules.items()):
            if name.startswith(target + "."):
                sys.modules.setdefault("torch" + name[len("core"):], inner)
        return module

    def exec_module(self, module):
        pass


_TORCHVISION_COMMIT = "8fb87713a24951e639c494b0f2a8a81b5f8e33a6"  # recipes_torchvision's pin (the v0.28.0 release)
_TORCHVISION_KEPT = ("torchvision.datasets", "torchvision.io")  # stubs still (datasets download; io decodes in C++)


_PIL_PARTS = ("PIL", "PIL.Image", "PIL.ImageDraw", "PIL.ImageColor", "PIL.ImageFont", "PIL.ImageEnhance",
              "PIL.ImageOps")


def _pil_without_images() -> dict:
    """Pillow's modules as torchvision imports them, with no image: ``Image.Image`` and ``ImageDraw.ImageDraw`` are
    classes (torchvision tests ``isinstance(x, Image.Image)`` and subclasses ``ImageDraw``), the rest stubs."""
    modules = {name: _Stub(name) for name in _PIL_PARTS}
    modules["PIL"].__version__ = "11.0.0"
    modules["PIL"].__path__ = []
    modules["PIL.Image"].Image = type("Image", (), {"__module__": "PIL.Image"})
    modules["PIL.ImageDraw"].ImageDraw = type("ImageDraw", (), {"__module__": "PIL.ImageDraw"})
    for name in _PIL_PARTS[1:]:
        setattr(modules["PIL"], name[4:], modules[name])
    return modules


def _with_filename(code: types.CodeType, path: str) -> types.CodeType:
    """``code`` (and the functions and classes compiled inside it) as if compiled from ``path``."""
    consts = tuple(_with_filename(c, path) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=path, co_consts=consts)


class _SharedCodeLoader(importlib.machinery.SourceFileLoader):
    """Loads a torchvision (or timm) module from its file, compiling each distinct source once per run: every such
    script has its own copy of the package (torchvision's 120 files take 0.7 s to compile, timm's 260 files 1.5 s:
    no .pyc is written here), and the code of an identical file is reused under this file's name."""

    codes: dict[bytes, types.CodeType] = {}

    def source_to_code(self, data, path, *, _optimize=-1):  # type: ignore[override]
        key = hashlib.sha256(data).digest()
        if key not in self.codes:
            self.codes[key] = compile(data, path, "exec", dont_inherit=True)
        return _with_filename(self.codes[key], path)


class _FetchedFinder(importlib.abc.MetaPathFinder):
    """Finds the ``packages`` named (torchvision and timm, transformers, kornia...) and their modules in one script's
    folder, loaded by ``_SharedCodeLoader``."""

    def __init__(self, folder: str, packages: tuple[str, ...]):
        self.folder, self.packages = folder, packages

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] not in self.packages:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, [self.folder] if path is None else path)
        if spec is not None and type(spec.loader) is importlib.machinery.SourceFileLoader:
            spec.loader = _SharedCodeLoader(fullname, spec.origin)
        return spec


_SHARED_PACKAGES = ("torchvision", "timm")  # timm's scripts (recipes_timm.py) hold torchvision's package too


@contextlib.contextmanager
def _real_torchvision(folder: str):
    """Where a script's folder holds torchvision's own Python package (fetched beside it, ``recipes_torchvision.py``),
    ``import torchvision`` loads that package instead of the stub, in both runs. What needs its compiled extension
    stays out: ``_meta_registrations``/``_autograd_registrations`` (which register ``torch.ops.torchvision``'s C++
    kernels) are empty modules, ``datasets`` and ``io`` stay stubs, and Pillow's modules are stubs whose
    ``Image.Image`` is a class no image is an instance of (Pillow is not installed: the transforms take tensors).
    ``version``, which torchvision's setup writes (it is not in the repository), says 0.28.0+cpu. Its ``extension``
    module runs as it is and finds no ``_C`` library (``_has_ops()`` is False, as in a torchvision built without its
    C++ ops)."""
    if not os.path.isfile(os.path.join(folder, "torchvision", "__init__.py")):
        yield
        return
    saved = {n: m for n, m in sys.modules.items() if n == "torchvision" or n.startswith("torchvision.")}
    for name in saved:
        if name not in _TORCHVISION_KEPT:
            del sys.modules[name]
    for name in ("torchvision._meta_registrations", "torchvision._autograd_registrations"):
        sys.modules[name] = types.ModuleType(name)
    version = sys.modules["torchvision.version"] = types.ModuleType("torchvision.version")  # setup.py writes it
    version.__version__, version.git_version, version.cuda = "0.28.0+cpu", _TORCHVISION_COMMIT, None
    saved_pil = {n: sys.modules.get(n) for n in _PIL_PARTS}
    sys.modules.update(_pil_without_images())
    finder = _FetchedFinder(folder, _SHARED_PACKAGES)
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if n == "torchvision" or n.startswith("torchvision.")]:
            del sys.modules[name]
        sys.modules.update(saved)
        for name, module in saved_pil.items():
            if module is None:
                del sys.modules[name]
            else:
                sys.modules[name] = module


@contextlib.contextmanager
def _real_transformers(folder: str):
    """Where a script's folder holds Hugging Face transformers' own Python package (``recipes_hf.py``), it is loaded
    from there in both runs (each file compiled once per run), with ``fake_hf_hub``'s stand-ins for what it imports
    and is not installed (``huggingface_hub``, ``safetensors``, ``tokenizers``, ``regex``, ``requests.exceptions``) and
    their package metadata, which transformers checks at import. Afterwards they are all taken out again."""
    if not any(os.path.isfile(os.path.join(folder, package, "__init__.py")) for package in ("transformers",
                                                                                              "diffusers")):
        yield  # (diffusers' scripts, recipes_peft.py, get the Hub's stand-ins too)
        return
    fake = importlib.import_module("fake_hf_hub")
    stand_ins = fake.modules(folder)
    saved = {name: sys.modules.get(name) for name in stand_ins}
    sys.modules.update(stand_ins)
    finders = [_FetchedFinder(folder, ("transformers",)), fake.MetadataFinder()]
    sys.meta_path[:0] = finders
    try:
        yield
    finally:
        for finder in finders:
            sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if n.partition(".")[0] == "transformers"]:
            del sys.modules[name]
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


_FETCHED_PACKAGES = ("kornia", "torchmetrics", "lightning_utilities",  # recipes_kornia's support packages
                     "lightning", "accelerate",  # recipes_lightning's
                     "peft", "diffusers",  # recipes_peft's
                     "torch_geometric")  # recipes_pyg's
_STAND_INS: set[str] = set()  # the module names _install_stubs put in sys.modules (main records them)
_FETCHED_PACKAGES += ("gpytorch", "linear_operator")  # recipes_gpytorch's (the stand-ins stay: its notebooks plot)
_FETCHED_PACKAGES += ("botorch", "multipledispatch")  # recipes_botorch's (gpytorch, pyro: as above)


def _datapipe_functions() -> list:
    """torch's DataPipe classes with their registered functional names (``IterDataPipe.functions``), as they are now.

    PyG's ``data/datapipes.py`` registers ``batch_graphs`` and friends with ``functional_datapipe``, which refuses a
    name already taken; each script imports the package afresh, so the registry is put back after it (core has no
    DataPipes: PyG's fallback decorator registers nothing)."""
    data = sys.modules.get("torch.utils.data")
    classes = [getattr(data, name, None) for name in ("IterDataPipe", "MapDataPipe")]
    return [(cls, dict(cls.functions)) for cls in classes if isinstance(getattr(cls, "functions", None), dict)]


@contextlib.contextmanager
def _fetched_packages(folder: str):
    """Where a script's folder holds kornia's, torchmetrics' or lightning_utilities' own package (fetched beside it,
    ``recipes_kornia.py``), those load from it in both runs (each source compiled once per run), and the runner's
    stand-ins (matplotlib, tqdm, the torchvision stub, ``fake_torchmetrics``...) leave ``sys.modules`` while the
    script runs: torchmetrics asks ``find_spec`` which optional packages exist (``RequirementCache("matplotlib")``),
    and none of them is installed here. ``kornia_rs``, kornia's compiled image I/O that ``kornia.io`` imports, is an
    empty module: reading or writing an image file fails, nothing else uses it."""
    present = tuple(name for name in _FETCHED_PACKAGES if os.path.isfile(os.path.join(folder, name, "__init__.py")))
    if not present:
        yield
        return
    kept = ("torchvision", "PIL") if os.path.isfile(os.path.join(folder, "torchvision", "__init__.py")) else ()
    if any(os.path.isfile(os.path.join(folder, p, "__init__.py")) for p in ("transformers", "diffusers")):  # peft's:
        kept += ("requests",)  # transformers imports the runner's requests stub (fake_hf_hub adds its exceptions)
    if {"gpytorch", "linear_operator"} & set(present):  # recipes_gpytorch's notebooks plot: the stand-ins stay, but not
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"scipy", "tqdm", "sklearn"})  # (its fakes)
    if "pyro" in present:  # recipes_pyro's tutorials plot and import pandas: the stand-ins stay (Pyro probes none)
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"tqdm"})  # but tqdm (fake_pyro_deps')
    if "opacus" in present:  # recipes_opacus' examples use tqdm and torchvision's stub: the stand-ins stay but scipy
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"scipy"})  # (fake_opacus_deps')
    if "torchaudio" in present:  # recipes_torchaudio's tutorials plot and show IPython's Audio: the stand-ins stay
        kept += tuple({name.partition(".")[0] for name in _STAND_INS})  # (torchaudio probes none of them)
    if "captum" in present:  # Captum's visualisation imports matplotlib and its tests tqdm: the stand-ins stay
        kept += tuple({name.partition(".")[0] for name in _STAND_INS})
    if "ignite" in present:  # recipes_ignite's examples use the torchvision stub: the stand-ins stay, but tqdm
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"tqdm"})  # (fake_ignite_deps')
    if {"einx", "MEGABYTE_pytorch"} & set(present):  # recipes_lucidrains{,2}': the stand-ins stay, but tqdm
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"tqdm"})  # (fake_lucidrains_deps')
    if "torchcam" in present:  # torchcam.utils imports Pillow and matplotlib at module level: the stand-ins stay
        kept += tuple({name.partition(".")[0] for name in _STAND_INS})
    if "snntorch" in present:  # snntorch.spikeplot imports matplotlib and pandas at module level: the stand-ins stay
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"tqdm"})  # but tqdm (fake_snntorch_deps')
    if {"backpack", "geomloss"} & set(present):  # their examples plot with matplotlib: the stand-ins stay
        kept += tuple({name.partition(".")[0] for name in _STAND_INS})
    if "zuko" in present:  # recipes_zuko's tutorials plot with matplotlib: the stand-ins stay (zuko probes none)
        kept += tuple({name.partition(".")[0] for name in _STAND_INS})
    if "piq" in present:  # piq's perceptual module imports torchvision's models: the stand-ins stay (piq probes none)
        kept += tuple({name.partition(".")[0] for name in _STAND_INS})
    if "kan" in present:  # pykan plots with matplotlib: the stand-ins stay, but tqdm, sklearn (fake_kan_deps')
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"tqdm", "sklearn"})
    if "deepxde" in present:  # DeepXDE imports matplotlib at module level: the stand-ins stay, but its fakes'
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"scipy", "sklearn"})  # (fake_deepxde_deps)
    if "tensorly" in present:  # recipes_tensorly's examples plot with matplotlib: the stand-ins stay, but SciPy
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"scipy"})  # (fake_tensorly_deps')
    if "kymatio" in present:  # recipes_kymatio's example plots with matplotlib: the stand-ins stay, but SciPy
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"scipy"})  # (fake_sci_deps')
    if {"torchmin", "torchjd", "julius"} & set(present):  # pytorch-minimize's examples plot, TorchJD's tests import
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"scipy"})  # torchvision (SciPy: fake_pmin)
    if {"higher", "learn2learn"} & set(present):  # recipes_meta: the stand-ins stay (tqdm, requests, lightning
        kept += tuple({name.partition(".")[0] for name in _STAND_INS} - {"scipy"})  # for learn2learn) but SciPy's
    if "botorch" in present:  # recipes_botorch's SciPy is fake_botorch_deps' (pyro's branch keeps the stub's)
        kept = tuple(name for name in kept if name != "scipy")
    hidden = {name: sys.modules.pop(name) for name in sorted(_STAND_INS)  # (_real_torchvision's own stay)
              if name in sys.modules and name.partition(".")[0] not in kept}
    sys.modules["kornia_rs"] = types.ModuleType("kornia_rs")
    for name in _PIL_PARTS if kept else ():  # torchmetrics asks find_spec("PIL"), which wants a spec
        if sys.modules.get(name) is not None and getattr(sys.modules[name], "__spec__", None) is None:
            sys.modules[name].__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=name == "PIL")
    deps = importlib.import_module("fake_lightning_deps").modules("accelerate" in present) \
        if {"lightning", "accelerate"} & set(present) else {}  # yaml, tqdm, psutil, the Hub: not installed here
    if "diffusers" in present:  # recipes_peft's: tqdm, and Pillow's modules with no image (imported at module level)
        deps.update({**importlib.import_module("fake_lightning_deps").modules(), **_pil_without_images()})
        for name in _PIL_PARTS:  # (its import_utils asks find_spec which packages exist)
            deps[name].__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=name == "PIL")
    if {"gpytorch", "linear_operator"} & set(present):  # recipes_gpytorch's: scipy, sklearn and tqdm
        deps.update(importlib.import_module("fake_gpytorch_deps").modules())
    if "botorch" in present:  # recipes_botorch's: SciPy, threadpoolctl, pyre_extensions (fake_botorch_deps)
        deps.update(importlib.import_module("fake_botorch_deps").modules())
    if {"backpack", "geomloss"} & set(present):  # memlab, memory_profiler, tabulate, KernelDensity, no pykeops
        deps.update(importlib.import_module("fake_backpack_deps").modules())
    if "torch_geometric" in present:  # recipes_pyg's: xxhash, tqdm, psutil, requests (fake_pyg_deps)
        deps.update(importlib.import_module("fake_pyg_deps").modules())
    if "pyro" in present:  # a progress bar with the attributes pyro.infer.mcmc uses (fake_pyro_deps)
        deps.update(importlib.import_module("fake_pyro_deps").modules())
    if "ignite" in present:  # ProgressBar's tqdm.autonotebook, the examples' tqdm.write (fake_ignite_deps)
        deps.update(importlib.import_module("fake_ignite_deps").modules())
    if "geoopt" in present:  # scipy.optimize's line searches, which geoopt.optim imports (fake_pruning_deps)
        deps.update(importlib.import_module("fake_pruning_deps").modules())
    if "opacus" in present:  # recipes_opacus': SciPy's few functions its accountants call (fake_opacus_deps)
        deps.update(importlib.import_module("fake_opacus_deps").modules())
    if "monai" in present:  # parameterized and the released wheel's monai._version (fake_monai_deps)
        deps.update(importlib.import_module("fake_monai_deps").modules())
    if "stable_baselines3" in present:  # recipes_sb3's: pandas and matplotlib.figure (fake_sb3_deps)
        deps.update(importlib.import_module("fake_sb3_deps").modules())
    if {"e3nn", "torchsde"} & set(present):  # recipes_e3nn's: trampoline and SciPy's find_peaks (fake_e3nn_deps)
        deps.update(importlib.import_module("fake_e3nn_deps").modules())
    if "torchdyn" in present:  # recipes_seq's: pytorch_lightning, attr, SciPy's and sklearn's names (fake_seq_deps)
        deps.update(importlib.import_module("fake_seq_deps").modules())
    if "segmentation_models_pytorch" in present:  # recipes_smp's: the Hub with its model mixin, safetensors, tqdm
        deps.update(importlib.import_module("fake_smp_deps").modules())
    if "lightly" in present:  # recipes_lightly's: its version check, pytest-mock, Pillow's image (fake_lightly_deps)
        deps.update(importlib.import_module("fake_lightly_deps").modules())
    if "open_clip" in present:  # recipes_openclip's: ftfy, regex, the Hub, safetensors, tqdm (fake_openclip_deps)
        deps.update(importlib.import_module("fake_openclip_deps").modules())
    if {"einx", "MEGABYTE_pytorch"} & set(present):  # frozendict (einx's), fire, tqdm, beartype (fake_lucidrains_deps)
        deps.update(importlib.import_module("fake_lucidrains_deps").modules())
    if "tianshou" in present:  # recipes_tianshou's: numba, sensai, overrides, deepdiff... (fake_tianshou_deps)
        deps.update(importlib.import_module("fake_tianshou_deps").modules())
    if "torchattacks" in present:  # recipes_torchattacks': the few SciPy names it imports (fake_torchattacks_deps)
        deps.update(importlib.import_module("fake_torchattacks_deps").modules())
    if "skrl" in present:  # recipes_skrl's: tqdm, tensorboard's event writer printing scalars (fake_skrl_deps)
        deps.update(importlib.import_module("fake_skrl_deps").modules())
    if "snntorch" in present:  # recipes_snntorch's: matplotlib's gridspec, figure, artist; tqdm (fake_snntorch_deps)
        deps.update(importlib.import_module("fake_snntorch_deps").modules())
    if "deepxde" in present:  # recipes_deepxde's: SciPy, scikit-learn, scikit-optimize (fake_deepxde_deps)
        deps.update(importlib.import_module("fake_deepxde_deps").modules())
    if "tensorly" in present:  # recipes_tensorly's: SciPy's special, optimize, linalg and io (fake_tensorly_deps)
        deps.update(importlib.import_module("fake_tensorly_deps").modules())
    if "piq" in present:  # recipes_piq's: scikit-image's imread and PSNR, TensorFlow unused (fake_piq_deps)
        deps.update(importlib.import_module("fake_piq_deps").modules())
    if "kan" in present:  # recipes_kan's: yaml, tqdm, scikit-learn's regressions and clustering (fake_kan_deps)
        deps.update(importlib.import_module("fake_kan_deps").modules())
    if {"torchode", "kymatio"} & set(present):  # torchtyping, SciPy's fft and sph_harm (fake_sci_deps)
        deps.update(importlib.import_module("fake_sci_deps").modules())
    if {"higher", "learn2learn"} & set(present):  # parameterized, learn2learn's Cython and downloads (fake_meta_deps)
        deps.update(importlib.import_module("fake_meta_deps").modules())
    if {"torchmin", "torchjd", "julius"} & set(present):  # SciPy's names, qpsolvers' solve_qp, resampy (fake_pmin_deps)
        deps.update(importlib.import_module("fake_pmin_deps").modules())
    if "sentence_transformers" in present:  # recipes_sbert's: tqdm, SciPy's and sklearn's few names, transformers'
        deps.update({**importlib.import_module("fake_sbert_deps").modules(), **_pil_without_images()})  # Trainer
        for name in _PIL_PARTS:  # (transformers' import_utils asks find_spec("PIL"))
            deps[name].__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=name == "PIL")
    sys.modules.update(deps)
    root = sys.modules["torch"]
    root_name = root.__name__
    if "pyro" in present:  # pyro's torch_patch asserts torch.__name__ == "torch"; the alias's torch is core, named
        root.__name__ = "torch"  # "core" (put back after the script)
    finder = _FetchedFinder(folder, present)
    sys.meta_path.insert(0, finder)
    extra = [importlib.import_module("fake_torchcam_deps").MetadataFinder()] if "torchcam" in present else []
    sys.meta_path.extend(extra)  # recipes_torchcam's: its version, as an installed wheel's metadata gives it
    pipes = _datapipe_functions()
    try:
        yield
    finally:
        root.__name__ = root_name
        sys.meta_path.remove(finder)
        for other in extra:
            sys.meta_path.remove(other)
        for cls, functions in pipes:  # a package loaded again registers its functional DataPipes again (PyG)
            cls.functions.clear()
            cls.functions.update(functions)
        for name in [n for n in sys.modules  # (and a stand-in submodule of a kept stub: matplotlib.gridspec)
                     if n.partition(".")[0] in (*_FETCHED_PACKAGES, "kornia_rs", *deps)
                     or (n in deps and n.partition(".")[0] in kept)]:
            del sys.modules[name]
        sys.modules.update(hidden)


_FETCHED_PACKAGES += ("pyro", "pyroapi", "opt_einsum")  # recipes_pyro's: Pyro and the two packages it imports
_FETCHED_PACKAGES += ("torchaudio", "torio")  # recipes_torchaudio's (without their compiled lib/*.so)
_FETCHED_PACKAGES += ("stable_baselines3", "gymnasium", "cloudpickle")  # recipes_sb3's: SB3 and what it imports
_FETCHED_PACKAGES += ("opacus",)  # recipes_opacus': Opacus' own package
_FETCHED_PACKAGES += ("monai",)  # recipes_monai's (its tests' own tests/test_utils.py loads from the folder as usual)
_FETCHED_PACKAGES += ("ignite",)  # recipes_ignite's: PyTorch-Ignite's own package
_FETCHED_PACKAGES += ("torch_pruning", "geoopt")  # recipes_pruning's: Torch-Pruning and geoopt, their own packages
_FETCHED_PACKAGES += ("e3nn", "opt_einsum_fx", "torchsde")  # recipes_e3nn's (opt_einsum is recipes_pyro's)
_FETCHED_PACKAGES += ("segmentation_models_pytorch",)  # recipes_smp's (timm and torchvision: _SHARED_PACKAGES)
_FETCHED_PACKAGES += ("captum",)  # recipes_captum's and recipes_labml's Captum scripts (the stand-ins stay)
_FETCHED_PACKAGES += ("lightly",)  # recipes_lightly's (timm and torchvision beside it, as smp's)
_FETCHED_PACKAGES += ("open_clip", "open_clip_train")  # recipes_openclip's (timm, torchvision: _SHARED_PACKAGES)
_FETCHED_PACKAGES += ("vector_quantize_pytorch", "einx")  # recipes_lucidrains' (einops loads from the folder as usual)
_FETCHED_PACKAGES += ("tianshou",)  # recipes_tianshou's (gymnasium: recipes_sb3's)
_FETCHED_PACKAGES += ("torchattacks",)  # recipes_torchattacks' (SciPy: fake_torchattacks_deps)
_FETCHED_PACKAGES += ("torchcam",)  # recipes_torchcam's (its version: fake_torchcam_deps)
_FETCHED_PACKAGES += ("skrl", "ncps")  # recipes_skrl's (gymnasium, cloudpickle: recipes_sb3's)
_FETCHED_PACKAGES += ("snntorch",)  # recipes_snntorch's (its spikeplot's matplotlib, pandas: the stubs)
_FETCHED_PACKAGES += ("zuko",)  # recipes_zuko's (NumPy and torch only)
_FETCHED_PACKAGES += ("deepxde",)  # recipes_deepxde's (SciPy, scikit-learn, scikit-optimize: fake_deepxde_deps)
_FETCHED_PACKAGES += ("entmax",)  # recipes_entmax's (torch only)
_FETCHED_PACKAGES += ("tensorly",)  # recipes_tensorly's (SciPy: fake_tensorly_deps)
_FETCHED_PACKAGES += ("x_transformers",)  # recipes_xtransformers' (einx, einops, loguru: recipes_lucidrains')
_FETCHED_PACKAGES += ("MEGABYTE_pytorch",)  # recipes_lucidrains2's MEGABYTE (beartype: fake_lucidrains_deps)
_FETCHED_PACKAGES += ("torchode", "kymatio")  # recipes_torchode's, recipes_kymatio's (fake_sci_deps)
_FETCHED_PACKAGES += ("sentence_transformers",)  # recipes_sbert's (transformers: _real_transformers)
_FETCHED_PACKAGES += ("higher", "learn2learn")  # recipes_meta's (parameterized, Cython parts: fake_meta_deps)
_FETCHED_PACKAGES += ("torchmin", "torchjd", "julius")  # recipes_pmin's, _torchjd's, _julius' (fake_pmin_deps)
_FETCHED_PACKAGES += ("xlstm", "pytorch_tcn", "torchdyn")  # recipes_seq's (torchdyn's deps: fake_seq_deps)
_FETCHED_PACKAGES += ("backpack", "unfoldNd", "geomloss")  # recipes_backpack's, recipes_geomloss' (fake_backpack_deps)
_FETCHED_PACKAGES += ("piq", "kan")  # recipes_piq's (fake_piq_deps), recipes_kan's (fake_kan_deps)


def _reset(lib) -> None:
    lib.set_default_dtype(lib.float32)
    lib.set_grad_enabled(True)
    lib.set_printoptions(profile="default")
    lib.manual_seed(0)
    lib.__future__.set_swap_module_params_on_conversion(False)  # the swap_tensors tutorial turns it on
    lib.__future__.set_overwrite_module_params_on_conversion(False)


_NUMPY_PRINT = np.get_printoptions()


def run_one(lib, path: str) -> str:
    path = os.path.abspath(path)
    out = io.StringIO()
    here = os.getcwd()
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    os.chdir(os.path.dirname(os.path.abspath(path)))
    runs = os.path.join(os.path.dirname(path), "runs")  # skrl's checkpoints, SummaryWriter's default log folder
    had_runs = os.path.isdir(runs)
    _reset(lib)  # an unseeded script draws from seed 0 in both libraries (torch seeds a new process at random)
    random.seed(0)
    np.random.seed(0)
    np.set_printoptions(**_NUMPY_PRINT)  # a script's np.set_printoptions(precision=2) must not reach the next one
    try:
        with contextlib.redirect_stdout(out), _real_torchvision(os.path.dirname(path)), \
                _real_transformers(os.path.dirname(path)), _fetched_packages(os.path.dirname(path)):
            runpy.run_path(path, run_name="__main__")
    except SystemExit:
        pass
    except BaseException as exc:  # the failure is the script's output
        tb = traceback.extract_tb(exc.__traceback__)
        where = next((f"{os.path.basename(f.filename)}:{f.lineno}" for f in reversed(tb)
                      if os.path.abspath(f.filename) == os.path.abspath(path)), "?")
        out.write(f"\nEXCEPTION at {where}: {type(exc).__name__}: {exc}\n")
    finally:
        os.chdir(here)
        sys.path.pop(0)
        if not had_runs:  # NOTE: skrl's examples wrote ~1 GB of checkpoints a run each; runs filled the disk (67 GB)
            shutil.rmtree(runs, ignore_errors=True)
        folder = os.path.dirname(os.path.abspath(path))
        doomed = []  # the script's own helper modules (model.py...) and packages, namespace ones (no __init__) too
        for name, mod in list(sys.modules.items()):  # (found first: a namespace package's path is recomputed from
            search = getattr(mod, "__path__", None)  # its parent's, which must still be there)
            inside = [getattr(mod, "__file__", None) or "", *(search if isinstance(search, Iterable) else [])]
            if any(str(p).startswith(folder + os.sep) for p in inside):  # (torch.classes answers any name)
                doomed.append(name)
        for name in doomed:
            del sys.modules[name]
        _reset(lib)
    return out.getvalue()


def main(argv) -> None:
    which, scripts = argv[0], argv[1:]
    before = set(sys.modules)
    _install_stubs()
    _STAND_INS.update(n for n in set(sys.modules) - before  # stubs and fakes under the names they stand for
                      if isinstance(sys.modules[n], _Stub) or getattr(sys.modules[n], "__name__", n) != n)
    if which == "core":
        sys.meta_path.insert(0, _TorchAlias())
    lib = importlib.import_module("torch")
    if which == "torch" and importlib.util.find_spec("tensorboard") is None:  # torch's writer needs the package
        sys.modules["torch.utils.tensorboard"] = _Stub("torch.utils.tensorboard")  # (core's keeps scalars in memory)
    lib.set_num_threads(1)  # both libraries: arange splits work per thread, and the machine is shared
    results = {}
    for path in scripts:
        start = time.perf_counter()
        text = run_one(lib, path)
        results[path] = {"output": text, "seconds": round(time.perf_counter() - start, 3)}
    sys.stdout.write("\n" + json.dumps(results) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
