"""The training settings a document holds, and the one check of them where they enter it (a file, a paste).

``RANGES`` are the bounds the Train dock's editors accept (``gui/training/train_panel.py`` builds its spin
boxes from them), so every setting that loads can be shown and edited there and every value the panel writes
loads again. ``check(training)`` refuses, with the setting's place (``training.schedule.step_size``), what would
load and then fail: a value of the wrong type or out of range, a device ``core`` can't name, an optimizer or
schedule that the training loop can't drive (``LBFGS`` needs a closure, ``ReduceLROnPlateau`` the metric), and
arguments ``core.optim`` refuses (it builds the optimizer and schedule on a stand-in parameter and steps them
twice, so PyTorch's own checks of ``betas``, ``eps``, ``milestones``... apply).

There is no ``batch_size`` setting: the rows per step are the dataset node's ``batch_size``
(``core.nodegraph.model.batch_size``, what the Train dock edits). Files up to version 3 held one, unread;
``core.nodegraph.files.migrations.v3_to_v4`` checks it (``check_value``, ``RANGES["batch_size"]``: the node's range
too) and moves it onto the dataset nodes.
"""

from __future__ import annotations

import inspect
import re
import warnings
from typing import Any, Literal, overload

import core
from core import optim
from core.nodegraph.model.spec import quote

__all__ = ["RANGES", "NEEDS_CLOSURE", "NEEDS_METRIC", "SettingError", "arguments_for", "check", "check_setting",
           "check_value"]

# setting -> (lowest, highest) the Train dock accepts; ints for counts, floats for rates
RANGES = {"lr": (0.0, 10.0), "momentum": (0.0, 0.999), "weight_decay": (0.0, 1.0), "gamma": (0.01, 1.0),
          "step_size": (1, 1_000_000), "batch_size": (0, 100_000), "steps": (1, 10_000_000), "seed": (0, 2 ** 31 - 1),
          "val_every": (0, 1_000_000), "loss_below": (0.0, 1e6), "patience": (0, 1_000_000)}
NEEDS_CLOSURE = ("LBFGS",)  # optimizers whose step() re-evaluates the loss through a closure
NEEDS_METRIC = ("ReduceLROnPlateau",)  # schedules whose step() takes the watched metric
_NEEDS_FUNCTIONS = ("LambdaLR", "MultiplicativeLR", "SequentialLR", "ChainedScheduler", "LRScheduler")
_DEVICE = re.compile(r"(cpu|cuda)(:[0-9]{1,3})?")
_STOP_WATCH = ("val_loss", "loss")


class SettingError(ValueError):
    """A training setting refused; ``path`` is its place in the file (``training.steps``)."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = path


def _what(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
             int: "an integer", float: "a number"}
    return names.get(type(value), type(value).__name__)


def check_value(name: str, value: object, path: str) -> int | float:
    """``value`` of the ranged setting ``name`` (an integer setting must be an integer), else SettingError."""
    lo, hi = RANGES[name]
    if isinstance(lo, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingError(path, f"must be an integer, got {_what(value)} {quote(value)}")
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SettingError(path, f"must be a number, got {_what(value)} {quote(value)}")
    if not lo <= value <= hi:  # NaN fails this too
        raise SettingError(path, f"must be in [{lo}, {hi}] (what the Train dock accepts), got {quote(value)}")
    return value


@overload
def _text(value: object, path: str, limit: int = ..., optional: Literal[False] = ...) -> str: ...
@overload
def _text(value: object, path: str, limit: int = ..., optional: bool = ...) -> str | None: ...
def _text(value: object, path: str, limit: int = 100, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise SettingError(path, f"must be a string{' or null' if optional else ''}, got {_what(value)}")
    if len(value) > limit:
        raise SettingError(path, f"longer than {limit} characters")
    return value


def _object(value: object, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SettingError(path, f"must be an object, got {_what(value)}")
    return value


def _optimizer_class(value: object, path: str) -> type[optim.Optimizer]:
    name = _text(value, path)
    if name in NEEDS_CLOSURE:
        raise SettingError(path, f"{name} needs a closure that re-evaluates the loss, which training does not "
                                 "pass; choose SGD, Adam, AdamW, RMSprop or Adagrad")
    cls = getattr(optim, name, None) if name in optim.__all__ else None
    if not (isinstance(cls, type) and issubclass(cls, optim.Optimizer)) or cls is optim.Optimizer:
        raise SettingError(path, f"unknown optimizer {quote(name)} (one of {', '.join(_optimizer_names())})")
    return cls


def _takes(opt_cls: type[optim.Optimizer]) -> list[str]:
    """The keyword arguments ``opt_cls`` takes besides its parameters."""
    return [p.name for p in list(inspect.signature(opt_cls.__init__).parameters.values())[2:]
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def arguments_for(optimizer: str, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` less the arguments the optimizer named ``optimizer`` does not take: what a switch of optimizer
    keeps (SGD's ``lr`` and ``weight_decay`` carry over to Adam, its ``momentum`` and ``nesterov`` do not).
    SettingError for an optimizer name ``check`` refuses."""
    takes = _takes(_optimizer_class(optimizer, "training.optimizer"))
    return {k: v for k, v in params.items() if k in takes}


def _optimizer_names() -> list[str]:
    return [n for n in optim.__all__ if n not in NEEDS_CLOSURE and n != "Optimizer"
            and isinstance(getattr(optim, n), type) and issubclass(getattr(optim, n), optim.Optimizer)]


def _scheduler_class(schedule: dict[str, Any], path: str) -> type[Any]:
    from core.optim import lr_scheduler  # only documents with a schedule need it

    if "type" not in schedule:
        raise SettingError(f"{path}.type", "missing field")
    name = _text(schedule["type"], f"{path}.type")
    if name in NEEDS_METRIC:
        raise SettingError(f"{path}.type", f"{name} needs the watched metric at every step, which training does "
                                           "not feed it; choose StepLR, ExponentialLR or CosineAnnealingLR")
    cls = getattr(lr_scheduler, name, None) if name in lr_scheduler.__all__ else None
    if name in _NEEDS_FUNCTIONS or not isinstance(cls, type):
        names = [n for n in lr_scheduler.__all__ if n not in NEEDS_METRIC + _NEEDS_FUNCTIONS]
        raise SettingError(f"{path}.type", f"unknown schedule {quote(name)} (one of {', '.join(names)})")
    for key in ("gamma", "step_size"):
        if key in schedule:
            check_value(key, schedule[key], f"{path}.{key}")
    return cls


def _arguments(values: dict[str, Any], path: str) -> None:
    """Keyword arguments from a file: numbers, booleans, short lists of numbers (``betas``, ``milestones``)."""
    for key, value in values.items():
        if isinstance(value, list) and len(value) <= 1000 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            continue
        if value is not None and not isinstance(value, (int, float, str)):
            raise SettingError(f"{path}.{str(key)[:100]}",
                               f"must be a number, a boolean or a list of numbers, got {_what(value)}")


def _trial(opt_cls: type[optim.Optimizer], params: dict[str, Any], sched_cls: type[Any] | None,
           schedule: dict[str, Any] | None, path: str) -> None:
    """Build the optimizer and schedule on a stand-in parameter and step them twice: core.optim's checks apply."""
    w = core.zeros(2, requires_grad=True)
    w.grad = core.ones(2)
    where = "optimizer_params"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            opt = opt_cls([w], **params)
            where = "schedule"
            sched = None
            if sched_cls is not None and schedule is not None:
                sched = sched_cls(opt, **{k: v for k, v in schedule.items() if k != "type"})
            where = "optimizer_params"
            for _ in range(2):
                opt.step()
                if sched is not None:
                    where = "schedule"
                    sched.step()
    except Exception as exc:  # PyTorch's checks raise TypeError, ValueError, ZeroDivisionError...
        raise SettingError(f"{path}.{where}", f"{type(exc).__name__}: {quote(str(exc), 200)[1:-1]}") from None


def _check_optimization(t: dict[str, Any], path: str) -> None:
    opt_cls = _optimizer_class(t.get("optimizer", "SGD"), f"{path}.optimizer")
    params = _object(t.get("optimizer_params") or {}, f"{path}.optimizer_params")
    for key in ("lr", "momentum", "weight_decay"):
        if key in params:
            check_value(key, params[key], f"{path}.optimizer_params.{key}")
    if not isinstance(params.get("nesterov", False), bool):
        raise SettingError(f"{path}.optimizer_params.nesterov",
                           f"must be true or false, got {_what(params['nesterov'])}")
    takes = _takes(opt_cls)
    for key in params:
        if key not in takes:  # a file saved before a switch of optimizer dropped them (Adam with SGD's momentum)
            raise SettingError(f"{path}.optimizer_params.{str(key)[:100]}",
                               f"{opt_cls.__name__} takes no argument {quote(key)} (it takes {', '.join(takes)})")
    _arguments(params, f"{path}.optimizer_params")
    schedule, sched_cls = t.get("schedule"), None
    if schedule is not None:
        schedule = _object(schedule, f"{path}.schedule")
        sched_cls = _scheduler_class(schedule, f"{path}.schedule")
        _arguments({k: v for k, v in schedule.items() if k != "type"}, f"{path}.schedule")
    _trial(opt_cls, params, sched_cls, schedule, path)


def _check_device(value: object, path: str) -> None:
    if not _DEVICE.fullmatch(_text(value, path)):
        raise SettingError(path, f"unknown device {quote(value)} (\"cpu\", \"cuda\" or \"cuda:N\")")


def _check_stop(raw: object, path: str) -> None:
    """``loss_below`` (a number or null), ``patience`` (steps or null), ``stop_on_nan`` (true/false) and ``watch``
    (the loss patience watches: "val_loss" or "loss")."""
    stop = _object(raw, path)
    for key, value in stop.items():
        where = f"{path}.{key}"
        if key in ("loss_below", "patience") and value is not None:
            check_value(key, value, where)
        elif key == "stop_on_nan" and not isinstance(value, bool):
            raise SettingError(where, f"must be true or false, got {_what(value)}")
        elif key == "watch" and value not in _STOP_WATCH:
            raise SettingError(where, f"must be \"val_loss\" or \"loss\", got {_what(value)} {quote(value)}")


def check(training: object, path: str = "training") -> dict[str, Any]:
    """The document's training settings, each checked; SettingError names the first refused one."""
    t = _object(training, path)
    if "loss" in t:
        _text(t["loss"], f"{path}.loss", limit=200, optional=True)
    for key in ("batch_size", "steps", "seed"):
        if key in t:
            check_value(key, t[key], f"{path}.{key}")
    if t.get("val_every") is not None:
        check_value("val_every", t["val_every"], f"{path}.val_every")
    if "device" in t:
        _check_device(t["device"], f"{path}.device")
    if t.get("stop") is not None:
        _check_stop(t["stop"], f"{path}.stop")
    _check_optimization(t, path)
    return dict(t)


def check_setting(key: str, value: object, path: str = "training") -> None:
    """One setting on its own, as ``check`` checks it in a file, so that an edit never makes a document its file
    can't reopen; SettingError names it. The optimizer is tried with its arguments only by ``check``: the Train
    dock sets the optimizer and then its arguments, one edit each."""
    where = f"{path}.{key}"
    _no_surrogates(value, where)
    if key == "loss":
        _text(value, where, limit=200, optional=True)
    elif key in ("batch_size", "steps", "seed", "val_every"):
        check_value(key, value, where)
    elif key == "device":
        _check_device(value, where)
    elif key == "stop":
        _check_stop(value, where)
    elif key == "optimizer":
        _optimizer_class(value, where)
    elif key == "optimizer_params":
        params = _object(value, where)
        for name in ("lr", "momentum", "weight_decay"):
            if name in params:
                check_value(name, params[name], f"{where}.{name}")
        _arguments(params, where)
    elif key == "schedule":
        schedule = _object(value, where)
        _scheduler_class(schedule, where)
        _arguments({k: v for k, v in schedule.items() if k != "type"}, where)


def _no_surrogates(value: object, path: str) -> None:
    """SettingError for text (or a key, or text inside) holding a lone surrogate, which a UTF-8 file can't hold."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    if isinstance(value, str) and not value.isascii() and any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise SettingError(path, "holds a lone surrogate, which a UTF-8 file can't hold")
    for k, v in items:
        _no_surrogates(k, path)
        _no_surrogates(v, f"{path}.{str(k)[:100]}")
