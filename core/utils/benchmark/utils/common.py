"""``torch.utils.benchmark.utils.common``: what a timing was of (``TaskSpec``) and its result (``Measurement``).

A ``Measurement`` holds the raw times of its blocks (each of ``number_per_run`` runs); its median, mean and
quartiles are computed as PyTorch's (linear-interpolation quantiles), and its repr has PyTorch's layout.
"""

from __future__ import annotations

import dataclasses
import math
import textwrap

import numpy as np

__all__ = ["TaskSpec", "Measurement", "select_unit", "unit_to_english", "trim_sigfig", "ordered_unique"]

_MAX_SIGNIFICANT_FIGURES = 4
_MIN_CONFIDENCE_INTERVAL = 25e-9  # 25 ns
_IQR_WARN_THRESHOLD = 0.1
_IQR_GROSS_WARN_THRESHOLD = 0.25


@dataclasses.dataclass(init=True, repr=False, eq=True, frozen=True)
class TaskSpec:
    """What a Timer times (everything but its globals)."""

    stmt: str
    setup: str
    global_setup: str = ""
    label: str | None = None
    sub_label: str | None = None
    description: str | None = None
    env: str | None = None
    num_threads: int = 1

    @property
    def title(self) -> str:
        if self.label is not None:
            return self.label + (f": {self.sub_label}" if self.sub_label else "")
        if "\n" not in self.stmt:
            return self.stmt + (f": {self.sub_label}" if self.sub_label else "")
        return f"stmt:{f' ({self.sub_label})' if self.sub_label else ''}\n{textwrap.indent(self.stmt, '  ')}"

    def setup_str(self) -> str:
        if self.setup == "pass" or not self.setup:
            return ""
        return f"setup:\n{textwrap.indent(self.setup, '  ')}" if "\n" in self.setup else f"setup: {self.setup}"

    def summarize(self) -> str:
        sections = [self.title, self.description or "", self.setup_str()]
        return "\n".join([f"{s}\n" if "\n" in s else s for s in sections if s])


_TASKSPEC_FIELDS = tuple(f.name for f in dataclasses.fields(TaskSpec))


@dataclasses.dataclass(init=True, repr=False)
class Measurement:
    """The times of one statement: ``raw_times`` of blocks of ``number_per_run`` runs each."""

    number_per_run: int
    raw_times: list
    task_spec: TaskSpec
    metadata: dict | None = None

    def __post_init__(self) -> None:
        self._sorted_times: tuple = ()
        self._warnings: tuple = ()
        self._median = self._mean = self._p25 = self._p75 = -1.0

    def __getattr__(self, name: str):
        if name in _TASKSPEC_FIELDS:
            return getattr(self.task_spec, name)
        return super().__getattribute__(name)

    @property
    def times(self) -> list:
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def median(self) -> float:
        self._lazy_init()
        return self._median

    @property
    def mean(self) -> float:
        self._lazy_init()
        return self._mean

    @property
    def iqr(self) -> float:
        self._lazy_init()
        return self._p75 - self._p25

    @property
    def significant_figures(self) -> int:
        """About how many digits of the median the spread of the middle half supports (1 to 4)."""
        self._lazy_init()
        n = len(self._sorted_times)
        middle = self._sorted_times[n // 4:math.ceil(3 * n / 4)]
        interval = max(1.645 * float(np.std(middle)) / math.sqrt(len(middle)), _MIN_CONFIDENCE_INTERVAL)
        return min(max(int(math.floor(math.log10(self._median / interval))), 1), _MAX_SIGNIFICANT_FIGURES)

    @property
    def has_warnings(self) -> bool:
        self._lazy_init()
        return bool(self._warnings)

    def _lazy_init(self) -> None:
        if not self.raw_times or self._sorted_times:
            return
        self._sorted_times = tuple(sorted(self.times))
        values = np.array(self._sorted_times, dtype=np.float64)
        self._median, self._p25, self._p75 = (float(np.quantile(values, q)) for q in (0.5, 0.25, 0.75))
        self._mean = float(values.mean())
        for threshold, what in ((_IQR_GROSS_WARN_THRESHOLD, "This suggests significant environmental influence."),
                                (_IQR_WARN_THRESHOLD, "This could indicate system fluctuation.")):
            if not self.meets_confidence(threshold):
                self._warnings += (f"  WARNING: Interquartile range is {self.iqr / self.median * 100:.1f}% "
                                   f"of the median measurement.\n           {what}",)
                break

    def meets_confidence(self, threshold: float = _IQR_WARN_THRESHOLD) -> bool:
        return self.iqr / self.median < threshold

    @property
    def title(self) -> str:
        return self.task_spec.title

    @property
    def as_row_name(self) -> str:
        return self.sub_label or self.stmt or "[Unknown]"

    def __repr__(self) -> str:
        self._lazy_init()
        n = len(self._sorted_times)
        unit, scale = select_unit(self._median)
        lines = [object.__repr__(self), self.task_spec.summarize(),
                 f"  {'Median: ' if n > 1 else ''}{self._median / scale:.2f} {unit}"]
        if n >= 4:
            low, high = self._p25 / scale, self._p75 / scale
            lines.append(f"  IQR:    {self.iqr / scale:.2f} {unit} ({low:.2f} to {high:.2f})")
        lines.append(f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs "
                     f"{'per measurement,' if n > 1 else ','} {self.num_threads} thread"
                     f"{'s' if self.num_threads > 1 else ''}")
        lines.extend(self._warnings)
        return "\n".join(lines).strip()  # a multi-line setup's section keeps its blank line, as torch's

    @staticmethod
    def merge(measurements) -> list:
        """Measurements of the same task pooled into one each (their blocks rescaled to one run each)."""
        grouped: dict = {}
        for m in measurements:
            grouped.setdefault(m.task_spec, []).append(m)
        merged = []
        for spec, group in grouped.items():
            times = [t for m in group for t in m.times]
            merged.append(Measurement(number_per_run=1, raw_times=times, task_spec=spec, metadata=None))
        return merged


def select_unit(t: float) -> tuple:
    """The unit (ns, us, ms or s) that shows ``t`` seconds as a number of order one, and its scale."""
    unit = {-3: "ns", -2: "us", -1: "ms"}.get(int(math.log10(t) // 3), "s")
    return unit, {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[unit]


def unit_to_english(u: str) -> str:
    return {"ns": "nanosecond", "us": "microsecond", "ms": "millisecond", "s": "second"}[u]


def trim_sigfig(x: float, n: int) -> float:
    """``x`` rounded to ``n`` significant figures (3.14159, 2 -> 3.1)."""
    if n != int(n):
        raise AssertionError("Number of significant figures must be an integer")
    # NOTE: PyTorch computes this on float32 tensors; the same float32 steps give its digits
    scale = 10 ** (int(np.ceil(np.log10(np.abs(np.float32(x))))) - n)
    return float(np.round(np.float32(x / scale)) * np.float32(scale))


def ordered_unique(elements) -> list:
    return list(dict.fromkeys(elements))
