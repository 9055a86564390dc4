"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

skrl and ncps on core (2026-12-06, corpus helper s23 SKRL): Toni-SM/skrl at its 2.0.0 release (MIT), its PyTorch side
(``skrl/*/torch``; not its JAX and Warp modules), with Farama-Foundation/Gymnasium at v1.2.3 and cloudpickle at
v3.1.2 (``recipes_sb3``'s pins). Each script holds the packages beside it (``SKRL_PACKAGES``), which the runner loads
in both runs (``runner._fetched_packages``); tqdm and tensorboard's event writer are ``fake_skrl_deps``, whose writer
prints every scalar an agent logs (its losses, learning rate, rewards, entropies; not its timings). The scripts are
skrl's own Gymnasium examples (``examples/gymnasium/torch_*``: PPO, TRPO, SAC, TD3, DDPG, DQN, CEM, Q-learning and
SARSA, feed-forward and GRU/LSTM/RNN models, three agents sharing one environment) run for a few hundred seeded
steps, its own test modules through pytest (hypothesis seeded, fewer examples), and drivers of ours
(``corpus_skrl.py``) appended to ``skrl/__init__.py`` run as a script.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_sb3 import _GYMNASIUM_MODULES, CLOUDPICKLE, GYMNASIUM, _files

RECIPES: list[dict] = []

SKRL = ("Toni-SM/skrl", "c29ced630e83ab32304dc8a3de241a70d3bc5746", "MIT")  # the 2.0.0 release (2026-04-08)

_SKRL_MODULES = {  # every module of skrl 2.0.0 but its jax/ and warp/ ones
    "skrl": "__init__",
    "skrl/agents": "__init__",
    "skrl/agents/torch": "__init__ base",
    "skrl/agents/torch/a2c": "__init__ a2c a2c_cfg a2c_rnn",
    "skrl/agents/torch/amp": "__init__ amp amp_cfg",
    "skrl/agents/torch/cem": "__init__ cem cem_cfg",
    "skrl/agents/torch/ddpg": "__init__ ddpg ddpg_cfg ddpg_rnn",
    "skrl/agents/torch/ddqn": "__init__ ddqn ddqn_cfg",
    "skrl/agents/torch/dqn": "__init__ dqn dqn_cfg",
    "skrl/agents/torch/ppo": "__init__ ppo ppo_cfg ppo_rnn",
    "skrl/agents/torch/q_learning": "__init__ q_learning q_learning_cfg",
    "skrl/agents/torch/rpo": "__init__ rpo rpo_cfg rpo_rnn",
    "skrl/agents/torch/sac": "__init__ sac sac_cfg sac_rnn",
    "skrl/agents/torch/sarsa": "__init__ sarsa sarsa_cfg",
    "skrl/agents/torch/td3": "__init__ td3 td3_cfg td3_rnn",
    "skrl/agents/torch/trpo": "__init__ trpo trpo_cfg trpo_rnn",
    "skrl/envs": "__init__",
    "skrl/envs/loaders": "__init__",
    "skrl/envs/loaders/torch": "__init__ isaaclab_envs playground_envs",
    "skrl/envs/wrappers": "__init__",
    "skrl/envs/wrappers/torch": "__init__ base gym_envs gymnasium_envs isaaclab_envs mani_skill_envs pettingzoo_envs "
        "playground_envs",
    "skrl/memories": "__init__",
    "skrl/memories/torch": "__init__ base random",
    "skrl/models": "__init__",
    "skrl/models/torch": "__init__ base categorical deterministic gaussian multicategorical multivariate_gaussian "
        "tabular",
    "skrl/multi_agents": "__init__",
    "skrl/multi_agents/torch": "__init__ base",
    "skrl/multi_agents/torch/ippo": "__init__ ippo ippo_cfg",
    "skrl/multi_agents/torch/mappo": "__init__ mappo mappo_cfg",
    "skrl/resources": "__init__",
    "skrl/resources/noises": "__init__",
    "skrl/resources/noises/torch": "__init__ base gaussian ornstein_uhlenbeck",
    "skrl/resources/optimizers": "__init__",
    "skrl/resources/preprocessors": "__init__",
    "skrl/resources/preprocessors/torch": "__init__ running_standard_scaler",
    "skrl/resources/schedulers": "__init__",
    "skrl/resources/schedulers/torch": "__init__ kl_adaptive",
    "skrl/trainers": "__init__",
    "skrl/trainers/torch": "__init__ base parallel sequential step",
    "skrl/utils": "__init__ huggingface postprocessing tensorboard",
    "skrl/utils/distributed": "__init__",
    "skrl/utils/framework": "__init__",
    "skrl/utils/model_instantiators": "__init__",
    "skrl/utils/model_instantiators/torch": "__init__ categorical common deterministic gaussian multicategorical "
        "multivariate_gaussian shared tabular",
    "skrl/utils/runner": "__init__",
    "skrl/utils/runner/torch": "__init__ runner",
    "skrl/utils/spaces": "__init__",
    "skrl/utils/spaces/torch": "__init__ spaces",
}
SKRL_PACKAGES = [*((p, p) for p in _files(_SKRL_MODULES)),
                 *((*GYMNASIUM[:2], p, p) for p in _files(_GYMNASIUM_MODULES)),
                 *((*CLOUDPICKLE[:2], p, p) for p in ("cloudpickle/__init__.py", "cloudpickle/cloudpickle.py",
                                                      "cloudpickle/cloudpickle_fast.py"))]

# skrl's Gymnasium examples, each run headless with seed 42 for 200 steps (the trainer's dict literal gets a second
# "timesteps" key, which wins), its scalars written every 20 steps (printed by fake_skrl_deps' writer); PPO and TRPO
# roll out 64 steps (not 1024) in 2 epochs of 4 mini-batches (2 for the recurrent models, whose sequences are 32
# steps long), the off-policy agents update on batches of 32 (not 100) after their 100 warm-up steps (recurrent ones:
# see SHORT_BATCH)
ARGS = ("args, _ = parser.parse_known_args()", 'args, _ = parser.parse_known_args(["--headless", "--seed", "42"])')
STEPS = ('"headless": args.headless}', '"headless": args.headless, "timesteps": 200}')
WRITE = ('experiment.write_interval = "auto" if not args.eval else 0', "experiment.write_interval = 20")
ROLLOUTS = [("memory_size=1024", "memory_size=64"), ("cfg.rollouts = 1024", "cfg.rollouts = 64"),
            ("cfg.learning_epochs = 10", "cfg.learning_epochs = 2")]
BATCH = ("batch_size = 100", "batch_size = 32")
# the off-policy recurrent models update on 20-step sequences: 10 updates of 8 sequences (each update runs the
# recurrent layer over 160 steps for the critic, policy and targets; 100 updates took minutes of core's CPU)
SHORT_BATCH, LATE_START = ("batch_size = 100", "batch_size = 8"), ("learning_starts = 100", "learning_starts = 190")


# The wrapped environment's action space seeded: the agents' random actions (DDPG's and TD3's warm-up steps, DQN's
# epsilon-greedy ones) are Gymnasium's ``batch_space(space).sample()``, drawn from the space's own generator, which
# Gymnasium seeds from the OS when nobody seeds it: torch's run differs from itself without this
SEED_SPACE = ("env = wrap_env(env)", "env = wrap_env(env); env.action_space.seed(42)")


# float32 GEMM rounding: the examples' Linear layers (3 to 64 inputs, one environment's observation or a batch of 32)
# run through MKL's sgemm in torch, whose summation order core reproduces only in core/_small_gemm.py's measured
# regions (elsewhere NumPy's OpenBLAS): pendulum_ppo's first action mean is -0.22197576 in core, -0.22197573 in torch,
# from the same observation; training amplifies that past 1e-5 in the logged losses and rewards
GEMM = ("float32 GEMM rounding (MKL's sgemm order in torch, OpenBLAS's in core outside core/_small_gemm.py's "
        "regions): the first actions' means differ in the last bit from identical observations, and the updates grow "
        "that past 1e-5 in the logged {}")
DRIFT = {name: GEMM.format(what) for names, what in (
    (("pendulum_ddpg", "pendulum_td3", "pendulumnovel_ddpg", "pendulumnovel_td3", "sequential_shared_memory",
      "sequential_unshared_memory"), "critic and policy losses and rewards"),
    (("pendulum_sac",), "entropy coefficient and losses"),
    (("pendulumnovel_ddpg_gru", "pendulumnovel_ddpg_rnn", "pendulumnovel_sac_gru", "pendulumnovel_sac_rnn",
      "pendulumnovel_td3_lstm", "pendulumnovel_td3_rnn", "pendulumnovel_ppo_gru", "pendulumnovel_ppo_lstm",
      "pendulumnovel_ppo_rnn"), "losses (the recurrent layers' input and hidden products too)"),
    (("pendulum_ppo", "pendulumnovel_ppo"), "policy and value losses"),
    (("pendulum_trpo", "pendulumnovel_trpo", "pendulumnovel_trpo_gru", "pendulumnovel_trpo_lstm",
      "pendulumnovel_trpo_rnn"), "losses (TRPO's conjugate-gradient step and line search amplify it)"))
    for name in names}


def _example(name, file, edits, xfail=None):
    return _r(f"skrl_example_{name}", SKRL, f"examples/gymnasium/torch_gymnasium_{file}.py",
              [ARGS, STEPS, SEED_SPACE, *edits], support=SKRL_PACKAGES, xfail=xfail or DRIFT.get(name))


def _on_policy(name, recurrent=False, xfail=None):
    mini = ("cfg.mini_batches = 32", f"cfg.mini_batches = {2 if recurrent else 4}")
    return _example(name, name, [*ROLLOUTS, mini, WRITE], xfail)


RECIPES += [
    _example("cartpole_cem", "cartpole_cem", [("cfg.rollouts = 1000", "cfg.rollouts = 50"),
                                              ("cfg.learning_starts = 100", "cfg.learning_starts = 50"), WRITE]),
    _example("cartpole_dqn", "cartpole_dqn", [WRITE]),
    _example("frozen_lake_q_learning", "frozen_lake_q_learning", [WRITE]),
    _example("taxi_sarsa", "taxi_sarsa", [WRITE]),
    *(_example(name, name, [BATCH, WRITE]) for name in (
        "pendulum_ddpg", "pendulum_sac", "pendulum_td3", "pendulumnovel_ddpg", "pendulumnovel_sac",
        "pendulumnovel_td3")),
    *(_example(name, name, [SHORT_BATCH, LATE_START, WRITE]) for name in (
        "pendulumnovel_ddpg_gru", "pendulumnovel_ddpg_lstm", "pendulumnovel_ddpg_rnn", "pendulumnovel_sac_gru",
        "pendulumnovel_sac_lstm", "pendulumnovel_sac_rnn", "pendulumnovel_td3_gru", "pendulumnovel_td3_lstm",
        "pendulumnovel_td3_rnn")),
    *(_on_policy(name) for name in ("pendulum_ppo", "pendulum_trpo", "pendulumnovel_ppo", "pendulumnovel_trpo")),
    *(_on_policy(name, recurrent=True) for name in (
        "pendulumnovel_ppo_gru", "pendulumnovel_ppo_lstm", "pendulumnovel_ppo_rnn", "pendulumnovel_trpo_gru",
        "pendulumnovel_trpo_lstm", "pendulumnovel_trpo_rnn")),
    *(_example(name, f"pendulum_ddpg_td3_sac_{name}", [BATCH, BATCH, BATCH, *[("learning_starts = 100",
                                                                                "learning_starts = 150")] * 3,
                                                       WRITE, WRITE, WRITE])
      for name in ("sequential_shared_memory", "sequential_unshared_memory")),
]

# Drivers of ours (corpus_skrl.py) appended to skrl/__init__.py run as a script (it imports the package beside it)
INIT_LAST = "config = _Config()\n"  # the end of skrl/__init__.py


def _driver(name, *calls, xfail=None):
    code = "".join(f"__import__('corpus_skrl').{call}\n" for call in calls)
    return _r(f"skrl_{name}", SKRL, "skrl/__init__.py", [(INIT_LAST, INIT_LAST + code)], support=SKRL_PACKAGES,
              xfail=xfail)


RECIPES += [
    _driver("mixins", "mixins()", xfail="float32 GEMM rounding (MKL's sgemm order in torch, OpenBLAS's in core "
            "outside core/_small_gemm.py's regions): the mixins' 4-8-3 MLP gives 0.31895217 in torch where core "
            "gives 0.31895214 (a net output, 5 rows), so log-probabilities, entropies and a gradient differ past 1e-5"),
    _driver("preprocessor", "preprocessor()"),
    _driver("noises_scheduler", "noises()", "scheduler()"),
    _driver("memory", "memory()"),
    _driver("instantiators", "instantiators()"),
    _driver("a2c", "a2c()", xfail=GEMM.format("losses")),
    _driver("rpo", "rpo()", xfail=GEMM.format("losses")),
    _driver("ppo_multivariate", "ppo_multivariate()", xfail=GEMM.format("losses")),
    _driver("dqn_ddqn", "dqn()"),
    _driver("ddpg_ou", "ddpg_ou()"),
]

# skrl's own test modules through pytest in the script's process (corpus_skrl.run_tests: hypothesis derandomised,
# no example database, at most 2 examples per test: the agent tests' explicit ``max_examples=15`` becomes 2; not
# tests/memories, whose tests instantiate the abstract ``Memory`` and fail in torch too);
# ``from ...utilities import`` (the tests package's helpers, fetched beside the script) becomes an absolute import
TEST_SUPPORT = [(p, p) for p in ("tests/__init__.py", "tests/utilities.py", "tests/strategies.py")]


def _tests(name, path, edits=(), xfail=None, first="import hypothesis\n", args=()):
    run = (first, "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
           f"    __import__('corpus_skrl').run_tests(__file__, *{args!r})\n    raise SystemExit\n{first}")
    return _r(f"skrl_test_{name}", SKRL, f"tests/{path}.py", [run, *edits], support=[*SKRL_PACKAGES, *TEST_SUPPORT],
              xfail=xfail)


UTILITIES = ("from ...utilities import", "from tests.utilities import")
FEWER = ("max_examples=15,", "max_examples=2,")
RECIPES += [
    *(_tests(agent, f"agents/torch/test_{agent}", [UTILITIES, FEWER]) for agent in (
        "a2c", "cem", "ddpg", "ddqn", "dqn", "ppo", "q_learning", "rpo", "sac", "sarsa", "td3", "trpo", "amp")),
    *(_tests(agent, f"multi_agents/torch/test_{agent}", [UTILITIES, FEWER]) for agent in ("ippo", "mappo")),
    _tests("sequential_trainer", "trainers/torch/test_sequential", [UTILITIES]),
    _tests("step_trainer", "trainers/torch/test_step", [UTILITIES]),
    # (not its AsyncVectorEnv case, which starts worker processes)
    _tests("gymnasium_wrapper", "envs/wrappers/torch/test_gymnasium_envs", first="import pytest\n",
           args=("-k", "not async")),
]

# mlech26l/ncps (Apache-2.0) at its 1.0.1 release commit (2024-08-14, "Bump version to 1.0.1"; untagged, the
# release on the package index): ncps/__init__.py run as a script beside its package (its datasets and wirings
# modules, ``ncps.torch``; not the Keras, TensorFlow and Paddle ones), drivers of ours appended (corpus_skrl's
# ``ncps_*``: wirings, CfC, wired CfC and LTC trained a few Adam steps on a seeded sine sequence); and its own
# ``ncps/tests/test_torch.py`` through pytest
NCPS = ("mlech26l/ncps", "695ec22d7d1831f2ced67346ef7d2f08c525bd47", "Apache-2.0")
NCPS_PACKAGE = [(f"ncps/{m}.py", f"ncps/{m}.py") for m in (
    "__init__", "datasets/__init__", "datasets/icra2020_lidar_collision_avoidance", "datasets/utils",
    "datasets/torch/__init__", "datasets/torch/atari_cloning", "torch/__init__", "torch/cfc", "torch/cfc_cell",
    "torch/lstm", "torch/ltc", "torch/ltc_cell", "torch/wired_cfc_cell", "wirings/__init__", "wirings/wirings")]


def _ncps(name, call, xfail=None):
    return _r(f"ncps_{name}", NCPS, "ncps/__init__.py",
              [("from . import wirings\nfrom . import datasets\n",
                "import ncps\nfrom ncps import wirings, datasets  # (run as a script: the package beside it)\n"
                f"__import__('corpus_skrl').{call}\n")], support=NCPS_PACKAGE, xfail=xfail)


RECIPES += [
    _ncps("wirings", "ncps_wirings()"),
    _ncps("cfc", "ncps_cfc()", xfail="float32 GEMM rounding: CfC's backbone Linear(10, 128) on a batch of 2 rounds in "
          "MKL's order in torch (outside core/_small_gemm.py's reproducible regions): the first loss prints "
          "0.43583497 in core, 0.43583503 in torch, and five Adam steps carry it past 1e-5"),
    _ncps("wired_cfc", "ncps_wired_cfc()"),
    _ncps("ltc", "ncps_ltc()", xfail="float32 last-bit drift not traced to one op (LTC has no GEMM: its synapses are "
          "elementwise sigmoids summed over dim 1, which agree bit for bit; torch's vector exp, SLEEF's, differs from "
          "core's correctly rounded one on ~2% of float32 inputs): the first two losses agree, the third differs in "
          "the last bit, and a near-zero parameter sum prints -7.525e-07 vs -7.488e-07"),
    _r("ncps_test_torch", NCPS, "ncps/tests/test_torch.py",
       [("import numpy as np\n", "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
         "    __import__('corpus_skrl').run_tests(__file__)\n    raise SystemExit\nimport numpy as np\n")],
       support=NCPS_PACKAGE),
]
