"""labml's stand-in for the corpus (not installed): the experiment, tracker, monitor, logger and configs parts that
labml's annotated paper implementations (``labml_nn``) import around their models. The models' code runs as is.

- ``logger.inspect(*values)`` prints each value's ``repr`` (a tensor's, so both libraries' printing is compared);
  ``logger.log`` prints its text parts; ``Text`` names the styles.
- ``monit.section`` is a no-op context manager; ``monit.iterate``/``enum``/``mix`` hand back their iterables.
- ``tracker``, ``experiment`` and ``lab`` record nothing (``lab.get_data_path()`` is ``./data``).
- ``configs``: ``BaseConfigs`` whose annotated, unset class attributes read as their names (``@option(Configs.x)``
  and ``calculate(Configs.x, ...)`` are evaluated at import), decorators that return the function they wrap.

``modules()`` maps each ``labml.*`` name the code imports to a module; the runner installs them.
"""

from __future__ import annotations

import contextlib
import enum
import pathlib
import types


def _inspect(*values, _n=None, _expand=None, **named):
    for v in values:
        print(repr(v))
    for k, v in named.items():
        print(f"{k}: {v!r}")


def _log(*parts, is_new_line=True):
    text = "".join(p if isinstance(p, str) else str(p[0]) for p in parts)
    print(text, end="\n" if is_new_line else "")


class Text(enum.Enum):
    normal = "normal"
    none = "none"
    value = "value"
    key = "key"
    title = "title"
    heading = "heading"
    subtle = "subtle"
    meta = "meta"
    meta2 = "meta2"
    warning = "warning"
    danger = "danger"
    success = "success"
    highlight = "highlight"


@contextlib.contextmanager
def _section(name=None, *args, **kwargs):
    yield


def _iterate(name, iterable=None, *args, **kwargs):
    if iterable is None:  # monit.iterate(iterable)
        iterable = name
    return range(iterable) if isinstance(iterable, int) else iterable


def _enum(name, iterable, *args, **kwargs):
    return enumerate(iterable)


def _mix(total_iterations, *iterators, **kwargs):
    for name, it in iterators:
        for x in it:
            yield name, x


def _nothing(*args, **kwargs):
    return None


@contextlib.contextmanager
def _start(*args, **kwargs):
    yield


class _ConfigsMeta(type):
    """An annotated attribute with no value reads as its name, as labml's config keys do at class level."""

    def __getattr__(cls, name):
        for klass in cls.__mro__:
            if name in getattr(klass, "__annotations__", {}):
                return name
        raise AttributeError(name)


class BaseConfigs(metaclass=_ConfigsMeta):
    def __init__(self, *, _primary=None):
        pass


def _decorator(*args, **kwargs):
    def wrap(func):
        return func
    return wrap


def _calculate(*args, **kwargs):
    if len(args) == 3 or (len(args) == 2 and not callable(args[-1])):
        return None  # calculate(Configs.x, [deps], func) and calculate(Configs.x, 'name', func) register at once
    return _decorator()


def _meta_config(*args, **kwargs):
    return None


def _download_file(url, path):
    raise RuntimeError(f"no downloads in the corpus: {url}")


def modules():
    """The ``labml.*`` modules: name -> module."""
    made = {}

    def module(name, **attrs):
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        made[name] = m
        return m

    logger = module("labml.logger", inspect=_inspect, log=_log, Text=Text)
    monit = module("labml.monit", section=_section, iterate=_iterate, enum=_enum, mix=_mix, func=_decorator,
                   progress=_nothing, loop=_iterate)
    tracker = module("labml.tracker", **{n: _nothing for n in (
        "set_scalar", "set_scalars", "set_histogram", "set_text", "set_image", "set_queue", "set_indexed_scalar",
        "add", "save", "new_line", "reset", "add_global_step", "set_global_step", "debug", "namespace")})
    experiment = module("labml.experiment", start=_start, record=_start, **{n: _nothing for n in (
        "create", "configs", "add_pytorch_models", "add_model_savers", "load", "save_checkpoint", "evaluate",
        "get_uuid", "distributed")})
    lab = module("labml.lab", get_data_path=lambda: pathlib.Path("data"),
                 get_experiments_path=lambda: pathlib.Path("logs"), get_path=lambda: pathlib.Path("."))
    configs = module("labml.configs", BaseConfigs=BaseConfigs, option=_decorator, calculate=_calculate,
                     aggregate=_nothing, meta_config=_meta_config, hyperparams=_meta_config)
    download = module("labml.utils.download", download_file=_download_file)
    pytorch = module("labml.utils.pytorch", get_modules=lambda configs: {})
    utils = module("labml.utils", download=download, pytorch=pytorch)
    monitor = module("labml.internal.monitor", Loop=type("Loop", (), {}))  # a type hint of labml_nn's trainer
    internal = module("labml.internal", monitor=monitor)
    labml = module("labml", logger=logger, monit=monit, tracker=tracker, experiment=experiment, lab=lab,
                   configs=configs, utils=utils, internal=internal)
    labml.__path__ = utils.__path__ = internal.__path__ = []
    return made
