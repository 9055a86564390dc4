"""Stand-ins for the exercise recipes (our code): a small ``gymnasium`` for CleanRL's single-file agents.

``import corpus_exercises as gym`` gives what the agents call: ``make('CartPole-v1')`` and ``make('Pendulum-v1')``
(``corpus_gym``'s seeded classic-control dynamics) with ``observation_space``/``action_space`` (``spaces.Box``,
``spaces.Discrete``, sampled from their own ``numpy`` generator once ``seed``-ed), ``wrappers.RecordEpisodeStatistics``
(an episode's return and length in the last step's ``info["episode"]``), the observation, action and reward wrappers
PPO's continuous agents stack (``ClipAction``, ``NormalizeObservation`` and ``NormalizeReward`` with Gymnasium's
running mean and variance, ``TransformObservation``, ``TransformReward``) and ``vector.SyncVectorEnv`` with Gymnasium
0.29's autoreset: an environment that ends is reset at once, its last observation and info kept in
``infos["final_observation"]`` and ``infos["final_info"]``. ``installed()`` puts this module under the name
``gymnasium`` while a support file that imports it (``cleanrl_utils/buffers.py``) loads.

``make_classification`` stands in for scikit-learn's (TorchLeet's distillation notebook): its recipe in short,
seeded Gaussian clusters around hypercube corners, not its numbers.
"""

from __future__ import annotations

import contextlib
import sys
import types

import corpus_gym
import numpy as np


class Space:
    def __init__(self, shape, dtype, seed=None):
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed=None):
        self.np_random = np.random.default_rng(seed)
        return [seed]


class Discrete(Space):
    def __init__(self, n, seed=None):
        super().__init__((), np.int64, seed)
        self.n = n

    def sample(self):
        return np.int64(self.np_random.integers(self.n))


class Box(Space):
    def __init__(self, low, high, shape, dtype=np.float32, seed=None):
        super().__init__(shape, dtype, seed)
        self.low = np.full(shape, low, dtype=dtype)
        self.high = np.full(shape, high, dtype=dtype)

    def sample(self):
        return self.np_random.uniform(self.low, self.high).astype(self.dtype)


class MultiDiscrete(Space):
    pass


class MultiBinary(Space):
    pass


class Dict(Space):
    pass


spaces = types.SimpleNamespace(Space=Space, Discrete=Discrete, Box=Box, MultiDiscrete=MultiDiscrete,
                               MultiBinary=MultiBinary, Dict=Dict)


class _Env:
    def __init__(self, env_id: str):
        self.env = corpus_gym.make(env_id)
        if env_id.startswith("CartPole"):
            self.observation_space, self.action_space = Box(-np.inf, np.inf, (4,)), Discrete(2)
        else:
            self.observation_space, self.action_space = Box(-np.inf, np.inf, (3,)), Box(-2.0, 2.0, (1,))

    def reset(self, seed=None, options=None):
        return self.env.reset(seed)

    def step(self, action):
        return self.env.step(action)

    def close(self):
        pass


def make(env_id: str, render_mode=None, **kwargs):
    return _Env(env_id)


class RecordEpisodeStatistics:
    def __init__(self, env, deque_size=100):
        self.env, self.observation_space, self.action_space = env, env.observation_space, env.action_space
        self.episode_return, self.episode_length = 0.0, 0

    def reset(self, seed=None, options=None):
        self.episode_return, self.episode_length = 0.0, 0
        return self.env.reset(seed=seed)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.episode_return += reward
        self.episode_length += 1
        if terminated or truncated:
            info = dict(info, episode={"r": np.array([self.episode_return], dtype=np.float32),
                                       "l": np.array([self.episode_length], dtype=np.int32), "t": np.array([0.0])})
        return obs, reward, terminated, truncated, info

    def close(self):
        self.env.close()


class _Wrapper:
    def __init__(self, env):
        self.env, self.observation_space, self.action_space = env, env.observation_space, env.action_space

    def reset(self, seed=None, options=None):
        obs, info = self.env.reset(seed=seed)
        return self.observation(obs), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(self.action(action))
        return self.observation(obs), self.reward(reward, terminated), terminated, truncated, info

    def observation(self, obs):
        return obs

    def action(self, action):
        return action

    def reward(self, reward, terminated):
        return reward

    def close(self):
        self.env.close()


class FlattenObservation(_Wrapper):
    pass  # a Box observation is flat already


class ClipAction(_Wrapper):
    def action(self, action):
        return np.clip(action, self.action_space.low, self.action_space.high)


class TransformObservation(_Wrapper):
    def __init__(self, env, f):
        super().__init__(env)
        self.f = f

    def observation(self, obs):
        return self.f(obs)


class TransformReward(TransformObservation):
    def observation(self, obs):
        return obs

    def reward(self, reward, terminated):
        return self.f(reward)


class RunningMeanStd:
    """Gymnasium's running mean and variance (parallel algorithm), float64."""

    def __init__(self, epsilon=1e-4, shape=()):
        self.mean, self.var, self.count = np.zeros(shape, np.float64), np.ones(shape, np.float64), epsilon

    def update(self, x):
        batch_mean, batch_var, batch_count = np.mean(x, axis=0), np.var(x, axis=0), x.shape[0]
        delta, total = batch_mean - self.mean, self.count + batch_count
        m2 = self.var * self.count + batch_var * batch_count + np.square(delta) * self.count * batch_count / total
        self.mean, self.var, self.count = self.mean + delta * batch_count / total, m2 / total, total


class NormalizeObservation(_Wrapper):
    def __init__(self, env, epsilon=1e-8):
        super().__init__(env)
        self.obs_rms, self.epsilon = RunningMeanStd(shape=self.observation_space.shape), epsilon

    def observation(self, obs):
        self.obs_rms.update(np.array([obs]))
        return ((obs - self.obs_rms.mean) / np.sqrt(self.obs_rms.var + self.epsilon)).astype(np.float64)


class NormalizeReward(_Wrapper):
    def __init__(self, env, gamma=0.99, epsilon=1e-8):
        super().__init__(env)
        self.return_rms, self.returns, self.gamma, self.epsilon = RunningMeanStd(), np.zeros(1), gamma, epsilon

    def reward(self, reward, terminated):
        self.returns = self.returns * self.gamma * (1 - terminated) + reward
        self.return_rms.update(self.returns)
        return reward / np.sqrt(self.return_rms.var + self.epsilon)


wrappers = types.SimpleNamespace(RecordEpisodeStatistics=RecordEpisodeStatistics, FlattenObservation=FlattenObservation,
                                 ClipAction=ClipAction, NormalizeObservation=NormalizeObservation,
                                 TransformObservation=TransformObservation, NormalizeReward=NormalizeReward,
                                 TransformReward=TransformReward)


class SyncVectorEnv:
    def __init__(self, env_fns):
        self.envs = [fn() for fn in env_fns]
        self.num_envs = len(self.envs)
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space, self.action_space = (_batched(space, self.num_envs) for space in
                                                     (self.single_observation_space, self.single_action_space))

    def reset(self, seed=None, options=None):
        seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        obs = [env.reset(seed=s)[0] for env, s in zip(self.envs, seeds)]
        return np.stack(obs), {}

    def step(self, actions):
        results, infos = [], {}
        final_obs = np.full(self.num_envs, None, dtype=object)
        final_info = np.full(self.num_envs, None, dtype=object)
        for i, (env, action) in enumerate(zip(self.envs, actions)):
            obs, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                final_obs[i], final_info[i] = obs, info
                obs, _ = env.reset()
            results.append((obs, reward, terminated, truncated))
        ended = np.array([o is not None for o in final_obs])
        if ended.any():
            infos = {"final_observation": final_obs, "_final_observation": ended, "final_info": final_info,
                     "_final_info": ended}
        obs, rewards, terminated, truncated = zip(*results)
        return (np.stack(obs), np.array(rewards, dtype=np.float64), np.array(terminated), np.array(truncated),
                infos)

    def close(self):
        for env in self.envs:
            env.close()


def _batched(space, n: int):
    """Gymnasium's batched space: a Box of ``n`` stacked bounds (a Discrete's batch is not needed here)."""
    if isinstance(space, Box):
        batch = Box(0.0, 0.0, (n, *space.shape), space.dtype)
        batch.low, batch.high = np.stack([space.low] * n), np.stack([space.high] * n)
        return batch
    return space


vector = types.SimpleNamespace(SyncVectorEnv=SyncVectorEnv)


@contextlib.contextmanager
def installed():
    """This module as ``gymnasium`` (and ``gymnasium.spaces``) while the block runs."""
    with corpus_gym.modules_installed({"gymnasium": sys.modules[__name__], "gymnasium.spaces": spaces}):
        yield


def make_classification(n_samples=100, n_features=20, n_informative=2, n_redundant=2, n_classes=2,
                        n_clusters_per_class=2, random_state=None, **kwargs):
    """``(X, y)``: ``n_classes * n_clusters_per_class`` Gaussian clusters on corners of an ``n_informative``-cube,
    ``n_redundant`` linear mixtures of the informative features and noise features after them."""
    rng = np.random.default_rng(random_state)
    n_clusters = n_classes * n_clusters_per_class
    corners = rng.choice([-1.0, 1.0], size=(n_clusters, n_informative))
    y = np.arange(n_samples) % n_classes
    cluster = y + n_classes * rng.integers(0, n_clusters_per_class, size=n_samples)
    informative = corners[cluster] + rng.standard_normal((n_samples, n_informative))
    redundant = informative @ rng.uniform(-1, 1, size=(n_informative, n_redundant))
    noise = rng.standard_normal((n_samples, n_features - n_informative - n_redundant))
    order = rng.permutation(n_samples)
    return np.hstack([informative, redundant, noise])[order], y[order]
