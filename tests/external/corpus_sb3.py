"""Drivers for ``recipes_sb3.py`` (our text): Stable-Baselines3's own package on core, run as its tests and docs do.

Each script holds SB3's, Gymnasium's and cloudpickle's packages beside it (``runner._fetched_packages``; pandas and
``matplotlib.figure`` are ``fake_sb3_deps``). ``run_tests`` runs one of SB3's own test modules as pytest would (its
``parametrize`` grids expanded, ``tmp_path`` a fresh folder), printing ``name[args] ok`` or what it raised. The other
drivers train each algorithm for a few hundred seeded steps on Gymnasium's classic-control environments and print
what a user reads (losses, actions, parameters, log-probabilities) at full precision, so core and torch are compared
number for number.
"""

from __future__ import annotations

import inspect
import os
import shutil
import sys
import time
import traceback

import corpus_pytest_marks as marks
import numpy as np
import torch


def _cases(fn):
    """The argument sets pytest would call ``fn`` with, or a reason it is not run (a ``skip``/``skipif`` that holds,
    a fixture other than ``tmp_path``)."""
    reason = marks.skip_reason(fn)
    if reason is not None:
        return reason
    cases = marks.product(marks.parametrize_grids(fn))
    missing = [name for name in marks.required_args(fn, given=cases[0]) if name != "tmp_path"]
    return f"needs the fixture {missing[0]}" if missing else cases


def run_tests(namespace, only=None, skip=(), every=1):
    """SB3's test functions in ``namespace`` (a test module run as a script), each parametrized case with torch's,
    NumPy's and Python's seeds at 0, as pytest would run them; ``only`` names the tests to run, ``every`` runs every
    k-th case of each grid. A failure prints its exception's type and first line (the same in both libraries)."""
    import pathlib
    import random

    for name, fn in list(namespace.items()):
        if not name.startswith("test_") or not inspect.isfunction(fn) or (only and name not in only):
            continue
        if name in skip:
            print(name, "left out")
            continue
        cases = _cases(fn)
        if isinstance(cases, str):
            print(name, "not run:", cases)
            continue
        if every > 1 and len(cases) > every:
            print(name, f"every {every}th of {len(cases)} cases")
            cases = cases[::every]
        for kwargs in cases:
            label = marks.case_label(name, kwargs.items())
            if "SubprocVecEnv" in label:  # (a process per environment: the runner runs scripts in one process)
                print(label, "not run: SubprocVecEnv")
                continue
            torch.manual_seed(0)
            np.random.seed(0)
            random.seed(0)
            folder = os.path.join("tmp_path", name)  # (beside the script: the paths the tests print are the same)
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            if "tmp_path" in inspect.signature(fn).parameters:
                kwargs = {**kwargs, "tmp_path": pathlib.Path(folder)}
            start = time.process_time()
            try:
                fn(**kwargs)
                print(label, "ok")
            except BaseException as exc:  # the failure is the output, in both libraries (pytest.skip's too)
                if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    raise
                if type(exc).__name__ == "Skipped":
                    print(label, "skipped:", str(exc).splitlines()[0][:150])
                    continue
                if os.environ.get("CORPUS_SB3_TRACEBACKS"):  # (for whoever looks into a difference)
                    traceback.print_exc()
                text = str(exc).splitlines()[0][:150] if str(exc) else ""
                print(label, "raised", type(exc).__name__, text)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
                if os.environ.get("CORPUS_SB3_TIMES"):  # (for whoever picks the tests that fit a script's time)
                    sys.stderr.write(f"TIME {time.process_time() - start:.3f} {label}\n")


# What the drivers print ---------------------------------------------------------------------------------------------
def _values(t, n=6):
    """A tensor's or array's first ``n`` values (flattened) at full precision."""
    if isinstance(t, torch.Tensor):
        t = t.detach().cpu().numpy()
    return np.asarray(t).reshape(-1)[:n].tolist()


def show(name, t, n=6):
    if isinstance(t, torch.Tensor):
        print(name, tuple(t.shape), t.dtype, _values(t, n))
    else:
        array = np.asarray(t)
        print(name, array.shape, array.dtype, _values(array, n))


def show_parameters(module, n=4):
    """Every parameter's shape and first values to 7 decimals. (The sum of a trained layer's weights is a
    cancellation; a bias that Adam moved by steps whose gradients are rounding residues, 1e-6 against eps 1e-5, keeps
    their summation order's digits: -2.94827e-06 in core, -2.94806e-06 in torch.)"""
    for name, p in module.named_parameters():
        print(name, tuple(p.shape), p.dtype, [f"{v:.7f}" for v in _values(p, n)])


# what is left of a cancellation, to 5 decimals: PPO's approximate KL (the mean of ratio - 1 - log ratio, ratios within
# 1e-3 of 1), policy losses over normalised advantages (whose mean is 0) and explained variances near 0 (1 - a ratio
# near 1) are float32 rounding residues whose digits follow the summation order
_CANCELLING = ("train/approx_kl", "train/policy_gradient_loss", "train/policy_loss", "train/explained_variance")


def printing_logger():
    """An SB3 ``Logger`` whose one output prints what each dump records, but the wall-clock ``time/`` keys."""
    from stable_baselines3.common.logger import KVWriter, Logger

    class Printer(KVWriter):
        def write(self, key_values, key_excluded, step=0):
            shown = {k: f"{v:.5f}" if k in _CANCELLING else repr(v) for k, v in sorted(key_values.items())
                     if not k.startswith("time/")}
            print(f"  [step {step}]", ", ".join(f"{k}={v}" for k, v in shown.items()))

        def close(self):
            pass

    return Logger(folder=None, output_formats=[Printer()])


def _rollout(model, env_id, steps=6, seed=3, deterministic=True):
    """``predict`` along one seeded episode of a fresh environment: the actions and the observations."""
    import gymnasium as gym

    env = gym.make(env_id)
    obs, _ = env.reset(seed=seed)
    for _ in range(steps):
        action, _ = model.predict(obs, deterministic=deterministic)
        print("  obs", _values(obs), "action", _values(action))
        obs, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            obs, _ = env.reset()


def train(algo, env_id, steps, policy="MlpPolicy", log_interval=1, n_envs=None, **kwargs):
    """``algo`` trained on ``env_id`` for ``steps`` with seed 0 and a printing logger, then its parameters, seeded
    predictions (deterministic and sampled) and ``evaluate_policy`` over two episodes."""
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.evaluation import evaluate_policy

    env = make_vec_env(env_id, n_envs=n_envs, seed=0) if n_envs else env_id
    model = algo(policy, env, seed=0, **kwargs)
    model.set_logger(printing_logger())
    model.learn(steps, log_interval=log_interval)
    print(type(model).__name__, env_id, "num_timesteps", model.num_timesteps, "updates",
          getattr(model, "_n_updates", None))
    show_parameters(model.policy)
    _rollout(model, env_id)
    _rollout(model, env_id, steps=3, seed=5, deterministic=False)
    import gymnasium as gym
    from stable_baselines3.common.monitor import Monitor

    short = Monitor(gym.make(env_id, max_episode_steps=40))  # (Pendulum's episodes last 200 steps, MountainCar's 999)
    short.reset(seed=7)
    rewards, lengths = evaluate_policy(model, short, n_eval_episodes=2, return_episode_rewards=True)
    print("evaluate_policy", rewards, lengths)
    return model


# Algorithms ---------------------------------------------------------------------------------------------------------
def ppo_cartpole():
    from stable_baselines3 import PPO

    train(PPO, "CartPole-v1", 192, n_steps=64, batch_size=32, n_epochs=3, policy_kwargs=dict(net_arch=[32, 32]))


def ppo_pendulum_sde():
    from stable_baselines3 import PPO

    model = train(PPO, "Pendulum-v1", 128, n_steps=64, batch_size=32, n_epochs=2, use_sde=True, sde_sample_freq=4,
                  clip_range_vf=0.2, target_kl=0.5,
                  policy_kwargs=dict(net_arch=dict(pi=[32], vf=[16]), log_std_init=-1))
    show("log_std", model.policy.log_std)
    dist = model.policy.get_distribution(torch.zeros(2, 3))
    show("std", dist.distribution.stddev)


def ppo_multi_envs():
    from stable_baselines3 import PPO

    train(PPO, "MountainCarContinuous-v0", 128, n_envs=4, n_steps=16, batch_size=16, n_epochs=2, ent_coef=0.01,
          normalize_advantage=False, gae_lambda=0.8, policy_kwargs=dict(net_arch=[16], activation_fn=torch.nn.ReLU,
                                                                     ortho_init=False))


def a2c_cartpole_tflike():
    from stable_baselines3 import A2C
    from stable_baselines3.common.sb2_compat.rmsprop_tf_like import RMSpropTFLike

    train(A2C, "CartPole-v1", 160, n_steps=8, log_interval=5, normalize_advantage=True, use_rms_prop=False,
          policy_kwargs=dict(optimizer_class=RMSpropTFLike, optimizer_kwargs=dict(alpha=0.99, eps=1e-5, weight_decay=0),
                             net_arch=[32]))


def a2c_pendulum():
    from stable_baselines3 import A2C

    train(A2C, "Pendulum-v1", 160, n_envs=2, n_steps=5, log_interval=4, gae_lambda=0.9, max_grad_norm=0.5,
          vf_coef=0.4, policy_kwargs=dict(net_arch=dict(pi=[32, 32], vf=[32, 32]), full_std=True, squash_output=False))


def dqn_cartpole():
    from stable_baselines3 import DQN

    model = train(DQN, "CartPole-v1", 300, learning_starts=100, train_freq=4, gradient_steps=2, batch_size=32,
                  target_update_interval=50, exploration_fraction=0.5, buffer_size=1000, log_interval=4,
                  policy_kwargs=dict(net_arch=[32, 32]))
    print("exploration_rate", model.exploration_rate)
    q = model.q_net(torch.tensor([[0.01, -0.02, 0.03, 0.04]]))
    show("q_values", q)
    show("q_net_target", model.q_net_target(torch.tensor([[0.01, -0.02, 0.03, 0.04]])))


def sac_pendulum():
    from stable_baselines3 import SAC

    model = train(SAC, "Pendulum-v1", 160, learning_starts=100, batch_size=32, buffer_size=1000, train_freq=2,
                  gradient_steps=1, log_interval=1, policy_kwargs=dict(net_arch=[32, 32]))
    show("log_ent_coef", model.log_ent_coef)
    actions, log_prob = model.actor.action_log_prob(torch.tensor([[0.5, -0.5, 0.1], [1.0, 0.0, -2.0]]))
    show("actions", actions)
    show("log_prob", log_prob)


def sac_sde():
    from stable_baselines3 import SAC

    model = train(SAC, "MountainCarContinuous-v0", 96, learning_starts=64, batch_size=16, buffer_size=500,
                  use_sde=True, sde_sample_freq=8, use_sde_at_warmup=True, ent_coef="auto_0.5", target_entropy=-0.5,
                  train_freq=8, gradient_steps=-1, log_interval=1,
                  policy_kwargs=dict(net_arch=dict(pi=[16], qf=[24]), log_std_init=-2, n_critics=2))
    show("log_std", model.actor.log_std)


def td3_pendulum():
    from stable_baselines3 import TD3
    from stable_baselines3.common.noise import NormalActionNoise

    noise = NormalActionNoise(mean=np.zeros(1), sigma=0.1 * np.ones(1))
    train(TD3, "Pendulum-v1", 160, learning_starts=100, batch_size=32, buffer_size=1000, action_noise=noise,
          policy_delay=2, target_policy_noise=0.2, target_noise_clip=0.5, tau=0.01, log_interval=1,
          policy_kwargs=dict(net_arch=dict(pi=[32], qf=[32, 16])))


def ddpg_mountaincar():
    from stable_baselines3 import DDPG
    from stable_baselines3.common.noise import OrnsteinUhlenbeckActionNoise, VectorizedActionNoise

    noise = VectorizedActionNoise(OrnsteinUhlenbeckActionNoise(mean=np.zeros(1), sigma=0.3 * np.ones(1)), n_envs=2)
    train(DDPG, "MountainCarContinuous-v0", 160, n_envs=2, learning_starts=40, batch_size=16, buffer_size=500,
          action_noise=noise, train_freq=4, gradient_steps=2, log_interval=1, policy_kwargs=dict(net_arch=[24, 24]))
    print(repr(noise))


# Distributions, utilities, buffers ----------------------------------------------------------------------------------
def distributions():
    """Each of SB3's action distributions built by ``make_proba_distribution`` from its action space, sampled with a
    seeded generator: actions, log-probabilities, entropies, modes and KL divergences; TanhBijector's inverse."""
    from gymnasium import spaces
    from stable_baselines3.common.distributions import (
        BernoulliDistribution,
        CategoricalDistribution,
        DiagGaussianDistribution,
        MultiCategoricalDistribution,
        SquashedDiagGaussianDistribution,
        StateDependentNoiseDistribution,
        TanhBijector,
        kl_divergence,
        make_proba_distribution,
        sum_independent_dims,
    )

    torch.manual_seed(0)
    latent = torch.randn(5, 8)
    cases = [(spaces.Discrete(4), {}), (spaces.MultiDiscrete([3, 2, 4]), {}), (spaces.MultiBinary(3), {}),
             (spaces.Box(-1, 1, (2,)), {}), (spaces.Box(-2, 2, (2,)), {"squash_output": True}),
             (spaces.Box(-1, 1, (2,)), {"use_sde": True}),
             (spaces.Box(-1, 1, (3,)), {"use_sde": True, "dist_kwargs": {"full_std": False, "squash_output": True,
                                                                         "use_expln": True}})]
    for space, kwargs in cases:
        torch.manual_seed(1)
        dist = make_proba_distribution(space, **kwargs)
        print(type(dist).__name__, space)
        if isinstance(dist, StateDependentNoiseDistribution):
            net, log_std = dist.proba_distribution_net(8, log_std_init=-0.5, latent_sde_dim=8)
            dist.sample_weights(log_std, batch_size=5)
            mean = net(latent)
            dist.proba_distribution(mean, log_std, latent)
            show("  exploration_mat", dist.exploration_mat)
            show("  get_std", dist.get_std(log_std))
        elif isinstance(dist, DiagGaussianDistribution):
            net, log_std = dist.proba_distribution_net(8, log_std_init=-0.3)
            dist.proba_distribution(net(latent), log_std)
        else:
            net = dist.proba_distribution_net(8)
            dist.proba_distribution(net(latent))
        actions = dist.sample()
        show("  sample", actions)
        show("  mode", dist.mode())
        show("  log_prob", dist.log_prob(actions))
        entropy = dist.entropy()
        show("  entropy", entropy) if entropy is not None else print("  entropy None")
        det = dist.get_actions(deterministic=True)
        show("  deterministic", det)
        if not isinstance(dist, (StateDependentNoiseDistribution, SquashedDiagGaussianDistribution)):
            other = type(dist)(*([space.shape[0]] if isinstance(dist, DiagGaussianDistribution) else
                                 [int(space.n)] if isinstance(dist, CategoricalDistribution) else
                                 [list(space.nvec)] if isinstance(dist, MultiCategoricalDistribution) else
                                 [space.n]))
            if isinstance(dist, DiagGaussianDistribution):
                other.proba_distribution(net(latent * 0.5), log_std + 0.1)
            else:
                other.proba_distribution(net(latent * 0.5))
            show("  kl_divergence", kl_divergence(dist, other))
    bijector = TanhBijector(epsilon=1e-6)
    y = torch.tensor([-0.999999, -0.5, 0.0, 0.25, 0.9999999])
    show("atanh", TanhBijector.atanh(y.clamp(-0.99, 0.99)))
    show("inverse", TanhBijector.inverse(y))
    show("log_prob_correction", bijector.log_prob_correction(torch.tensor([-3.0, 0.0, 0.5, 8.0])))
    show("sum_independent_dims", sum_independent_dims(torch.arange(6.0).reshape(2, 3)))
    squashed = SquashedDiagGaussianDistribution(2)
    actions, log_prob = squashed.log_prob_from_params(torch.tensor([[0.3, -2.0]]), torch.tensor([-1.0, 0.5]))
    show("squashed actions", actions)
    show("squashed log_prob", log_prob)
    bern = BernoulliDistribution(3).proba_distribution(torch.tensor([[-20.0, 0.0, 20.0]]))
    show("bernoulli log_prob", bern.log_prob(torch.tensor([[0.0, 1.0, 1.0]])))


def utils():
    """SB3's ``common.utils`` and ``preprocessing``: seeding, schedules, explained variance, polyak updates (through
    ``torch._foreach_*``), observation conversion and preprocessing for each space."""
    import gymnasium as gym
    from gymnasium import spaces
    from stable_baselines3.common import preprocessing as pre
    from stable_baselines3.common import utils as u

    u.set_random_seed(3)
    show("after set_random_seed", torch.rand(3))
    print("np", np.random.rand(2).tolist())
    print("get_device", u.get_device("auto"), u.get_device("cpu"))
    print("linear_fn", [u.get_linear_fn(1.0, 0.05, 0.5)(p) for p in (1.0, 0.75, 0.5, 0.2)])
    print("schedule", u.get_schedule_fn(3e-4)(0.5), u.FloatSchedule(0.1)(0.3), u.LinearSchedule(1.0, 0.0, 0.5)(0.8))
    rng = np.random.RandomState(0)
    y = rng.randn(50).astype(np.float32)
    print("explained_variance", u.explained_variance(y + 0.5 * rng.randn(50).astype(np.float32), y))
    print("safe_mean", u.safe_mean([]), u.safe_mean([1.0, 2.0, 4.0]))
    source = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
    target = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
    source(torch.randn(6, 3))
    with torch.no_grad():
        u.polyak_update(source.parameters(), target.parameters(), 0.05)
        u.polyak_update(u.get_parameters_by_name(source, ["running_"]), u.get_parameters_by_name(target, ["running_"]),
                        1.0)
    for name, t in target.state_dict().items():
        show("polyak " + name, t)
    box = spaces.Box(-1, 1, (2, 3))
    image = spaces.Box(0, 255, (3, 8, 8), dtype=np.uint8)
    dict_space = spaces.Dict({"img": image, "vec": box, "d": spaces.Discrete(5)})
    for space in (box, image, spaces.Discrete(5), spaces.MultiDiscrete([2, 3]), spaces.MultiBinary(4), dict_space):
        space.seed(0)  # (a space's own generator is seeded from the OS otherwise)
        sample = space.sample()
        print(type(space).__name__, pre.get_obs_shape(space), pre.get_flattened_obs_dim(space) if not isinstance(
            space, spaces.Dict) else "-", pre.is_image_space(space), u.is_vectorized_observation(sample, space))
        obs = u.obs_as_tensor({k: np.asarray(v)[None] for k, v in sample.items()} if isinstance(sample, dict)
                              else np.asarray(sample)[None], torch.device("cpu"))
        processed = pre.preprocess_obs(obs, space, normalize_images=True)
        if isinstance(processed, dict):
            for k, v in processed.items():
                show(f"  {k}", v)
        else:
            show("  preprocessed", processed)
    for dtype in (np.float64, np.float16, np.int32, np.int64, np.uint8, np.bool_, np.int8):
        t = u.obs_as_tensor(np.arange(4).astype(dtype), torch.device("cpu"))
        print("as_tensor", dtype.__name__, t.dtype, t.tolist())
    print("action_dim", [pre.get_action_dim(s) for s in (box, spaces.Discrete(5), spaces.MultiDiscrete([2, 3]),
                                                          spaces.MultiBinary(4))])
    print("transposed", pre.maybe_transpose(np.zeros((8, 8, 3)), spaces.Box(0, 255, (8, 8, 3), np.uint8)).shape)
    env = gym.make("CartPole-v1")
    u.check_for_correct_spaces(env, env.observation_space, env.action_space)
    try:
        u.check_for_correct_spaces(env, box, env.action_space)
    except ValueError as exc:
        print("ValueError", str(exc).splitlines()[0])
    optimizer = torch.optim.Adam(source.parameters(), lr=1e-3)
    u.update_learning_rate(optimizer, 5e-4)
    print("lr", [g["lr"] for g in optimizer.param_groups])


def buffers():
    """RolloutBuffer's GAE returns and advantages, ReplayBuffer and DictReplayBuffer sampling (NumPy's seeded RNG),
    with ``optimize_memory_usage`` and ``handle_timeout_termination``."""
    from gymnasium import spaces
    from stable_baselines3.common.buffers import DictReplayBuffer, DictRolloutBuffer, ReplayBuffer, RolloutBuffer

    rng = np.random.RandomState(0)
    obs_space, act_space = spaces.Box(-1, 1, (3,)), spaces.Box(-1, 1, (2,))
    rollout = RolloutBuffer(8, obs_space, act_space, gae_lambda=0.9, gamma=0.97, n_envs=2)
    for step in range(8):
        rollout.add(rng.randn(2, 3).astype(np.float32), rng.randn(2, 2).astype(np.float32), rng.randn(2),
                    np.array([step == 0, step == 5]), torch.tensor(rng.randn(2).astype(np.float32)),
                    torch.tensor(rng.randn(2).astype(np.float32)))
    rollout.compute_returns_and_advantage(torch.tensor([0.5, -0.25]), np.array([False, True]))
    show("returns", rollout.returns, 16)
    show("advantages", rollout.advantages, 16)
    np.random.seed(1)
    for batch in rollout.get(batch_size=6):
        show("  batch returns", batch.returns)
        show("  batch old_log_prob", batch.old_log_prob)
    for optimize in (False, True):
        replay = ReplayBuffer(20, obs_space, act_space, n_envs=2, optimize_memory_usage=optimize,
                              handle_timeout_termination=not optimize)
        for step in range(14):
            replay.add(rng.randn(2, 3), rng.randn(2, 3), rng.randn(2, 2), rng.randn(2),
                       np.array([step % 5 == 4, False]),
                       [{"TimeLimit.truncated": step == 9}, {}])
        np.random.seed(2)
        sample = replay.sample(4)
        print("replay", optimize, replay.size(), replay.full)
        for field in ("observations", "actions", "next_observations", "dones", "rewards"):
            show("  " + field, getattr(sample, field))
    dict_space = spaces.Dict({"a": spaces.Box(-1, 1, (2,)), "b": spaces.Discrete(3)})
    replay = DictReplayBuffer(10, dict_space, spaces.Discrete(2), n_envs=1)
    for step in range(6):
        replay.add({"a": rng.randn(1, 2), "b": np.array([[step % 3]])}, {"a": rng.randn(1, 2), "b": np.array([[1]])},
                   np.array([[step % 2]]), np.array([0.5 * step]), np.array([step == 5]), [{}])
    np.random.seed(3)
    sample = replay.sample(3)
    show("dict obs a", sample.observations["a"])
    show("dict obs b", sample.observations["b"])
    show("dict actions", sample.actions)
    dict_rollout = DictRolloutBuffer(4, dict_space, spaces.Discrete(2), gamma=0.9, n_envs=1)
    for step in range(4):
        dict_rollout.add({"a": rng.randn(1, 2), "b": np.array([[step % 3]])}, np.array([[step % 2]]), np.array([1.0]),
                         np.array([step == 0]), torch.tensor([0.1 * step]), torch.tensor([-0.5]))
    dict_rollout.compute_returns_and_advantage(torch.tensor([0.2]), np.array([False]))
    show("dict returns", dict_rollout.returns)


# Vectorised environments, saving, policies, HER, callbacks ----------------------------------------------------------
def vec_envs():
    """DummyVecEnv under VecNormalize (its running statistics saved with pickle and loaded back), VecFrameStack,
    VecMonitor, VecCheckNan, VecTransposeImage and VecExtractDictObs, with a PPO trained through the stack."""
    import gymnasium as gym
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.envs import FakeImageEnv, SimpleMultiObsEnv
    from stable_baselines3.common.vec_env import (
        DummyVecEnv,
        VecCheckNan,
        VecExtractDictObs,
        VecFrameStack,
        VecMonitor,
        VecNormalize,
        VecTransposeImage,
    )

    env = make_vec_env("Pendulum-v1", n_envs=2, seed=0)
    env = VecNormalize(VecFrameStack(VecMonitor(env), n_stack=3), gamma=0.95, clip_obs=5.0)
    obs = env.reset()
    show("reset", obs, 9)
    for step in range(5):
        obs, rewards, dones, infos = env.step(np.array([[0.5], [-1.0]]) * (step - 2))
    show("obs", obs, 9)
    show("rewards", rewards)
    show("original reward", env.get_original_reward())
    show("obs_rms.mean", env.obs_rms.mean, 9)
    show("ret_rms.var", env.ret_rms.var)
    model = PPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0, policy_kwargs=dict(net_arch=[16]))
    model.learn(64)
    show("value_net.weight", model.policy.value_net.weight)
    env.save("vec_normalize.pkl")
    loaded = VecNormalize.load("vec_normalize.pkl", make_vec_env("Pendulum-v1", n_envs=2, seed=1))
    print("loaded", loaded.gamma, loaded.clip_obs, loaded.training, loaded.norm_reward)
    show("loaded obs_rms.mean", loaded.obs_rms.mean)
    show("normalized", loaded.normalize_obs(np.ones((2, 3))))
    show("unnormalized", loaded.unnormalize_obs(loaded.normalize_obs(np.ones((2, 3)))))
    images = VecTransposeImage(DummyVecEnv([lambda: FakeImageEnv(screen_height=12, screen_width=10, n_channels=3)]))
    images.seed(0)
    print("transposed", images.observation_space.shape, images.reset().shape)
    nan_env = VecCheckNan(DummyVecEnv([lambda: gym.make("Pendulum-v1")]), raise_exception=True)
    nan_env.seed(0)
    nan_env.reset()
    try:
        nan_env.step(np.array([[float("nan")]]))
    except ValueError as exc:
        print("VecCheckNan", str(exc).splitlines()[0])
    multi = VecExtractDictObs(DummyVecEnv([lambda: SimpleMultiObsEnv(random_start=False)]), "vec")
    show("extracted", multi.reset())


def save_load():
    """``save``/``load`` of each algorithm (PyTorch's zip format for the state dicts inside SB3's zip), exact round
    trips of parameters and predictions, ``get_parameters``/``set_parameters``, a policy saved and loaded on its
    own, the replay buffer saved and loaded, ``torch.load`` of the archive's ``policy.pth``."""
    import zipfile

    from stable_baselines3 import A2C, DQN, PPO, SAC, TD3
    from stable_baselines3.common.save_util import load_from_zip_file

    obs = np.array([[0.02, -0.01, 0.03, 0.01]], dtype=np.float32)
    for algo, env_id, kwargs in ((PPO, "CartPole-v1", dict(n_steps=32, batch_size=16, n_epochs=1)),
                                 (A2C, "Pendulum-v1", dict(n_steps=8)),
                                 (DQN, "CartPole-v1", dict(learning_starts=20, buffer_size=200)),
                                 (SAC, "Pendulum-v1", dict(learning_starts=40, buffer_size=200, batch_size=8)),
                                 (TD3, "Pendulum-v1", dict(learning_starts=40, buffer_size=200, batch_size=8))):
        model = algo("MlpPolicy", env_id, seed=0, policy_kwargs=dict(net_arch=[16]), **kwargs)
        model.learn(48)
        x = obs if env_id == "CartPole-v1" else obs[:, :3]
        before = model.predict(x, deterministic=True)[0]
        model.save(f"{algo.__name__}_model")
        loaded = algo.load(f"{algo.__name__}_model", seed=0)
        after = loaded.predict(x, deterministic=True)[0]
        same = all(torch.equal(a, b) for a, b in zip(model.policy.state_dict().values(),
                                                     loaded.policy.state_dict().values()))
        print(algo.__name__, "same parameters", same, "predict", _values(before), _values(after),
              "num_timesteps", loaded.num_timesteps)
        with zipfile.ZipFile(f"{algo.__name__}_model.zip") as archive:
            print("  archive", sorted(archive.namelist()))
            with archive.open("policy.pth") as f:
                state = torch.load(f, weights_only=True)
            print("  policy.pth", [(k, tuple(v.shape), str(v.dtype)) for k, v in list(state.items())[:3]])
        data, params, variables = load_from_zip_file(f"{algo.__name__}_model")
        print("  params", sorted(params), "variables", variables, "keys", sorted(data)[:6])
        parameters = model.get_parameters()
        first = next(iter(parameters["policy"]))
        parameters["policy"][first] = parameters["policy"][first] * 0.5
        loaded.set_parameters(parameters, exact_match=True)
        show("  set_parameters", loaded.policy.state_dict()[first])
    sac = SAC("MlpPolicy", "Pendulum-v1", seed=0, learning_starts=10, buffer_size=100, batch_size=8,
              policy_kwargs=dict(net_arch=[8]))
    sac.learn(20)
    sac.save_replay_buffer("buffer")
    loaded = SAC.load("SAC_model")
    loaded.load_replay_buffer("buffer")
    print("replay buffer", loaded.replay_buffer.size(), loaded.replay_buffer.pos)
    show("  rewards", loaded.replay_buffer.rewards[:20])
    sac.policy.save("policy_only")
    policy = type(sac.policy).load("policy_only")
    show("policy predict", policy.predict(obs[:, :3], deterministic=True)[0])
    state = sac.policy.state_dict()
    torch.save(state, "state.pt")
    back = torch.load("state.pt")
    print("torch.save round trip", all(torch.equal(state[k], back[k]) for k in state), type(back).__name__)


def custom_policy():
    """Policies configured as SB3's documentation shows: ``net_arch`` per network, activations, a custom features
    extractor (``BaseFeaturesExtractor``), a custom ``MlpExtractor`` in an ``ActorCriticPolicy`` subclass, shared
    and separate feature extractors, and an off-policy actor/critic architecture."""
    import gymnasium as gym
    from stable_baselines3 import A2C, PPO, SAC, TD3
    from stable_baselines3.common.policies import ActorCriticPolicy
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, FlattenExtractor

    class Features(BaseFeaturesExtractor):
        def __init__(self, observation_space: gym.spaces.Box, features_dim: int = 12):
            super().__init__(observation_space, features_dim)
            self.net = torch.nn.Sequential(torch.nn.Linear(observation_space.shape[0], features_dim), torch.nn.ELU())

        def forward(self, observations):
            return self.net(observations)

    class Network(torch.nn.Module):
        def __init__(self, feature_dim, last_layer_dim_pi=8, last_layer_dim_vf=6):
            super().__init__()
            self.latent_dim_pi, self.latent_dim_vf = last_layer_dim_pi, last_layer_dim_vf
            self.policy_net = torch.nn.Sequential(torch.nn.Linear(feature_dim, last_layer_dim_pi), torch.nn.ReLU())
            self.value_net = torch.nn.Sequential(torch.nn.Linear(feature_dim, last_layer_dim_vf), torch.nn.ReLU())

        def forward(self, features):
            return self.forward_actor(features), self.forward_critic(features)

        def forward_actor(self, features):
            return self.policy_net(features)

        def forward_critic(self, features):
            return self.value_net(features)

    class CustomActorCriticPolicy(ActorCriticPolicy):
        def __init__(self, *args, **kwargs):
            kwargs["ortho_init"] = False
            super().__init__(*args, **kwargs)

        def _build_mlp_extractor(self):
            self.mlp_extractor = Network(self.features_dim)

    configs = [(PPO, "CartPole-v1", dict(policy_kwargs=dict(activation_fn=torch.nn.ReLU,
                                                            net_arch=dict(pi=[16, 16], vf=[8])))),
               (PPO, "Pendulum-v1", dict(policy_kwargs=dict(features_extractor_class=Features,
                                                            features_extractor_kwargs=dict(features_dim=12),
                                                            share_features_extractor=False))),
               (A2C, "CartPole-v1", dict(policy=CustomActorCriticPolicy)),
               (SAC, "Pendulum-v1", dict(policy_kwargs=dict(net_arch=dict(pi=[8], qf=[12, 6]),
                                                            share_features_extractor=True,
                                                            features_extractor_class=FlattenExtractor),
                                         learning_starts=32, batch_size=8)),
               (TD3, "Pendulum-v1", dict(policy_kwargs=dict(net_arch=[10], activation_fn=torch.nn.Tanh, n_critics=1),
                                         learning_starts=32, batch_size=8))]
    for algo, env_id, kwargs in configs:
        policy = kwargs.pop("policy", "MlpPolicy")
        if algo in (PPO, A2C):
            kwargs.setdefault("n_steps", 16)
        if algo is PPO:
            kwargs.update(batch_size=16, n_epochs=2)
        model = algo(policy, env_id, seed=0, **kwargs)
        print(algo.__name__, env_id, model.policy)
        model.learn(40)
        show_parameters(model.policy, 3)


def her():
    """HER on SB3's BitFlippingEnv: DQN with ``HerReplayBuffer`` (future goals), SAC on its continuous version
    (final goals, ``copy_info_dict``), the buffer's sampled goals and rewards, and a save/load with the env."""
    from stable_baselines3 import DQN, SAC, HerReplayBuffer
    from stable_baselines3.common.envs import BitFlippingEnv

    env = BitFlippingEnv(n_bits=4, continuous=False, max_steps=4)
    model = DQN("MultiInputPolicy", env, seed=0, learning_starts=40, buffer_size=400, batch_size=16,
                replay_buffer_class=HerReplayBuffer, train_freq=4, gradient_steps=1, target_update_interval=20,
                replay_buffer_kwargs=dict(n_sampled_goal=4, goal_selection_strategy="future"),
                policy_kwargs=dict(net_arch=[32]))
    model.set_logger(printing_logger())
    model.learn(100, log_interval=10)
    buffer = model.replay_buffer
    print("her buffer", buffer.size(), buffer.n_episodes_stored if hasattr(buffer, "n_episodes_stored") else "-")
    np.random.seed(4)
    sample = buffer.sample(6)
    show("  desired_goal", sample.observations["desired_goal"], 12)
    show("  rewards", sample.rewards)
    show_parameters(model.q_net, 3)
    model.save("her_dqn")
    loaded = DQN.load("her_dqn", env=env)
    obs, _ = env.reset(seed=1)
    print("loaded predict", _values(loaded.predict(obs, deterministic=True)[0]))
    cont = BitFlippingEnv(n_bits=3, continuous=True, max_steps=3)
    sac = SAC("MultiInputPolicy", cont, seed=0, learning_starts=45, buffer_size=300, batch_size=8,
              replay_buffer_class=HerReplayBuffer, policy_kwargs=dict(net_arch=[16]),
              replay_buffer_kwargs=dict(n_sampled_goal=2, goal_selection_strategy="final", copy_info_dict=True))
    sac.set_logger(printing_logger())
    sac.learn(60, log_interval=10)
    show_parameters(sac.actor, 3)


def callbacks():
    """EvalCallback (with StopTrainingOnRewardThreshold and StopTrainingOnNoModelImprovement), CheckpointCallback
    saving the replay buffer and VecNormalize, EveryNTimesteps, StopTrainingOnMaxEpisodes, CallbackList and a
    custom callback reading the training loop's locals."""
    import os

    from stable_baselines3 import A2C, SAC
    from stable_baselines3.common.callbacks import (
        BaseCallback,
        CallbackList,
        CheckpointCallback,
        EvalCallback,
        EveryNTimesteps,
        StopTrainingOnMaxEpisodes,
        StopTrainingOnNoModelImprovement,
        StopTrainingOnRewardThreshold,
    )
    from stable_baselines3.common.env_util import make_vec_env

    class Watch(BaseCallback):
        def _on_training_start(self):
            print("training start", self.locals["total_timesteps"])

        def _on_rollout_end(self):
            print("rollout end", self.num_timesteps, _values(self.locals["rollout_buffer"].values, 3)
                  if "rollout_buffer" in self.locals else "")

        def _on_step(self):
            if self.n_calls % 20 == 0:
                print("step", self.n_calls, _values(self.locals["actions"]), _values(self.locals["rewards"]))
            return True

    eval_env = make_vec_env("CartPole-v1", n_envs=1, seed=5)
    stop = StopTrainingOnRewardThreshold(reward_threshold=60, verbose=1)
    patience = StopTrainingOnNoModelImprovement(max_no_improvement_evals=2, min_evals=1, verbose=1)
    evaluation = EvalCallback(eval_env, callback_on_new_best=stop, callback_after_eval=patience, eval_freq=40,
                              n_eval_episodes=2, best_model_save_path="best", log_path="logs", verbose=1)
    checkpoints = CheckpointCallback(save_freq=50, save_path="checkpoints", name_prefix="a2c", verbose=2)
    model = A2C("MlpPolicy", "CartPole-v1", n_steps=10, seed=0, policy_kwargs=dict(net_arch=[16]))
    model.learn(120, callback=CallbackList([Watch(), evaluation, checkpoints, EveryNTimesteps(70, Watch())]))
    print("evaluations", evaluation.evaluations_timesteps, np.asarray(evaluation.evaluations_results).tolist())
    print("best", evaluation.best_mean_reward, sorted(os.listdir("checkpoints")), os.path.isfile("best/best_model.zip"))
    data = np.load("logs/evaluations.npz")
    print("evaluations.npz", sorted(data.files), data["results"].tolist())
    sac = SAC("MlpPolicy", "Pendulum-v1", seed=0, learning_starts=190, buffer_size=300, batch_size=8,
              policy_kwargs=dict(net_arch=[8]))
    sac.learn(10_000, callback=[StopTrainingOnMaxEpisodes(max_episodes=1, verbose=1),
                                CheckpointCallback(100, "sac_checkpoints", save_replay_buffer=True)])
    print("sac stopped at", sac.num_timesteps, sorted(os.listdir("sac_checkpoints")))


def multi_input():
    """Dict observations: PPO's MultiInputPolicy on SimpleMultiObsEnv (a NatureCNN on its 64x64 image beside an
    MLP on its vector: CombinedExtractor), and DQN's CnnPolicy on FakeImageEnv."""
    from stable_baselines3 import DQN, PPO
    from stable_baselines3.common.envs import FakeImageEnv, SimpleMultiObsEnv

    env = SimpleMultiObsEnv(random_start=False)
    model = PPO("MultiInputPolicy", env, n_steps=16, batch_size=8, n_epochs=1, seed=0,
                policy_kwargs=dict(net_arch=[16], features_extractor_kwargs=dict(cnn_output_dim=8)))
    model.set_logger(printing_logger())
    model.learn(32)
    print(model.policy.features_extractor)
    show_parameters(model.policy, 3)
    obs, _ = env.reset(seed=0)
    print("predict", _values(model.predict(obs, deterministic=True)[0]))
    image_env = FakeImageEnv(screen_height=36, screen_width=36, n_channels=1, discrete=True)
    image_env.observation_space.seed(0)  # (its observations are samples of the space, seeded from the OS otherwise)
    dqn = DQN("CnnPolicy", image_env, seed=0, learning_starts=10, buffer_size=100, batch_size=4,
              policy_kwargs=dict(features_extractor_kwargs=dict(features_dim=16), net_arch=[8]))
    dqn.learn(20)
    show_parameters(dqn.q_net, 3)


def multibinary():
    """PPO and A2C on SB3's IdentityEnvMultiBinary: BernoulliDistribution's log-probabilities and entropies
    (``binary_cross_entropy_with_logits``) in the loss, and the trained policy's entropy on confident logits."""
    from stable_baselines3 import A2C, PPO
    from stable_baselines3.common.envs import IdentityEnvMultiBinary

    for algo, kwargs in ((PPO, dict(n_steps=32, batch_size=16, n_epochs=2, ent_coef=0.01)),
                         (A2C, dict(n_steps=8))):
        env = IdentityEnvMultiBinary(dim=4, ep_length=16)
        env.observation_space.seed(0)  # (the environment's states are samples of its space)
        model = algo("MlpPolicy", env, seed=0, policy_kwargs=dict(net_arch=[16]), **kwargs)
        model.set_logger(printing_logger())
        model.learn(64, log_interval=2)
        show_parameters(model.policy, 3)
        obs = torch.tensor([[0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0]])
        dist = model.policy.get_distribution(obs)
        show("  logits", dist.distribution.logits, 8)
        show("  entropy", dist.entropy())
        show("  log_prob", dist.log_prob(obs))
        values, log_prob, entropy = model.policy.evaluate_actions(obs, obs)
        show("  evaluate_actions", torch.cat([values.flatten(), log_prob, entropy]), 6)
        big = dist.proba_distribution(dist.distribution.logits * 40)  # confident logits: entropies near 0
        show("  confident entropy", big.entropy())
