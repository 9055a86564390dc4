"""``core.optim``: PyTorch's optimizers and learning-rate schedulers, with identical update rules."""

from core.optim import lr_scheduler  # noqa: F401
from core.optim.adam import Adam, AdamW  # noqa: F401
from core.optim.adam_variants import Adamax, NAdam, RAdam  # noqa: F401
from core.optim.adaptive import Adadelta, Adagrad, RMSprop  # noqa: F401
from core.optim.lbfgs import LBFGS  # noqa: F401
from core.optim.optimizer import Optimizer  # noqa: F401
from core.optim.rprop_asgd import ASGD, Rprop  # noqa: F401
from core.optim.sgd import SGD  # noqa: F401

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "LBFGS", "Adamax", "NAdam", "RAdam",
           "Rprop", "ASGD", "lr_scheduler"]
