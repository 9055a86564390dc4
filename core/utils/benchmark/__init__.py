"""``torch.utils.benchmark``: ``Timer`` (timeit for tensor code, with warm-up and block sizing), its
``Measurement`` results and the ``Compare`` table, as PyTorch's tutorials use them."""

from core.utils.benchmark.utils.common import (
    Measurement,
    TaskSpec,
    ordered_unique,
    select_unit,
    trim_sigfig,
    unit_to_english,
)
from core.utils.benchmark.utils.compare import Colorize, Compare
from core.utils.benchmark.utils.timer import Language, Timer, timer

__all__ = ["Timer", "Measurement", "TaskSpec", "Language", "Compare", "Colorize", "select_unit", "trim_sigfig",
           "unit_to_english", "ordered_unique", "timer"]
