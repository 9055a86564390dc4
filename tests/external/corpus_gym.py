"""A tiny ``gym`` for the corpus's reinforcement-learning scripts (our code): ``make('CartPole-v1')`` and
``make('Pendulum-v1')`` with Gymnasium's step API (``reset() -> (obs, info)``, ``step(a) -> (obs, reward,
terminated, truncated, info)``). A recipe's edit imports it as ``gym`` (``import corpus_gym as gym``).

The dynamics are the classic-control equations Gymnasium documents (cart-pole: Euler steps of 0.02 s, failing past
12 degrees or 2.4 units, 500 steps at most; pendulum: torque clipped to 2, speed to 8, 200 steps). Each environment
draws its starting states from its own ``numpy.random.default_rng(seed)``, so a script sees the same episodes in both
runs; only the policy (torch's random numbers and arithmetic) decides what happens next. ``make('CartPole-v0')`` is
the old gym API that 2018 notebooks call: ``reset() -> obs``, ``step(a) -> (obs, reward, done, info)``, 200 steps at
most, with ``observation_space.shape`` and ``action_space.n``.
"""

from __future__ import annotations

import contextlib
import math
import sys
import types

import numpy as np


class CartPole:
    gravity, masscart, masspole, length, force_mag, tau = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02
    theta_limit, x_limit, max_steps = 12 * 2 * math.pi / 360, 2.4, 500

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self.state, self.steps = None, 0

    def reset(self, seed=None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.state, self.steps = self.rng.uniform(-0.05, 0.05, size=4), 0
        return self.state.astype(np.float32), {}

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = self.force_mag if int(action) == 1 else -self.force_mag
        total, pole_ml = self.masscart + self.masspole, self.masspole * self.length
        cos, sin = math.cos(theta), math.sin(theta)
        temp = (force + pole_ml * theta_dot**2 * sin) / total
        theta_acc = (self.gravity * sin - cos * temp) / (self.length * (4 / 3 - self.masspole * cos**2 / total))
        x_acc = temp - pole_ml * theta_acc * cos / total
        x, x_dot = x + self.tau * x_dot, x_dot + self.tau * x_acc
        theta, theta_dot = theta + self.tau * theta_dot, theta_dot + self.tau * theta_acc
        self.state, self.steps = np.array([x, x_dot, theta, theta_dot]), self.steps + 1
        terminated = bool(abs(x) > self.x_limit or abs(theta) > self.theta_limit)
        return self.state.astype(np.float32), 1.0, terminated, self.steps >= self.max_steps, {}

    def close(self):
        pass


class Pendulum:
    max_speed, max_torque, dt, g, m, l, max_steps = 8.0, 2.0, 0.05, 10.0, 1.0, 1.0, 200

    def __init__(self, seed: int = 0, max_episode_steps: int = 200, autoreset: bool = False):
        self.rng, self.max_steps = np.random.default_rng(seed), max_episode_steps
        self.state, self.steps = None, 0

    def reset(self, seed=None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.state, self.steps = self.rng.uniform([-math.pi, -1.0], [math.pi, 1.0]), 0
        return self._obs(), {}

    def _obs(self):
        th, thdot = self.state
        return np.array([math.cos(th), math.sin(th), thdot], dtype=np.float32)

    def step(self, u):
        th, thdot = self.state
        u = float(np.clip(np.asarray(u, dtype=np.float64).reshape(-1)[0], -self.max_torque, self.max_torque))
        angle = ((th + math.pi) % (2 * math.pi)) - math.pi
        cost = angle**2 + 0.1 * thdot**2 + 0.001 * u**2
        thdot = thdot + (3 * self.g / (2 * self.l) * math.sin(th) + 3.0 / (self.m * self.l**2) * u) * self.dt
        thdot = min(max(thdot, -self.max_speed), self.max_speed)
        self.state, self.steps = np.array([th + thdot * self.dt, thdot]), self.steps + 1
        return self._obs(), -cost, False, self.steps >= self.max_steps, {}

    def close(self):
        pass


class CartPoleV0(CartPole):
    max_steps = 200
    observation_space = types.SimpleNamespace(shape=(4,))
    action_space = types.SimpleNamespace(n=2)

    def reset(self, seed=None):
        return super().reset(seed)[0]

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, reward, terminated or truncated, info


def make(name: str, **kwargs):
    if name == "CartPole-v0":
        return CartPoleV0()
    if name == "CartPole-v1":
        return CartPole()
    if name == "Pendulum-v1":
        return Pendulum(**kwargs)
    raise ValueError(f"corpus_gym has no environment {name!r}")


@contextlib.contextmanager
def modules_installed(stand_ins: dict):
    """``stand_ins`` (``{module name: module}``) importable while the block runs; what ``sys.modules`` held under
    those names before comes back after it (a stand-in only a script's own import needs must not leak)."""
    saved = {name: sys.modules.get(name) for name in stand_ins}
    sys.modules.update(stand_ins)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
