"""What skrl (``recipes_skrl.py``) imports and is not installed here (our text).

- ``tqdm``: the trainers' ``tqdm.tqdm(range(timesteps), disable=..., file=sys.stdout)``; the stand-in iterates and
  draws nothing (the real bar writes rates and elapsed times on stdout).
- ``tensorboard``: ``skrl.utils.tensorboard.SummaryWriter`` builds protobuf ``Event``/``Summary`` records and hands
  them to tensorboard's ``EventFileWriter``. The stand-in's writer prints each scalar instead of writing an event
  file (``step tag value``, the value at full precision), so the losses, learning rates, rewards and entropies the
  agents only log are compared; the ``Stats / ...`` tags (inference, stepping and update times in ms) are left out.
"""

from __future__ import annotations

from fake_stand_ins import Bar, module


class _Value:
    def __init__(self, tag="", simple_value=0.0):
        self.tag, self.simple_value = tag, simple_value


class Summary:
    """``summary_pb2.Summary(value=[Summary.Value(tag=..., simple_value=...)])``."""

    Value = _Value

    def __init__(self, value=()):
        self.value = list(value)


class Event:
    """``event_pb2.Event(summary=...)`` with its ``step`` and ``wall_time`` fields."""

    def __init__(self, summary=None):
        self.summary, self.step, self.wall_time = summary, 0, 0.0


class EventFileWriter:
    """Prints each event's scalars (``step tag value``) but the ``Stats / ...`` timings; writes no file."""

    def __init__(self, logdir, max_queue_size=10, flush_secs=120, filename_suffix=""):
        self.logdir = logdir

    def add_event(self, event):
        for value in event.summary.value:
            if not value.tag.startswith("Stats /"):
                print(event.step, value.tag, repr(float(value.simple_value)))

    def flush(self):
        pass

    def close(self):
        pass


def _module(name, **attributes):
    return module(name, package=True, **attributes)  # (torch asks find_spec("tqdm"))


def modules() -> dict:
    """The stand-in modules by name."""
    found = {"tqdm": _module("tqdm", tqdm=Bar, trange=Bar.trange, __version__="4.67.1"),
             "tensorboard": _module("tensorboard", __version__="2.18.0"),
             "tensorboard.compat": _module("tensorboard.compat"),
             "tensorboard.compat.proto": _module("tensorboard.compat.proto"),
             "tensorboard.compat.proto.event_pb2": _module("tensorboard.compat.proto.event_pb2", Event=Event),
             "tensorboard.compat.proto.summary_pb2": _module("tensorboard.compat.proto.summary_pb2", Summary=Summary),
             "tensorboard.summary": _module("tensorboard.summary"),
             "tensorboard.summary.writer": _module("tensorboard.summary.writer"),
             "tensorboard.summary.writer.event_file_writer": _module("tensorboard.summary.writer.event_file_writer",
                                                                     EventFileWriter=EventFileWriter)}
    for name, made in found.items():  # (``import a.b.c`` binds ``b`` on ``a``)
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(found[parent], child, made)
    return found
