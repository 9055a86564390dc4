"""Stand-ins for the corpus's second batch of reinforcement-learning scripts (our code): the old ``gym`` API with
spaces, a piece of ``scipy.signal`` and Spinning Up's single-process logger and MPI helpers.

``make('CartPole-v0')`` and ``make('Pendulum-v0')`` wrap ``corpus_gym``'s dynamics in gym's pre-0.26 API:
``reset() -> obs``, ``step(a) -> (obs, reward, done, info)``, ``seed(n)``, ``_max_episode_steps`` and
``observation_space`` / ``action_space`` as ``Box`` / ``Discrete`` whose ``sample()`` draws from a NumPy generator
seeded by ``space.seed(n)`` (gym's spaces draw from their own generator too, never from torch's). A script sees the
same episodes and the same random actions in both runs; only torch's numbers decide the rest.

``gym_and_scipy()`` puts ``gym``, ``gym.spaces``, ``scipy`` and ``scipy.signal`` in ``sys.modules`` while a
script imports its unedited helper module (Spinning Up's ``core.py`` imports them), then takes them out again so
no other script sees them. ``EpochLogger`` keeps Spinning Up's logx arithmetic (mean, population standard
deviation, min and max of what was stored each epoch) and prints each epoch's row as logx does (``%8.3g``); its
``Time`` is printed as 0 (a wall-clock time). Saving and MPI are no-ops for one process. ``Visdom`` is a plot
server's client that draws nothing (FastCampus's notebooks plot through it).
"""

from __future__ import annotations

import contextlib
import math
import types

import corpus_gym
import numpy as np


class Box:
    def __init__(self, low, high, shape=None, dtype=np.float32):
        shape = tuple(shape) if shape is not None else np.shape(low)
        self.low = np.broadcast_to(np.asarray(low, dtype=dtype), shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=dtype), shape).copy()
        self.shape, self.dtype = shape, np.dtype(dtype)
        self.rng = np.random.default_rng(0)

    def seed(self, seed=None):
        self.rng = np.random.default_rng(seed)
        return [seed]

    def sample(self):
        return self.rng.uniform(self.low, self.high).astype(self.dtype)

    def __repr__(self):
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"


class Discrete:
    def __init__(self, n):
        self.n, self.shape, self.dtype = n, (), np.dtype(np.int64)
        self.rng = np.random.default_rng(0)

    def seed(self, seed=None):
        self.rng = np.random.default_rng(seed)
        return [seed]

    def sample(self):
        return int(self.rng.integers(self.n))

    def __repr__(self):
        return f"Discrete({self.n})"


class OldApi:
    """gym's pre-0.26 interface over one of ``corpus_gym``'s environments."""

    def __init__(self, env, observation_space, action_space, max_steps, reward_threshold=None):
        self.env, self.observation_space, self.action_space = env, observation_space, action_space
        self._max_episode_steps = env.max_steps = max_steps
        self.spec = types.SimpleNamespace(max_episode_steps=max_steps, reward_threshold=reward_threshold)

    @property
    def unwrapped(self):
        """The environment without gym's time limit (the same dynamics and generator)."""
        self.env.max_steps = 10**9
        return self

    def seed(self, seed=None):
        self.env.rng = np.random.default_rng(seed)
        return [seed]

    def reset(self):
        return self.env.reset()[0]

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated or truncated, info

    def render(self, *args, **kwargs):
        pass

    def close(self):
        pass


def make(name: str, max_episode_steps: int | None = None):
    if name == "CartPole-v0":
        high = np.array([4.8, np.finfo(np.float32).max, 24 * 2 * math.pi / 360, np.finfo(np.float32).max])
        return OldApi(corpus_gym.CartPole(), Box(-high, high), Discrete(2), max_episode_steps or 200, 195.0)
    if name == "Pendulum-v0":
        high = np.array([1.0, 1.0, 8.0])
        return OldApi(corpus_gym.Pendulum(), Box(-high, high), Box(-2.0, 2.0, (1,)), max_episode_steps or 200)
    raise ValueError(f"corpus_rl_more has no environment {name!r}")


def lfilter(b, a, x, axis=-1):
    """``scipy.signal.lfilter`` for the first-order recursions RL code uses: ``y[n] = (b0 x[n] - a1 y[n-1]) / a0``."""
    b, a = np.asarray(b, dtype=np.float64), np.asarray(a, dtype=np.float64)
    if b.shape != (1,) or a.shape not in ((1,), (2,)):
        raise NotImplementedError("corpus_rl_more.lfilter: only b = [b0], a = [a0] or [a0, a1]")
    x = np.moveaxis(np.asarray(x, dtype=np.float64), axis, 0)
    y, prev = np.empty_like(x), np.zeros_like(x[0])
    a1 = a[1] if a.shape == (2,) else 0.0
    for n in range(x.shape[0]):
        prev = y[n] = (b[0] * x[n] - a1 * prev) / a[0]
    return np.moveaxis(y, 0, axis)


spaces = types.ModuleType("gym.spaces")
spaces.Box, spaces.Discrete = Box, Discrete
scipy = types.ModuleType("scipy")
scipy.signal = types.ModuleType("scipy.signal")
scipy.signal.lfilter = lfilter


@contextlib.contextmanager
def gym_and_scipy():
    """``gym``, ``gym.spaces``, ``scipy`` and ``scipy.signal`` importable inside the block, and gone after it."""
    gym = types.ModuleType("gym")
    gym.make, gym.spaces = make, spaces
    stand_ins = {"gym": gym, "gym.spaces": spaces, "scipy": scipy, "scipy.signal": scipy.signal}
    with corpus_gym.modules_installed(stand_ins):
        yield


# Spinning Up's MPI helpers, for one process
def mpi_fork(n, bind_to_core=False):
    pass


def proc_id():
    return 0


def num_procs():
    return 1


def mpi_avg(x):
    return x


def mpi_statistics_scalar(x, with_min_and_max=False):
    x = np.array(x, dtype=np.float32)
    mean = np.sum(x) / len(x)
    std = np.sqrt(np.sum((x - mean) ** 2) / len(x))
    if with_min_and_max:
        return mean, std, np.min(x) if len(x) else np.inf, np.max(x) if len(x) else -np.inf
    return mean, std


def setup_pytorch_for_mpi():
    pass


def sync_params(module):
    pass


def mpi_avg_grads(module):
    pass


def setup_logger_kwargs(exp_name, seed=None, data_dir=None, datestamp=False):
    return {"exp_name": exp_name}


class EpochLogger:
    """Spinning Up's ``EpochLogger`` without files: ``store`` per step, ``log_tabular`` per epoch, a printed row."""

    def __init__(self, output_dir=None, output_fname="progress.txt", exp_name=None):
        self.exp_name, self.epoch_dict, self.row = exp_name, {}, {}

    def log(self, msg, color="green"):
        print(msg)

    def save_config(self, config):
        pass

    def setup_pytorch_saver(self, what_to_save):
        pass

    def save_state(self, state_dict, itr=None):
        pass

    def store(self, **kwargs):
        for key, value in kwargs.items():
            self.epoch_dict.setdefault(key, []).append(value)

    def log_tabular(self, key, val=None, with_min_and_max=False, average_only=False):
        if val is not None:
            self.row[key] = 0 if key == "Time" else val  # a wall-clock time
            return
        values = self.epoch_dict[key]
        if isinstance(values[0], np.ndarray) and values[0].ndim > 0:
            values = np.concatenate(values)
        stats = mpi_statistics_scalar(values, with_min_and_max=with_min_and_max)
        self.row[key if average_only else "Average" + key] = stats[0]
        if not average_only:
            self.row["Std" + key] = stats[1]
        if with_min_and_max:
            self.row["Max" + key], self.row["Min" + key] = stats[3], stats[2]
        self.epoch_dict[key] = []

    def dump_tabular(self):
        width = max(15, *map(len, self.row))
        print("-" * (width + 22))
        for key, val in self.row.items():
            print(f"| {key:>{width}s} | {'%8.3g' % val if hasattr(val, '__float__') else val:>15s} |")
        print("-" * (width + 22), flush=True)
        self.row = {}


class Visdom:
    """visdom's client without a server: every plot call (``scatter``, ``line``, ``updateTrace``...) returns None."""

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


class _Rows:
    """``frame.iloc[rows, columns]``: one column as a list of its values, several as an object with ``.values``."""

    def __init__(self, columns):
        self.columns = columns

    def __getitem__(self, key):
        rows, cols = key
        if isinstance(cols, int):
            return list(self.columns[cols][rows])
        return types.SimpleNamespace(values=np.column_stack([c[rows] for c in self.columns[cols]]))


def read_csv(path):
    """``pandas.read_csv`` of a small table with a header: numeric columns as float64 (pandas' common type of an
    int and a float column), the others as strings, reachable through ``.iloc``."""
    with open(path) as f:
        header, *lines = [line.rstrip("\n").split(",") for line in f if line.strip()]
    columns = []
    for values in zip(*lines):
        try:
            columns.append(np.array([float(v) for v in values]))
        except ValueError:
            columns.append(np.array(values, dtype=object))
    frame = types.SimpleNamespace(columns=header)
    frame.iloc = _Rows(columns)
    return frame


def unidecode(text: str) -> str:
    """``unidecode.unidecode`` for ASCII text (the character-RNN lessons' corpora): the text itself."""
    if not text.isascii():
        raise NotImplementedError("corpus_rl_more.unidecode: only ASCII text")
    return text
