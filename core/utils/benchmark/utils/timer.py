"""``torch.utils.benchmark.utils.timer``: ``Timer``, PyTorch's wrapper of ``timeit.Timer``.

It times Python statements (``stmt`` after ``setup``, with ``globals`` plus ``torch``, which is core under
``import core as torch``) in blocks: ``timeit(number)`` one block after a warm-up, ``blocked_autorange`` blocks
sized so the timer's overhead is negligible until ``min_run_time`` has passed, ``adaptive_autorange`` until the
spread is small. C++ statements (``Language.CPP``) need PyTorch's compiler toolchain: core refuses them.
"""

from __future__ import annotations

import enum
import statistics
import textwrap
import timeit

from core.utils.benchmark.utils import common

__all__ = ["Timer", "Language", "timer"]

timer = timeit.default_timer


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


def _dedented(code: str) -> str:
    code = textwrap.dedent(code)
    return (code[1:] if code and code[0] == "\n" else code).rstrip()


class Timer:
    """Times ``stmt``; results are ``Measurement`` objects (see the module docstring)."""

    def __init__(self, stmt: str = "pass", setup: str = "pass", global_setup: str = "", timer=timer,
                 globals=None, label=None, sub_label=None, description=None, env=None, num_threads: int = 1,
                 language=Language.PYTHON):
        import core  # the package core.utils.benchmark is part of

        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        self._globals = dict(globals or {})
        if language in (Language.CPP, "cpp", "c++"):
            raise NotImplementedError("core times Python statements only: C++ timing needs PyTorch's C++ "
                                      "toolchain")
        if language not in (Language.PYTHON, "py", "python"):
            raise ValueError(f"Invalid language `{language}`.")
        if global_setup:
            raise ValueError(f"global_setup is C++ only, got `{global_setup}`. Most likely this code can simply "
                             "be moved to `setup`.")
        self._globals.setdefault("torch", core)
        self._language = Language.PYTHON
        stmt, setup = _dedented(stmt), _dedented(setup)
        self._timer = timeit.Timer(stmt=stmt, setup=setup, timer=timer, globals=self._globals)
        self._task_spec = common.TaskSpec(stmt=stmt, setup=setup, global_setup=global_setup, label=label,
                                          sub_label=sub_label, description=description, env=env,
                                          num_threads=num_threads)

    def _timeit(self, number: int) -> float:
        return max(self._timer.timeit(number), 1e-9)  # no real statement takes less than a nanosecond

    def _measurement(self, number: int, times: list) -> common.Measurement:
        return common.Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec)

    def timeit(self, number: int = 1000000) -> common.Measurement:
        """``stmt`` run ``number`` times (after a warm-up of a hundredth as many, at least 2)."""
        with _threads(self._task_spec.num_threads):
            self._timeit(max(number // 100, 2))
            return self._measurement(number, [self._timeit(number)])

    def repeat(self, repeat: int = -1, number: int = -1):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback=None):
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _estimate_block_size(self, min_run_time: float) -> int:
        """Runs per block: grown tenfold until the timer's own overhead is negligible (also the warm-up)."""
        with _threads(self._task_spec.num_threads):
            overhead = statistics.median(self._timeit(0) for _ in range(5))
            number = 1
            while True:
                taken = self._timeit(number)
                if (overhead / taken <= 1e-4 and taken >= min_run_time / 1000) or taken > min_run_time:
                    return number
                if number * 10 > 2147483647:
                    return number
                number *= 10

    def _measurement_loop(self, number, stop, min_run_time, max_run_time=None, callback=None) -> list:
        total, can_stop, times = 0.0, False, []
        with _threads(self._task_spec.num_threads):
            while total < min_run_time or not can_stop:
                spent = self._timeit(number)
                times.append(spent)
                total += spent
                if callback:
                    callback(number, spent)
                can_stop = stop(times)
                if max_run_time and total > max_run_time:
                    break
        return times

    def blocked_autorange(self, callback=None, min_run_time: float = 0.2) -> common.Measurement:
        """Blocks of a size that makes the timer's overhead negligible, until ``min_run_time`` has passed."""
        number = self._estimate_block_size(min_run_time)
        return self._measurement(number, self._measurement_loop(number, lambda times: True, min_run_time,
                                                                callback=callback))

    def adaptive_autorange(self, threshold: float = 0.1, *, min_run_time: float = 0.01, max_run_time: float = 10.0,
                           callback=None) -> common.Measurement:
        """Blocks until the interquartile range is below ``threshold`` of the median (or ``max_run_time``)."""
        number = self._estimate_block_size(min_run_time=0.05)

        def stop(times):
            return len(times) > 3 and self._measurement(number, times).meets_confidence(threshold=threshold)

        return self._measurement(number, self._measurement_loop(number, stop, min_run_time, max_run_time, callback))


class _threads:
    """``torch.set_num_threads(n)`` for a measurement, the previous count restored after it."""

    def __init__(self, n: int):
        self.n = n

    def __enter__(self):
        import core

        self.before = core.get_num_threads()
        core.set_num_threads(self.n)

    def __exit__(self, *exc):
        import core

        core.set_num_threads(self.before)
