"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Stable-Baselines3 on core (2026-12-05, corpus helper s20 SB3): DLR-RM/stable-baselines3 at its v2.8.0 release, with
Farama-Foundation/Gymnasium at v1.2.3 (SB3 2.8 asks for ``gymnasium>=0.29.1,<1.3.0``) and cloudpipe/cloudpickle at
v3.1.2, which both import (MIT, MIT, BSD-3-Clause). Each script holds the three packages beside it (``SB3_PACKAGES``:
every ``.py`` file of SB3 and its ``version.txt``, Gymnasium's but its MuJoCo and Box2D environments, cloudpickle's),
which the runner loads in both runs (``runner._fetched_packages``); pandas and ``matplotlib.figure``, which SB3's
logger and monitor import at module level, are ``fake_sb3_deps``. The scripts are SB3's own test modules run as
scripts (``corpus_sb3.run_tests``: each test's ``parametrize`` grid as pytest runs it), examples from its
documentation (``docs/guide/*.md`` sections, their training shortened and ``verbose`` off, since the logger's table
prints frames per second), and drivers of ours (``corpus_sb3.py``) appended to SB3's ``__init__`` run as its module:
PPO, A2C, DQN, SAC, TD3 and DDPG trained for a few hundred seeded steps on CartPole, Pendulum and
MountainCarContinuous, printing their logged losses, parameters, actions and evaluations at full precision.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

SB3 = ("DLR-RM/stable-baselines3", "5e00d26428f8633141b841a51be473971e2a6ea4", "MIT")  # the v2.8.0 release
GYMNASIUM = ("Farama-Foundation/Gymnasium", "365080941ea3a815ac09e57a7d4ee263a142651d", "MIT")  # v1.2.3
CLOUDPICKLE = ("cloudpipe/cloudpickle", "7576fff24b9769432f76cc6d2c01282583ee87a9", "BSD-3-Clause")  # v3.1.2

_SB3_MODULES = {
    "stable_baselines3": "__init__",
    "stable_baselines3/a2c": "__init__ a2c policies",
    "stable_baselines3/common": "__init__ atari_wrappers base_class buffers callbacks distributions env_checker "
        "env_util evaluation logger monitor noise off_policy_algorithm on_policy_algorithm policies preprocessing "
        "results_plotter running_mean_std save_util torch_layers type_aliases utils",
    "stable_baselines3/common/envs": "__init__ bit_flipping_env identity_env multi_input_envs",
    "stable_baselines3/common/sb2_compat": "__init__ rmsprop_tf_like",
    "stable_baselines3/common/vec_env": "__init__ base_vec_env dummy_vec_env patch_gym stacked_observations "
        "subproc_vec_env util vec_check_nan vec_extract_dict_obs vec_frame_stack vec_monitor vec_normalize "
        "vec_transpose vec_video_recorder",
    "stable_baselines3/ddpg": "__init__ ddpg policies",
    "stable_baselines3/dqn": "__init__ dqn policies",
    "stable_baselines3/her": "__init__ goal_selection_strategy her_replay_buffer",
    "stable_baselines3/ppo": "__init__ policies ppo",
    "stable_baselines3/sac": "__init__ policies sac",
    "stable_baselines3/td3": "__init__ policies td3",
}
_GYMNASIUM_MODULES = {  # (not envs/mujoco and envs/box2d, which need MuJoCo and Box2D: registered by name only)
    "gymnasium": "__init__ core error logger",
    "gymnasium/envs": "__init__ functional_jax_env registration",
    "gymnasium/envs/classic_control": "__init__ acrobot cartpole continuous_mountain_car mountain_car pendulum utils",
    "gymnasium/envs/phys2d": "__init__ cartpole pendulum",
    "gymnasium/envs/tabular": "__init__ blackjack cliffwalking",
    "gymnasium/envs/toy_text": "__init__ blackjack cliffwalking frozen_lake taxi utils",
    "gymnasium/experimental": "__init__ functional",
    "gymnasium/spaces": "__init__ box dict discrete graph multi_binary multi_discrete oneof sequence space text tuple "
        "utils",
    "gymnasium/utils": "__init__ colorize env_checker env_match ezpickle passive_env_checker performance play "
        "record_constructor save_video seeding step_api_compatibility",
    "gymnasium/vector": "__init__ async_vector_env sync_vector_env vector_env",
    "gymnasium/vector/utils": "__init__ misc shared_memory space_utils",
    "gymnasium/wrappers": "__init__ array_conversion atari_preprocessing common jax_to_numpy jax_to_torch "
        "numpy_to_torch rendering stateful_action stateful_observation stateful_reward transform_action "
        "transform_observation transform_reward utils",
    "gymnasium/wrappers/vector": "__init__ array_conversion common dict_info_to_list jax_to_numpy jax_to_torch "
        "numpy_to_torch rendering stateful_observation stateful_reward vectorize_action vectorize_observation "
        "vectorize_reward",
}


def _files(modules):
    return [f"{folder}/{name}.py" for folder, names in modules.items() for name in names.split()]


SB3_PACKAGES = [*((p, p) for p in [*_files(_SB3_MODULES), "stable_baselines3/version.txt"]),
                *((*GYMNASIUM[:2], p, p) for p in _files(_GYMNASIUM_MODULES)),
                *((*CLOUDPICKLE[:2], p, p) for p in ("cloudpickle/__init__.py", "cloudpickle/cloudpickle.py",
                                                     "cloudpickle/cloudpickle_fast.py"))]
DRIVERS = "import torch\nsb = __import__('corpus_sb3')"
INIT_LAST = '    "get_system_info",\n]\n'  # the end of stable_baselines3/__init__.py's __all__


def _driver(name, *calls):
    """stable_baselines3/__init__.py run as the package's module (its version read from the package's folder), the
    drivers' ``calls`` appended."""
    first = "import os\n"
    line = "__package__ = 'stable_baselines3'  # run as the package's module\n"
    return _r(f"sb3_{name}", SB3, "stable_baselines3/__init__.py",
              [(first, first + line),
               ("os.path.dirname(__file__)", "'stable_baselines3'"),  # (version.txt is in the package's folder)
               (INIT_LAST, "\n".join([INIT_LAST, DRIVERS, *calls, ""]))], support=SB3_PACKAGES)


RECIPES += [
    _driver("ppo_cartpole", "sb.ppo_cartpole()"),
    _driver("ppo_pendulum_sde", "sb.ppo_pendulum_sde()"),
    _driver("ppo_multi_envs", "sb.ppo_multi_envs()"),
    _driver("a2c_cartpole_tflike", "sb.a2c_cartpole_tflike()"),
    _driver("a2c_pendulum", "sb.a2c_pendulum()"),
    _driver("dqn_cartpole", "sb.dqn_cartpole()"),
    _driver("sac_pendulum", "sb.sac_pendulum()"),
    _driver("sac_sde", "sb.sac_sde()"),
    _driver("td3_pendulum", "sb.td3_pendulum()"),
    _driver("ddpg_mountaincar", "sb.ddpg_mountaincar()"),
    _driver("distributions", "sb.distributions()"),
    _driver("utils", "sb.utils()"),
    _driver("buffers", "sb.buffers()"),
    _driver("vec_envs", "sb.vec_envs()"),
    _driver("save_load", "sb.save_load()"),
    _driver("custom_policy", "sb.custom_policy()"),
    _driver("her", "sb.her()"),
    _driver("callbacks", "sb.callbacks()"),
    _driver("multi_input", "sb.multi_input()"),
    _driver("multibinary", "sb.multibinary()"),
]


# SB3's own test modules run as scripts: each test's parametrize grid as pytest runs it (``corpus_sb3.run_tests``),
# appended after the module's last lines; the tests that start processes (SubprocVecEnv) or need tensorboard, a GPU
# or a video recorder are listed as not run
_LAST = {
    "buffers": '        A2C("MlpPolicy", "Pendulum-v1", rollout_buffer_class=DictRolloutBuffer)\n',
    "callbacks": "    model.learn(64, callback=eval_callback)\n",
    "cnn": '    else:\n        model_class("CnnPolicy", vec_env, **kwargs).learn(128)\n',
    "custom_policy": "    assert net[-1].out_features == 2\n",
    "deterministic": "    assert sum(rewards[0]) == sum(rewards[1]), rewards\n",
    "dict_env": '    assert (env.observation_space.spaces["img"].high == env.clip_obs).all()\n',
    "distributions": "        assert th.allclose(full_kl_div, ad_hoc_kl)\n",
    "env_checker": "        check_env(env, warn=True)\n",
    "envs": '    assert "img" in str(excinfo.value)\n',
    "gae": "        assert abs(infinite_horizon_value - value) > 1.0\n",
    "her": "    assert np.mean(model.ep_success_buffer) > 0.90\n",
    "logger": '    assert logger.name_to_value["rollout/success_rate"] == 0.8\n',
    "monitor": "    os.remove(monitor_file2)\n",
    "n_step_replay": "    np.testing.assert_allclose(batch1.rewards.numpy(), batch2.rewards.numpy(), rtol=1e-6)\n",
    "predict": "        model.predict(wrong_obs)\n",
    "preprocessing": "    expected = torch.tensor([[[1.5, 0.3, -1.8], [0.1, -0.6, -1.4]]], dtype=torch.float32)\n"
                     "    torch.testing.assert_close(actual, expected)\n",
    "save_load": "    # Check that the model is loaded correctly\n    assert isinstance(model.clip_range, FloatSchedule)\n"
                 "    assert isinstance(model.clip_range.value_schedule, ConstantSchedule)\n"
                 "    assert model.clip_range.value_schedule.val == 0.2\n",
    "sde": "        return super().step(action)\n",
    "spaces": '        A2C("MlpPolicy", env)\n',
    "train_eval_mode": "    # No change in batch norm params\n"
                       "    for param_before, param_after in zip(batch_norm_stats_before, batch_norm_stats_after, "
                       "strict=True):\n        assert th.isclose(param_before, param_after).all()\n",
    "utils": "        assert np.allclose(fn(0.5), float_schedule_2(0.5))\n",
    "vec_check_nan": "    env.reset()\n",
    "vec_envs": '    assert "agent-CartPole-v1-step-0-to-step-10.mp4" in video_files[1]\n',
    "vec_extract_dict_obs": "    model.learn(total_timesteps=250)\n",
    "vec_monitor": "        VecMonitor(VecNormalize(env))\n",
    "vec_normalize": "    _make_warmstart(lambda: DummyMixedDictEnv(), norm_obs=False)\n",
    "vec_stacked_obs": "        assert np.array_equal(true_stacked_obs, stacked_obs[key])\n",
}


def _tests(module, name=None, **run):
    """tests/test_MODULE.py with ``corpus_sb3.run_tests(globals(), **run)`` after its last lines."""
    last = _LAST[module]
    arguments = "".join(f", {k}={v!r}" for k, v in run.items())
    call = f"\n__import__('corpus_sb3').run_tests(globals(){arguments})\n"
    return _r(f"sb3_test_{name or module}", SB3, f"tests/test_{module}.py", [(last, last + call)], support=SB3_PACKAGES)



# SB3's documentation's examples (docs/guide/*.md sections at the release): training shortened (PPO's 2048-step
# rollouts to 32 or 64 steps), ``verbose=1`` off (its logger table prints frames per second), seeds given, and a
# print of what the example computes where it prints nothing
SB3_SHOW = "__import__('corpus_sb3')"


def _doc(name, page, section, edits):
    return _r(f"sb3_doc_{name}", SB3, f"docs/guide/{page}.md#{section}", edits, support=SB3_PACKAGES)


RECIPES += [
    _doc("dict_observations", "examples", "Dict Observations", [
        ('model = PPO("MultiInputPolicy", env, verbose=1)',
         'model = PPO("MultiInputPolicy", env, n_steps=32, batch_size=16, n_epochs=1, seed=0)'),
        ("model.learn(total_timesteps=100_000)",
         f"model.learn(total_timesteps=64)\n{SB3_SHOW}.show_parameters(model.policy, 3)")]),
    _doc("eval_callback", "examples", "Callbacks: Evaluate Agent Performance", [
        ("eval_freq=max(500 // n_training_envs, 1)", "eval_freq=max(100 // n_training_envs, 1)"),
        ('model = SAC("MlpPolicy", train_env)',
         'model = SAC("MlpPolicy", train_env, seed=0, learning_starts=150, batch_size=32)'),
        ("model.learn(5000, callback=eval_callback)",
         f"model.learn(200, callback=eval_callback)\n{SB3_SHOW}.show_parameters(model.actor, 3)")]),
    _doc("lr_schedule", "examples", "Learning Rate Schedule", [
        ('learning_rate=linear_schedule(0.001), verbose=1)',
         'learning_rate=linear_schedule(0.001), n_steps=64, batch_size=32, seed=0)'),
        ("model.learn(total_timesteps=20_000)",
         "model.learn(total_timesteps=128)\nprint(model.policy.optimizer.param_groups[0]['lr'])"),
        ("model.learn(total_timesteps=10_000, reset_num_timesteps=True)",
         "model.learn(total_timesteps=128, reset_num_timesteps=True)\n"
         f"print(model.policy.optimizer.param_groups[0]['lr'])\n{SB3_SHOW}.show_parameters(model.policy, 3)")]),
    _doc("advanced_saving", "examples", "Advanced Saving and Loading", [
        ('model = SAC("MlpPolicy", "Pendulum-v1", verbose=1,', 'model = SAC("MlpPolicy", "Pendulum-v1", seed=0,'),
        ("model.learn(total_timesteps=6000)", "model.learn(total_timesteps=130)"),
        ("n_eval_episodes=10, deterministic=True)", "n_eval_episodes=1, deterministic=True)"),
        ("n_eval_episodes=10, deterministic=True)", "n_eval_episodes=1, deterministic=True)")]),
    _doc("modify_parameters", "examples", "Accessing and modifying model parameters", [
        ("    seed=0,\n", "    seed=0, n_steps=8,\n"),
        # (40 steps: five A2C updates. At the example's learning rate 0.05, RMSprop's first steps are 0.5 whatever the
        # gradient's size, and float32 rounding differences grow threefold per update: 1e-7 after one, 1e-4 after
        # twelve, different actions after 17; 10_000 steps end in different parameters in any two builds)
        ("model.learn(total_timesteps=10_000)", "model.learn(total_timesteps=40)"),
        ("pop_size = 50", "pop_size = 10"), ("for iteration in range(10):", "for iteration in range(1):"),
        ("fitness, _ = evaluate_policy(model, vec_env)", "fitness, _ = evaluate_policy(model, vec_env, n_eval_episodes=1)")]),
    _doc("custom_network", "custom_policy", "Custom Network Architecture", [
        ("policy_kwargs=policy_kwargs, verbose=1)", "policy_kwargs=policy_kwargs, n_steps=64, batch_size=32, seed=0)"),
        ("model.learn(total_timesteps=20_000)", "model.learn(total_timesteps=128)"),
        ('model = PPO.load("ppo_cartpole", env=env)',
         f'model = PPO.load("ppo_cartpole", env=env)\n{SB3_SHOW}.show_parameters(model.policy, 3)')]),
    _doc("custom_actor_critic", "custom_policy", "Advanced Example", [
        ('model = PPO(CustomActorCriticPolicy, "CartPole-v1", verbose=1)',
         'model = PPO(CustomActorCriticPolicy, "CartPole-v1", n_steps=64, batch_size=32, seed=0)'),
        ("model.learn(5000)", f"model.learn(128)\n{SB3_SHOW}.show_parameters(model.policy, 3)")]),
    _doc("off_policy_network", "custom_policy", "Off-Policy Algorithms", [
        ('policy_kwargs=policy_kwargs, verbose=1)', 'policy_kwargs=policy_kwargs, seed=0, learning_starts=100, '
                                                    'batch_size=32)'),
        ("model.learn(5000)", f"model.learn(130)\n{SB3_SHOW}.show_parameters(model.policy, 3)")]),
]


RECIPES += [
    _tests("preprocessing"),
    _tests("gae", every=4, skip=("test_infinite_horizon",)),
    _tests("n_step_replay"),
    _tests("vec_normalize", skip=("test_her_normalization", "test_offpolicy_normalization")),
    _tests("spaces", only=("test_env", "test_sde_multi_dim", "test_multidim_binary_not_supported")),
    _tests("vec_stacked_obs"),
    _tests("env_checker"),
    _tests("envs"),
    _tests("save_load", only=("test_open_file_str_pathlib", "test_open_file",
                              "test_load_invalid_object", "test_dqn_target_update_interval", "test_cast_lr_schedule",
                              "test_save_load_net_arch_none", "test_save_load_no_target_params")),
    _tests("predict", only=("test_env", "test_predict", "test_dqn_epsilon_greedy", "test_mixing_gym_vecenv_api")),
    _tests("sde", only=("test_state_dependent_exploration_grad", "test_sde_check", "test_only_sde_squashed")),
    _tests("train_eval_mode", only=("test_dqn_train_with_batch_norm", "test_predict_with_dropout_batch_norm")),
    _tests("custom_policy", only=("test_dqn_custom_policy", "test_create_mlp")),
    _tests("vec_monitor", only=("test_vec_monitor", "test_vec_monitor_info_keywords", "test_vec_monitor_load_results",
                                "test_vec_monitor_warn")),
    _tests("vec_check_nan"),
]
