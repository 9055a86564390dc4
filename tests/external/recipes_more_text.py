"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

More text, sequence, tabular and optimisation scripts (2026-12-04): minimalRL's single-file reinforcement-learning
agents on ``corpus_gym``'s cart-pole and pendulum (our stand-in for ``gym``).
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

MINIMALRL = ("seungeunrho/minimalRL", "c8efed8481e3cd40e9739cfde220a55522555b57", "MIT")
GYM = ("import gym\n", "import corpus_gym as gym  # cart-pole and pendulum: a stand-in\n")
SEED = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")


def _rl(name, path, model, episodes, edits=()):
    """A minimalRL agent trained ``episodes`` episodes (a report every 20); its parameters' sums printed at the end."""
    sums = f"    print([round(p.sum().item(), 4) for p in {model}.parameters()])\n    env.close()"
    return _r(name, MINIMALRL, path, [GYM, SEED, ("range(10000)", f"range({episodes})"), *edits,
                                      ("    env.close()", sums)])


RANDOM_SEED = ("import random\n", "import random\nrandom.seed(0)\n")
PENDULUM_50 = ("count < 200", "count < 50")  # 50 pendulum steps an episode instead of 200
RECIPES += [
    _rl("mrl_reinforce", "REINFORCE.py", "pi", 41),
    _rl("mrl_dqn", "dqn.py", "q", 41, [RANDOM_SEED, ("memory.size()>2000", "memory.size()>200")]),
    _rl("mrl_ppo", "ppo.py", "model", 41),
    _rl("mrl_actor_critic", "actor_critic.py", "model", 41),
    _rl("mrl_acer", "acer.py", "model", 41, [RANDOM_SEED, ("memory.size()>500", "memory.size()>20")]),
    _rl("mrl_ppo_lstm", "ppo-lstm.py", "model", 21),
    _rl("mrl_vtrace", "vtrace.py", "model", 41),
    _rl("mrl_ddpg", "ddpg.py", "mu", 21, [RANDOM_SEED, PENDULUM_50, ("memory.size()>2000", "memory.size()>200")]),
    _rl("mrl_sac", "sac.py", "pi", 21, [PENDULUM_50, ("memory.size()>1000", "memory.size()>800")]),
    _rl("mrl_ppo_continuous", "ppo-continuous.py", "model", 21,
        [("count < 200", "count < 30"), ("buffer_size    = 10", "buffer_size    = 2"), ("minibatch_size = 32", "minibatch_size = 8")]),
]
