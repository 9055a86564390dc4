"""Stand-ins for what ``recipes_backpack.py``'s and ``recipes_geomloss.py``'s scripts import and is not installed here.

- ``pytorch_memlab.MemReporter`` (BackPACK's ``test/__init__.py``, its memory-leak tests): ``collect_tensor`` finds
  the live tensors through the garbage collector and ``get_stats`` sums their storages' bytes once per storage, per
  device, as memlab's reporter does (without its names for parameters and gradients);
- ``memory_profiler.memory_usage`` (two BackPACK examples measure peak memory): runs the function once and reports
  0.0 MiB, with its return value when asked (``retval=True``); the memory a process holds is no output to compare;
- ``sklearn.neighbors.KernelDensity`` (GeomLoss' examples draw their 1-D measures as density curves): a Gaussian
  kernel density in NumPy whose ``fit`` prints the samples it is given, with every digit (what the figure shows);
- ``tabulate.tabulate`` (``torch.fx.Graph.print_tabular``, which two BackPACK examples call on their traced graphs):
  one line per row, the cells' ``str`` separated by `` | `` under the headers (not tabulate's column alignment);
- ``pykeops``: absent (``None`` in ``sys.modules``, so ``import pykeops`` raises ImportError): GeomLoss checks for it
  at import and then takes its tensorized, KeOps-free routes.
"""

from __future__ import annotations

import gc
import importlib.machinery
import types

import numpy as np


class MemReporter:
    """pytorch_memlab's reporter, the part BackPACK's tests read: ``device_tensor_stat`` maps a device to
    ``(name, size, numel, bytes)`` rows, one per storage."""

    def __init__(self, model=None):
        self.tensors = []
        self.device_tensor_stat = {}

    def collect_tensor(self):
        import torch

        self.tensors = [obj for obj in gc.get_objects() if isinstance(obj, torch.Tensor)]

    def get_stats(self):
        seen, stats = set(), {}
        for tensor in self.tensors:
            storage = tensor.untyped_storage()
            key = storage.data_ptr()
            if key in seen or storage.nbytes() == 0:
                continue
            seen.add(key)
            stats.setdefault(tensor.device, []).append(("tensor", tuple(tensor.shape), tensor.numel(),
                                                        storage.nbytes()))
        self.device_tensor_stat = stats


def memory_usage(proc, interval=0.1, max_usage=False, retval=False, **kwargs):
    """memory_profiler's ``memory_usage`` of a callable or ``(f, args, kwargs)``: ``f`` runs once and 0.0 MiB is
    reported (one sample, or the peak with ``max_usage``), with ``f``'s value after it when ``retval``."""
    if isinstance(proc, tuple):
        f, f_args, f_kwargs = (*proc, (), {})[:3] if len(proc) < 3 else proc
        value = f(*f_args, **f_kwargs)
    else:
        value = proc()
    usage = 0.0 if max_usage else [0.0]
    return (usage, value) if retval else usage


class KernelDensity:
    """scikit-learn's Gaussian ``KernelDensity``: ``fit`` keeps (and prints) the samples, ``score_samples`` gives the
    log-density of the Gaussian mixture centred on them."""

    def __init__(self, kernel="gaussian", bandwidth=1.0):
        self.bandwidth = bandwidth

    def fit(self, x):
        self.x = np.asarray(x, dtype=np.float64).reshape(len(x), -1)
        print("KernelDensity.fit", repr(self.x.ravel().tolist()))
        return self

    def score_samples(self, t):
        t = np.asarray(t, dtype=np.float64).reshape(len(t), -1)
        sq = ((t[:, None, :] - self.x[None, :, :]) ** 2).sum(-1) / self.bandwidth ** 2
        d = self.x.shape[1]
        norm = np.log(len(self.x)) + d * np.log(np.sqrt(2 * np.pi) * self.bandwidth)
        top = (-0.5 * sq).max(1, keepdims=True)
        return (top + np.log(np.exp(-0.5 * sq - top).sum(1, keepdims=True))).ravel() - norm


def tabulate(rows, headers=()):
    """The rows as text, one line each, cells separated by `` | ``, the headers first."""
    return "\n".join(" | ".join(str(cell) for cell in row) for row in [list(headers), *rows])


def modules() -> dict:
    """The stand-ins by module name."""
    memlab = types.ModuleType("pytorch_memlab")
    memlab.MemReporter = MemReporter
    profiler = types.ModuleType("memory_profiler")
    profiler.memory_usage = memory_usage
    neighbors = types.ModuleType("sklearn.neighbors")
    neighbors.KernelDensity = KernelDensity
    table = types.ModuleType("tabulate")
    table.tabulate = tabulate
    table.__spec__ = importlib.machinery.ModuleSpec("tabulate", None)  # (torch asks find_spec whether it is there)
    return {"tabulate": table, "pytorch_memlab": memlab, "memory_profiler": profiler, "pykeops": None,
            "sklearn.neighbors": neighbors}
