"""Stand-ins for ``recipes_courses5`` (our code, committed; corpus helper s32 COURSES).

``tiny_resnet`` is the module hierarchy of torchvision's ResNet-18 at a small size (conv1/bn1/relu/maxpool, two
``layer1`` basic blocks, avgpool, fc), for pytorch/examples' ``fx/module_tracer.py``, which traces
``torchvision.models.resnet18()``: torchvision is the runner's stub, and what the script shows is which module each
traced node comes from.

``gym`` is the old gym API of higgsfield's RL-Adventure-2 and bentrevett's pytorch-rl notebooks (2018-2020):
``corpus_rl_more.make``'s CartPole-v0 and Pendulum-v0, CartPole-v1 (v0 with a 500-step limit), and an
``ActionWrapper`` whose ``step`` maps the action through the subclass's ``_action`` (gym 0.10's spelling).
``DummyVecEnv`` stands in for RL-Adventure-2's ``common.multiprocessing_env.SubprocVecEnv`` (OpenAI baselines' worker
processes) in one process with the same contract: ``step(actions)`` steps each environment, resets one that is done
and returns the stacked observations, rewards and dones.
"""

from __future__ import annotations

import types

import corpus_rl_more
import numpy as np
import torch  # the runner's torch: core under the alias, or PyTorch
from torch import nn


class BasicBlock(nn.Module):
    """torchvision's ``BasicBlock`` without downsampling: two 3x3 convolutions and a residual sum."""

    def __init__(self, width: int):
        super().__init__()
        self.conv1 = nn.Conv2d(width, width, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(width, width, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + x)


class TinyResNet(nn.Module):
    """ResNet-18's stem, one stage of two blocks and its head, 8 channels wide."""

    def __init__(self, width: int = 8, classes: int = 10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        self.layer1 = nn.Sequential(BasicBlock(width), BasicBlock(width))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(width, classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.avgpool(self.layer1(x))
        return self.fc(torch.flatten(x, 1))


def tiny_resnet() -> TinyResNet:
    return TinyResNet()


class ActionWrapper:
    """gym 0.10's ``ActionWrapper``: ``step`` acts with ``self._action(action)``; the rest is the wrapped env's."""

    def __init__(self, env):
        self.env = env

    def step(self, action):
        return self.env.step(self._action(action))

    def reset(self):
        return self.env.reset()

    def __getattr__(self, name):
        return getattr(self.env, name)


def make(name: str, max_episode_steps: int | None = None):
    """``corpus_rl_more.make``, and CartPole-v1: v0's dynamics with v1's 500-step limit and 475 reward threshold."""
    if name == "CartPole-v1":
        env = corpus_rl_more.make("CartPole-v0", max_episode_steps or 500)
        env.spec.reward_threshold = 475.0
        return env
    return corpus_rl_more.make(name, max_episode_steps)


gym = types.SimpleNamespace(make=make, ActionWrapper=ActionWrapper, spaces=corpus_rl_more.spaces)


class DummyVecEnv:
    """``SubprocVecEnv(env_fns)`` in one process: each environment stepped in turn, reset when done."""

    def __init__(self, env_fns):
        self.envs = [make() for make in env_fns]
        self.num_envs = len(self.envs)
        self.observation_space, self.action_space = self.envs[0].observation_space, self.envs[0].action_space

    def reset(self):
        return np.stack([env.reset() for env in self.envs])

    def step(self, actions):
        results = []
        for env, action in zip(self.envs, actions):
            ob, reward, done, info = env.step(action)
            results.append((env.reset() if done else ob, reward, done, info))
        obs, rewards, dones, infos = zip(*results)
        return np.stack(obs), np.stack(rewards), np.stack(dones), infos

    def close(self):
        pass

    def __len__(self):
        return self.num_envs
