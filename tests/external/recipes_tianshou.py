"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Tianshou on core (2026-12-06, corpus helper s22 TIANSHOU): thu-ml/tianshou at its v1.2.0 release (MIT; its last
release with the policy and trainer API: ``DQNPolicy``... ``OffpolicyTrainer``; its ``numpy = "^1"`` bound is
packaging, the package runs on NumPy 2), with Farama-Foundation/Gymnasium at v1.2.3 (``recipes_sb3``'s pin). Each
script holds both packages beside it (``TIANSHOU_PACKAGES``: every ``.py`` file of ``tianshou`` but its high-level
experiment API and rliable evaluation, and Gymnasium's as SB3's scripts hold it), which the runner loads in both runs
(``runner._fetched_packages``); what Tianshou imports and is not installed here (numba, sensai-utils, overrides,
deepdiff, h5py, pandas, tensorboard, pettingzoo, tqdm) is ``fake_tianshou_deps``. The scripts are Tianshou's own test
modules (``test/base``: Batch, buffers, collectors, environments, returns, utilities) run through pytest in the
script's process, its algorithm tests (``test/discrete``, ``test/continuous``, ``test/offline``) and examples run
with their arguments shortened (a few hundred environment steps), and drivers of ours (``corpus_tianshou.py``)
appended to ``tianshou/__init__.py`` run as a script: each policy updated on seeded batches, printing losses and
parameters at full precision.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_sb3 import _GYMNASIUM_MODULES, CLOUDPICKLE, GYMNASIUM, _files

RECIPES: list[dict] = []

TIANSHOU = ("thu-ml/tianshou", "5e15adb04e03a8ad9c08688af6e79d0c002665c9", "MIT")  # the v1.2.0 release

_TIANSHOU_MODULES = {
    "tianshou": "__init__ config",
    "tianshou/data": "__init__ batch collector stats types",
    "tianshou/data/buffer": "__init__ base cached her manager prio vecbuf",
    "tianshou/data/utils": "__init__ converter segtree",
    "tianshou/env": "__init__ gym_wrappers pettingzoo_env utils venv_wrappers venvs",
    "tianshou/env/worker": "__init__ base dummy ray subproc",
    "tianshou/exploration": "__init__ random",
    "tianshou/policy": "__init__ base random",
    "tianshou/policy/imitation": "__init__ base bcq cql discrete_bcq discrete_cql discrete_crr gail td3_bc",
    "tianshou/policy/modelbased": "__init__ icm psrl",
    "tianshou/policy/modelfree": "__init__ a2c bdq c51 ddpg discrete_sac dqn fqf iqn npg pg ppo qrdqn rainbow redq "
        "sac td3 trpo",
    "tianshou/policy/multiagent": "__init__ mapolicy",
    "tianshou/trainer": "__init__ base utils",
    "tianshou/utils": "__init__ conversion determinism logging lr_scheduler optim print progress_bar space_info "
        "statistics torch_utils warning",
    "tianshou/utils/logger": "__init__ base tensorboard wandb",
    "tianshou/utils/net": "__init__ common continuous discrete",
}
TIANSHOU_PACKAGES = [*((p, p) for p in _files(_TIANSHOU_MODULES)),
                     *((*GYMNASIUM[:2], p, p) for p in _files(_GYMNASIUM_MODULES)),
                     *((*CLOUDPICKLE[:2], p, p) for p in ("cloudpickle/__init__.py", "cloudpickle/cloudpickle.py",
                                                          "cloudpickle/cloudpickle_fast.py"))]
TEST_SUPPORT = [(p, p) for p in ("test/__init__.py", "test/base/__init__.py", "test/base/env.py",
                                 "test/determinism_test.py")]
INIT_LAST = '    "exploration",\n]\n'  # the end of tianshou/__init__.py


def _driver(name, call):
    """tianshou/__init__.py run as a script (it imports the package beside it), ``corpus_tianshou``'s ``call`` after
    its last line."""
    return _r(f"tianshou_{name}", TIANSHOU, "tianshou/__init__.py",
              [(INIT_LAST, f"{INIT_LAST}__import__('corpus_tianshou').{call}\n")], support=TIANSHOU_PACKAGES)


FIRST_LINES = {"returns": "from typing import cast\n", "batch": "import copy\n", "buffer": "import os\n",
               "collector": "from collections.abc import Callable, Sequence\n", "utils": "from typing import cast\n",
               "policy": "import gymnasium as gym\n", "env": "import sys\n", "stats": "from typing import cast\n",
               "env_finite": "import copy\n", "action_space_sampling": "import gymnasium as gym\n",
               "logger": "from typing import Literal\n"}


def _test(module, *args, name=None):
    """test/base/test_MODULE.py, one of Tianshou's own test modules, run by pytest in the script's process
    (``corpus_pruning.run_pytest``: pytest imports the file as a module and the script stops there); ``args``:
    pytest's, a ``-k`` selection."""
    run = (f"if __name__ == '__main__':  # the module run by pytest, which imports it again\n"
           f"    __import__('corpus_pruning').run_pytest(__file__, *{args!r})\n    raise SystemExit\n")
    return _r(f"tianshou_test_{name or module}", TIANSHOU, f"test/base/test_{module}.py", [(FIRST_LINES[module], run + FIRST_LINES[module])],
              support=[*TIANSHOU_PACKAGES, *TEST_SUPPORT])


RECIPES += [
    _driver("batch", "batch()"),
    _test("returns"),
    _test("batch"),
    _test("buffer", "-k", "not segtree and not hdf5 and not from_data"),  # (h5py is not installed; the segment tree's
    # pure-Python loops (numba's njit is the function itself here) take 2 s)
    _test("collector", "-k", "not atari_setting and not iterative_collection_cycles and not envpool",  # (seconds each)
          "--deselect", "script.py::test_collector"),  # (its SubprocVectorEnv starts processes)
    _test("utils"),
    _test("policy"),
    _test("env", "-k", "venv_wrapper_gym or gym_wrappers"),  # (the others start processes; test_attr_unwrapped reads
    # an attribute through a wrapper, which Gymnasium 1.x no longer forwards)
    _test("stats"),
    _test("env_finite"),
    _test("action_space_sampling"),
    _test("logger"),
]
