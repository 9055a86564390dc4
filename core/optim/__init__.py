"""``core.optim``: PyTorch's optimizers and learning-rate schedulers, with identical update rules.

As in PyTorch, the package's namespace holds the classes, ``lr_scheduler``, ``swa_utils`` and the private
modules PyTorch leaves there; the modules the classes are defined in are importable but not attributes
(``dir(torch.optim)`` is printed by tutorials, and it must read the same).
"""

from core.nn import _module_paths
from core.optim import _functional as _functional
from core.optim import _stateless as _stateless
from core.optim import lr_scheduler, swa_utils
from core.optim._adafactor import Adafactor
from core.optim._muon import Muon
from core.optim._stateless import swap_in_optimizer_params_and_state
from core.optim.adam import Adam, AdamW
from core.optim.adam_variants import Adamax, NAdam, RAdam
from core.optim.adaptive import Adadelta, Adagrad, RMSprop
from core.optim.lbfgs import LBFGS
from core.optim.optimizer import Optimizer
from core.optim.rprop_asgd import ASGD, Rprop
from core.optim.sgd import SGD
from core.optim.sparse_adam import SparseAdam

__all__ = ["Adafactor", "Adadelta", "Adagrad", "Adam", "Adamax", "AdamW", "ASGD", "LBFGS", "lr_scheduler", "Muon",
           "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD", "SparseAdam",
           "swap_in_optimizer_params_and_state", "swa_utils"]

del adam, adam_variants, adaptive, lbfgs, optimizer, rprop_asgd, sgd, sparse_adam  # type: ignore[name-defined] # noqa: F821
del _flat_adam, _flat_adaptive, _hooks, _optimizer_helpers, _pointwise, _strong_wolfe, lr_scheduler_more  # type: ignore[name-defined] # noqa: F821
del _lbfgs_functions  # type: ignore[name-defined] # noqa: F821

# PyTorch's class paths (torch.optim.adamw.AdamW, torch.optim.lr_scheduler.LinearLR): core groups them by family
for _name, _classes in (("adadelta", "Adadelta"), ("adagrad", "Adagrad"), ("adamax", "Adamax"), ("adamw", "AdamW"),
                        ("asgd", "ASGD"), ("nadam", "NAdam"), ("radam", "RAdam"), ("rmsprop", "RMSprop"),
                        ("rprop", "Rprop"),
                        ("lr_scheduler", "ChainedScheduler ConstantLR CosineAnnealingWarmRestarts CyclicLR LinearLR "
                                         "MultiplicativeLR PolynomialLR SequentialLR")):
    _module_paths.place_classes(__name__, _name, _classes)
    if _name != "lr_scheduler":  # importable (torch.optim.adamw), not an attribute: dir() reads as torch's
        del globals()[_name]
del _name, _classes, _module_paths
