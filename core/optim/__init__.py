"""``core.optim``: PyTorch's optimizers and learning-rate schedulers, with identical update rules."""

from core.optim import lr_scheduler, swa_utils
from core.optim.adafactor import Adafactor
from core.optim.adam import Adam, AdamW
from core.optim.adam_variants import Adamax, NAdam, RAdam
from core.optim.adaptive import Adadelta, Adagrad, RMSprop
from core.optim.lbfgs import LBFGS
from core.optim.muon import Muon
from core.optim.optimizer import Optimizer
from core.optim.rprop_asgd import ASGD, Rprop
from core.optim.sgd import SGD
from core.optim.sparse_adam import SparseAdam

__all__ = ["Optimizer", "Adafactor", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "LBFGS", "Muon",
           "Adamax", "NAdam", "RAdam", "Rprop", "ASGD", "SparseAdam", "lr_scheduler", "swa_utils"]
