"""Optimizers, learning-rate schedulers, distribution transforms and the lazy modules' placeholders name PyTorch's
module paths under ``core`` (``type(opt).__module__`` is ``core.optim.adamw`` where torch's is ``torch.optim.adamw``):
state-dict and config tooling prints and saves these names. The placed modules import, pickles of the classes load,
``inspect.getsource`` finds each class and ``dir(core.optim)`` still reads as ``dir(torch.optim)``."""

import importlib
import inspect
import pickle
import subprocess
import sys

import pytest

import core

PLACED = {
    "optim": "Adadelta Adagrad Adam Adamax AdamW ASGD NAdam RAdam RMSprop Rprop SGD SparseAdam LBFGS",
    "optim.lr_scheduler": "ChainedScheduler ConstantLR CosineAnnealingWarmRestarts CyclicLR LinearLR MultiplicativeLR "
                          "PolynomialLR SequentialLR StepLR LambdaLR OneCycleLR",
    "distributions.transforms": "CatTransform CorrCholeskyTransform CumulativeDistributionTransform "
                                "LowerCholeskyTransform PositiveDefiniteTransform StackTransform ExpTransform",
    "nn.parameter": "UninitializedParameter UninitializedBuffer Parameter",
}
CASES = [(where, name) for where, names in PLACED.items() for name in names.split()]


@pytest.mark.parametrize(("where", "name"), CASES, ids=[f"{w}.{n}" for w, n in CASES])
def test_a_class_names_torchs_module_path(torch, where, name):
    ours = getattr(importlib.import_module(f"core.{where}"), name)
    theirs = getattr(importlib.import_module(f"torch.{where}"), name)
    assert ours.__module__ == theirs.__module__.replace("torch", "core", 1)
    assert ours.__qualname__ == theirs.__qualname__
    assert repr(ours) == repr(theirs).replace("torch", "core", 1)
    assert getattr(importlib.import_module(ours.__module__), name) is ours
    assert pickle.loads(pickle.dumps(ours)) is ours
    assert f"class {name}" in inspect.getsource(ours)


def test_an_optimizers_type_reads_as_torchs(torch):
    for lib in (core, torch):
        opt = lib.optim.AdamW([lib.zeros(2, requires_grad=True)], lr=0.1)
        sched = lib.optim.lr_scheduler.LinearLR(opt)
        assert f"{type(opt).__module__}.{type(opt).__qualname__}" == f"{lib.__name__}.optim.adamw.AdamW"
        assert type(sched).__module__ == f"{lib.__name__}.optim.lr_scheduler"


def test_optim_dir_is_torchs_and_the_placed_modules_import(torch):
    assert sorted(dir(core.optim)) == sorted(n for n in dir(torch.optim))
    from core.optim.adamw import AdamW
    from core.optim.rmsprop import RMSprop

    assert AdamW is core.optim.AdamW and RMSprop is core.optim.RMSprop


def test_a_pickled_optimizer_class_loads_in_a_fresh_process():
    data = pickle.dumps([core.optim.NAdam, core.optim.lr_scheduler.CyclicLR, core.nn.parameter.UninitializedBuffer])
    code = "import pickle, sys; print([c.__module__ for c in pickle.loads(sys.stdin.buffer.read())])"
    out = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, check=True).stdout
    assert out.decode().strip() == "['core.optim.nadam', 'core.optim.lr_scheduler', 'core.nn.parameter']"


@pytest.mark.parametrize("name", ["finfo", "iinfo", "memory_format", "Generator", "PyTorchFileReader"])
def test_a_top_level_class_names_torchs_path(torch, name):
    ours, theirs = getattr(core, name), getattr(torch, name)
    assert repr(ours) == repr(theirs).replace("torch", "core", 1)
    assert pickle.loads(pickle.dumps(ours)) is ours


def test_top_level_objects_pickle_and_copy():
    assert pickle.loads(pickle.dumps(core.channels_last)) is core.channels_last
    assert type(pickle.loads(pickle.dumps(core.Generator().manual_seed(3)))) is core.Generator
    assert pickle.loads(pickle.dumps(core.finfo(core.float32))).eps == core.finfo(core.float32).eps
