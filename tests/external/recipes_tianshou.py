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
                                 "test/determinism_test.py", "test/offline/__init__.py",
                                 "test/offline/gather_pendulum_data.py", "test/offline/gather_cartpole_data.py")]
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
    first = FIRST_LINES[module]
    return _r(f"tianshou_test_{name or module}", TIANSHOU, f"test/base/test_{module}.py", [(first, run + first)],
              support=[*TIANSHOU_PACKAGES, *TEST_SUPPORT])


# Tianshou's algorithm tests: test/FOLDER/test_MODULE.py with short arguments (``parse_known_args`` ignores those a test
# does not take), the trainer's result and the policy's parameters printed where it returns (the reward-threshold
# assertions after it are left: a few hundred steps do not solve CartPole), then the test function called
# (``corpus_tianshou.run_test``: its ``SummaryWriter`` makes the log folder and records nothing)
SHORT = ["--epoch", "1", "--step-per-epoch", "200", "--step-per-collect", "50", "--training-num", "2", "--test-num",
         "2", "--buffer-size", "1000", "--batch-size", "16", "--hidden-sizes", "16", "16", "--repeat-per-collect", "2",
         "--start-timesteps", "100"]
PENDULUM = ["--test-num", "1", "--step-per-epoch", "100"]  # (a test episode before training and one after)
OFFLINE = ["--step-per-epoch", "20", "--test-num", "1"]  # (an offline epoch is step_per_epoch updates)
RUN = "    ).run()\n"


def _episodes(steps, train=True):
    """Edits that end each of a test's Pendulum episodes after ``steps`` steps (its 200-step episodes are most of a
    short run's time), its test environments' and, with ``train``, its training environments'."""
    made = [(f"gym.make(args.task) for _ in range(args.{n})", f"gym.make(args.task, max_episode_steps={steps}) "
             f"for _ in range(args.{n})") for n in ("test_num", *(["training_num"] if train else []))]
    return made


def _algo(name, module, function, last, extra=(), *, run=RUN, result="result", edits=(), buffer=None, args=(),
          **kw):
    """test/MODULE.py's ``function`` run with ``SHORT`` and ``extra`` arguments; ``last``: the module's last line;
    ``buffer``: an offline test's task, whose seeded random-action data ``corpus_tianshou.expert_buffer`` writes to the
    file the test loads (its ``gather_data`` would train an expert agent for minutes)."""
    arguments = [*SHORT, *extra, *(["--load-buffer-name", "expert.pkl"] if buffer else [])]
    show = [(run, f"{run}    __import__('corpus_tianshou').show_result({result}, policy)\n    return\n")] if run else []
    call = f"run_test(globals(), {', '.join(map(repr, (function, *args)))}"
    call += f", buffer={buffer!r})" if buffer else ")"
    return _r(f"tianshou_{name}", TIANSHOU, f"test/{module}.py",
              [("return parser.parse_known_args()[0]", f"return parser.parse_known_args({arguments!r})[0]"), *edits,
               *show, (last, f"{last}\n__import__('corpus_tianshou').{call}\n")],
              support=[*TIANSHOU_PACKAGES, *TEST_SUPPORT], **kw)


def _il(name, module, function, kind, algo, extra=(), edits=()):
    """test/MODULE.py's ``function`` through its imitation-learning stage (``enable_assertions=False``): the imitation
    policy's result shown after its trainer's assertion (``skip_il`` stays False)."""
    end = "        assert stop_fn(result.best_reward)\n\n\ndef test_"
    shown = ("        assert stop_fn(result.best_reward)\n"
             "    __import__('corpus_tianshou').show_result(result, il_policy)\n\n\ndef test_")
    return _algo(name, module, function, _det(kind, algo), ["--il-step-per-epoch", "50", *extra], run=None,
                 edits=[*edits, (end, shown)], args=(False,))


# NPG's and TRPO's natural-gradient step: ten conjugate-gradient iterations with ``residual_tol=1e-10``, below float32's
# noise on these Hessian-vector products (core's agree with torch's to 1e-7), so the last iterations' step sizes are
# rounding residues (7.98 vs 7.98, then 0.85 vs 3.76 on one batch in core and torch) and the updated policy's rewards
# and parameters differ from the fifth significant digit (their initial orthogonal weights also differ in the last bit:
# float32 QR in NumPy's LAPACK vs MKL's)
CG_ROUNDING = ("float32 summation-order rounding amplified by the conjugate-gradient natural-gradient step (iterations "
               "past convergence: step sizes are rounding residues); 1e-5 relative differences after one update")


def _det(kind, algo, offline=False):
    """The last line of an algorithm test module: its determinism test."""
    more = ", is_offline=True" if offline else ""
    return f'    AlgorithmDeterminismTest("{kind}_{algo}", main_fn, get_args(){more}).run()\n'


RECIPES += [
    _algo("dqn", "discrete/test_dqn", "test_dqn", "    test_dqn(args)\n"),
    _algo("c51", "discrete/test_c51", "test_c51", _det("discrete", "c51")),
    _algo("ppo_discrete", "discrete/test_ppo", "test_ppo", _det("discrete", "ppo")),
    _algo("ddpg", "continuous/test_ddpg", "test_ddpg", _det("continuous", "ddpg"), PENDULUM, edits=_episodes(50)),
    _algo("qrdqn", "discrete/test_qrdqn", "test_qrdqn", _det("discrete", "qrdqn")),
    _algo("iqn", "discrete/test_iqn", "test_iqn", _det("discrete", "iqn")),
    _algo("fqf", "discrete/test_fqf", "test_fqf", _det("discrete", "fqf")),
    _algo("pg", "discrete/test_pg", "test_pg", _det("discrete", "pg")),
    _algo("a2c", "discrete/test_a2c_with_il", "test_a2c_with_il", _det("discrete", "a2c")),
    _algo("sac_discrete", "discrete/test_sac", "test_discrete_sac", _det("discrete", "sac")),
    _algo("drqn", "discrete/test_drqn", "test_drqn", _det("discrete", "drqn"),
          ["--stack-num", "2", "--step-per-epoch", "100"]),
    _algo("rainbow", "discrete/test_rainbow", "test_rainbow", _det("discrete", "rainbow")),
    _algo("bdq", "discrete/test_bdq", "test_bdq", _det("discrete", "bdq"),
          ["--common-hidden-sizes", "16", "--action-hidden-sizes", "16", "--value-hidden-sizes", "16",
           "--action-per-branch", "5"], edits=[("    OffpolicyTrainer(\n", "    result = OffpolicyTrainer(\n")]),
    _algo("td3", "continuous/test_td3", "test_td3", _det("continuous", "td3"), PENDULUM, edits=_episodes(50)),
    _algo("sac_continuous", "continuous/test_sac_with_il", "test_sac_with_il", _det("continuous", "sac"), PENDULUM,
          edits=_episodes(50)),
    _il("sac_il", "continuous/test_sac_with_il", "test_sac_with_il", "continuous", "sac", PENDULUM,
        [*_episodes(50), ("il_test_env = gym.make(args.task)",  # (its imitation stage's test environment)
                          "il_test_env = gym.make(args.task, max_episode_steps=50)")]),
    _il("a2c_il", "discrete/test_a2c_with_il", "test_a2c_with_il", "discrete", "a2c"),
    _algo("ppo_continuous", "continuous/test_ppo", "test_ppo", _det("continuous", "ppo"),
          ["--episode-per-collect", "2", *PENDULUM], edits=_episodes(50)),
    # (NPG and TRPO take one full batch per update, as their tests do: on 16-sample minibatches the KL's Hessian is
    # nearly singular and ten conjugate-gradient steps blow float32 rounding up to NaN parameters)
    _algo("npg", "continuous/test_npg", "test_npg", _det("continuous", "npg"), ["--batch-size", "99999", *PENDULUM],
          xfail=CG_ROUNDING, edits=_episodes(50)),
    _algo("trpo", "continuous/test_trpo", "test_trpo", _det("continuous", "trpo"),
          ["--batch-size", "99999", *PENDULUM], xfail=CG_ROUNDING, edits=_episodes(50)),
    _algo("redq", "continuous/test_redq", "test_redq", "        ignored_messages=ignored_messages,\n    ).run()\n",
          ["--ensemble-size", "3", "--subset-size", "2", "--update-per-step", "1", *PENDULUM], edits=_episodes(50)),
    _algo("dqn_icm", "modelbased/test_dqn_icm", "test_dqn_icm", "    assert stop_fn(result.best_reward)\n"),
    _algo("ppo_icm", "modelbased/test_ppo_icm", "test_ppo", "    assert stop_fn(result.best_reward)\n"),
]

# the offline ones: test/offline/test_MODULE.py on a seeded random-action buffer of Pendulum or CartPole
OFFLINE_RUN = "    stats = trainer.run()\n"
RECIPES += [
    _algo("bcq", "offline/test_bcq", "test_bcq", _det("offline", "bcq", True), OFFLINE, buffer="Pendulum-v1",
          edits=_episodes(50, train=False)),
    _algo("cql", "offline/test_cql", "test_cql", _det("offline", "cql", True), OFFLINE, buffer="Pendulum-v1",
          run=OFFLINE_RUN,
          result="stats", edits=_episodes(50, train=False)),
    _algo("td3_bc", "offline/test_td3_bc", "test_td3_bc", _det("offline", "td3_bc", True), OFFLINE,
          buffer="Pendulum-v1",
          run=OFFLINE_RUN, result="stats", edits=_episodes(50, train=False)),
    _algo("discrete_bcq", "offline/test_discrete_bcq", "test_discrete_bcq", _det("offline", "discrete_bcq", True),
          OFFLINE, buffer="CartPole-v1"),
    _algo("discrete_cql", "offline/test_discrete_cql", "test_discrete_cql", _det("offline", "discrete_cql", True),
          OFFLINE, buffer="CartPole-v1"),
    _algo("discrete_crr", "offline/test_discrete_crr", "test_discrete_crr", _det("offline", "discrete_crr", True),
          OFFLINE, buffer="CartPole-v1"),
    _algo("gail", "offline/test_gail", "test_gail", _det("offline", "gail", True),
          ["--episode-per-collect", "2", *PENDULUM],
          buffer="Pendulum-v1", edits=_episodes(50)),
]


# Tianshou's tutorials (docs/02_notebooks at the release), cell by cell: their environments seeded, their
# ``pprint_asdict()`` of collector and update statistics printed without the wall-clock entries (collect time and
# speed, update time), their training shortened
SHOW = "__import__('corpus_tianshou').show_stats"


def _notebook(name, notebook, edits=()):
    return _r(f"tianshou_nb_{name}", TIANSHOU, f"docs/02_notebooks/{notebook}.ipynb", edits,
              support=TIANSHOU_PACKAGES, keep_going=True)


STATS = ("(collect_result.pprint_asdict())", f"({SHOW}(collect_result))")
RECIPES += [
    _notebook("batch", "L1_Batch"),
    _notebook("buffer", "L2_Buffer"),
    _notebook("policy", "L4_Policy", [
        ("obs, info = env.reset()", "obs, info = env.reset(seed=0)"),
        ("policy.update(sample_size=0, buffer=dummy_buffer, batch_size=10, repeat=6).pprint_asdict()",
         f"{SHOW}(policy.update(sample_size=0, buffer=dummy_buffer, batch_size=10, repeat=6))")]),
    _notebook("collector", "L5_Collector", [
        ('test_envs = DummyVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(2)])',
         'test_envs = DummyVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(2)])\ntest_envs.seed(0)'),
        ('train_envs = DummyVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(train_env_num)])',
         'train_envs = DummyVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(train_env_num)])\n'
         'train_envs.seed(1)'), STATS, STATS, STATS]),
    _notebook("trainer", "L6_Trainer", [
        ('train_envs = DummyVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(train_env_num)])',
         'train_envs = DummyVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(train_env_num)])\n'
         'test_envs.seed(0)\ntrain_envs.seed(1)'),
        ("n_episode = 10", "n_episode = 2"),
        ("train_collector.collect(n_step=2000)", "train_collector.collect(n_step=200)"),
        ("max_epoch=10,", "max_epoch=2,"), ("episode_per_test=10,", "episode_per_test=2,"),
        ("step_per_collect=2000,", "step_per_collect=200,"), ("(result.pprint_asdict())", f"({SHOW}(result))")]),
    _notebook("overview", "L0_overview", [
        ('test_envs = DummyVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(10)])',
         'test_envs = DummyVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(2)])\n'
         'train_envs.seed(0)\ntest_envs.seed(1)'), ("for _ in range(20)", "for _ in range(2)"),
        ("batch_size=256,", "batch_size=32,"), ("max_epoch=10,", "max_epoch=1,"),
        ("step_per_epoch=50000,", "step_per_epoch=200,"), ("repeat_per_collect=10,", "repeat_per_collect=2,"),
        ("episode_per_test=10,", "episode_per_test=2,"), ("step_per_collect=2000,", "step_per_collect=100,"),
        ("(train_result.pprint_asdict())", f"({SHOW}(train_result))")]),
]

# the high-level API's DQN example (``tianshou.highlevel``'s files beside it too): one epoch of 200 steps
HIGHLEVEL = [(p, p) for p in _files({
    "tianshou/highlevel": "__init__ agent config env experiment logger optim persistence trainer world",
    "tianshou/highlevel/module": "__init__ actor core critic intermediate module_opt special",
    "tianshou/highlevel/params": "__init__ alpha dist_fn env_param lr_scheduler noise policy_params policy_wrapper"})]
RECIPES += [
    _r("tianshou_ex_dqn_hl", TIANSHOU, "examples/discrete/discrete_dqn_hl.py", [
        # (the release's example passes train_seed and test_seed, which its EnvFactoryRegistered hands to
        # gym.make: CartPoleEnv refuses them; the experiment seeds its environments from ExperimentConfig.seed)
        ("                train_seed=0,\n                test_seed=10,\n", ""),
        ("                watch=True,", "                watch=False,"),
        ("num_epochs=10,", "num_epochs=1,"), ("step_per_epoch=10000,", "step_per_epoch=200,"),
        ("batch_size=64,", "batch_size=16,"), ("num_train_envs=10,", "num_train_envs=2,"),
        ("num_test_envs=100,", "num_test_envs=2,"), ("buffer_size=20000,", "buffer_size=1000,"),
        ("hidden_sizes=(64, 64)", "hidden_sizes=(16, 16)"),
        ("    experiment.run()",
         "    result = experiment.run()\n    __import__('corpus_tianshou').show_experiment(result)")],
       support=[*TIANSHOU_PACKAGES, *HIGHLEVEL]),
]

RECIPES += [
    _driver("batch", "batch()"),
    _driver("nets", "nets()"),
    _driver("buffers_returns", "buffers_returns()"),
    _driver("discrete_policies", "discrete_policies()"),
    _driver("continuous_policies", "continuous_policies()"),
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
