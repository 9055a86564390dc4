"""Drivers for skrl's and ncps' recipes (``recipes_skrl.py``; our text): each prints what a user reads at full
precision (losses, actions, log-probabilities, parameters after a few updates) so that core's run is compared with
torch's number for number.

``run_tests`` runs one of skrl's own test modules through pytest in the script's process, with hypothesis
derandomised and without its example database (both runs draw the same examples, and one run's failures are not
replayed in the other).
"""

from __future__ import annotations

import torch
import torch.nn as nn


def run_tests(path, *args, max_examples=2):
    """skrl's test module at ``path`` through pytest (``corpus_pruning.run_pytest``), hypothesis seeded."""
    import hypothesis

    hypothesis.settings.register_profile("corpus", database=None, derandomize=True, max_examples=max_examples,
                                         deadline=None, print_blob=False)
    hypothesis.settings.load_profile("corpus")
    try:
        __import__("corpus_pruning").run_pytest(path, *args)
    finally:
        hypothesis.settings.load_profile("default")


def show(name, value):
    """``name`` and a tensor's (or a nested structure's) values at full precision."""
    if isinstance(value, torch.Tensor):
        value = value.detach().tolist()
    elif isinstance(value, dict):
        value = {k: v.detach().tolist() if isinstance(v, torch.Tensor) else v for k, v in value.items()}
    print(name, value)


def show_parameters(model, name="model"):
    for key, p in model.state_dict().items():
        print(name, key, tuple(p.shape), repr(float(p.double().sum())), repr(float(p.double().abs().max())))


def _spaces(kind="box", obs=4, act=2):
    import gymnasium

    observation = gymnasium.spaces.Box(low=-1, high=1, shape=(obs,))
    if kind == "box":
        action = gymnasium.spaces.Box(low=-1, high=1, shape=(act,))
    elif kind == "discrete":
        action = gymnasium.spaces.Discrete(act)
    else:
        action = gymnasium.spaces.MultiDiscrete([act, act + 1])
    return observation, action


def _mlp(i, o, hidden=8, tanh=False):
    return nn.Sequential(nn.Linear(i, hidden), nn.Tanh() if tanh else nn.ReLU(), nn.Linear(hidden, o))


def _model(mixin, observation, action, out=None, probs=False, **kwargs):
    """A skrl model with one mixin around a small MLP, built as skrl's documentation shows."""
    from skrl.models.torch import Model

    class Net(mixin, Model):
        def __init__(self):
            Model.__init__(self, observation_space=observation, state_space=None, action_space=action, device="cpu")
            mixin.__init__(self, **kwargs)
            self.net = _mlp(self.num_observations, out or self.num_actions)
            if mixin.__name__ in ("GaussianMixin", "MultivariateGaussianMixin"):
                self.log_std_parameter = nn.Parameter(torch.full((self.num_actions,), -0.5))

        def compute(self, inputs, role=""):
            x = self.net(inputs["observations"])
            if hasattr(self, "log_std_parameter"):
                return torch.tanh(x), {"log_std": self.log_std_parameter}
            return (torch.softmax(x, -1) if probs else x), {}

    return Net()


def mixins():
    """Each of skrl's model mixins: actions, log-probabilities, entropies and a gradient through them."""
    from skrl.models.torch import (
        CategoricalMixin,
        DeterministicMixin,
        GaussianMixin,
        MultiCategoricalMixin,
        MultivariateGaussianMixin,
    )

    torch.manual_seed(0)
    cases = [("gaussian", GaussianMixin, "box", {"clip_actions": True, "clip_log_std": True, "reduction": "sum"}),
             ("gaussian_mean", GaussianMixin, "box", {"reduction": "mean", "min_log_std": -1.0}),
             ("multivariate", MultivariateGaussianMixin, "box", {"clip_actions": True}),
             ("deterministic", DeterministicMixin, "box", {"clip_actions": True}),
             ("categorical", CategoricalMixin, "discrete", {"unnormalized_log_prob": True}),
             ("categorical_probs", CategoricalMixin, "discrete", {"unnormalized_log_prob": False}),
             ("multicategorical", MultiCategoricalMixin, "multidiscrete", {"reduction": "sum"})]
    for name, mixin, kind, kwargs in cases:
        observation, action = _spaces(kind, act=3)
        out = 7 if kind == "multidiscrete" else None
        model = _model(mixin, observation, action, out=out, probs=kwargs.get("unnormalized_log_prob") is False,
                       **kwargs)
        obs = torch.rand(5, 4) * 2 - 1
        actions, outputs = model.act({"observations": obs}, role="policy")
        show(f"{name} actions", actions)
        show(f"{name} outputs", outputs)
        if "log_prob" in outputs and outputs["log_prob"] is not None:
            loss = outputs["log_prob"].sum()
            if mixin is not DeterministicMixin:
                loss = loss + model.get_entropy(role="policy").sum()
                show(f"{name} entropy", model.get_entropy(role="policy"))
            loss.backward()
            show(f"{name} grad", model.net[0].weight.grad)
        if mixin is not DeterministicMixin and hasattr(model, "distribution"):
            print(name, "distribution", type(model.distribution(role="policy")).__name__)
        taken = model.act({"observations": obs, "taken_actions": actions}, role="policy")[1]
        show(f"{name} taken", taken.get("log_prob"))


def preprocessor():
    """RunningStandardScaler updated on seeded batches, its statistics, forward, inverse and state dict."""
    import gymnasium
    from skrl.resources.preprocessors.torch import RunningStandardScaler

    torch.manual_seed(0)
    scaler = RunningStandardScaler(size=gymnasium.spaces.Box(-1, 1, (3,)), epsilon=1e-8, clip_threshold=5.0)
    for step in range(4):
        batch = torch.randn(16, 3) * torch.tensor([1.0, 10.0, 0.1]) + step
        out = scaler(batch, train=True)
        show(f"step {step} out[:2]", out[:2])
    show("mean", scaler.running_mean)
    show("variance", scaler.running_variance)
    show("count", scaler.current_count)
    x = torch.randn(4, 3)
    show("forward", scaler(x))
    show("inverse", scaler(scaler(x), inverse=True))
    show("no normalize", scaler(x, no_grad=True))
    scalar = RunningStandardScaler(size=1)
    for _ in range(3):
        scalar(torch.randn(8, 1) * 5 + 2, train=True)
    show("scalar state", scalar.state_dict())


def noises():
    """Gaussian and Ornstein-Uhlenbeck noises sampled from seeded generators."""
    from skrl.resources.noises.torch import GaussianNoise, OrnsteinUhlenbeckNoise

    torch.manual_seed(0)
    gauss = GaussianNoise(mean=0.1, std=0.5, device="cpu")
    show("gaussian", gauss.sample((3, 2)))
    show("gaussian like", gauss.sample_like(torch.zeros(2, 3)))
    ou = OrnsteinUhlenbeckNoise(theta=0.15, sigma=0.2, base_scale=1.0, mean=0.0, std=1.0, device="cpu")
    for i in range(4):
        show(f"ou {i}", ou.sample((2, 2)))


def scheduler():
    """KLAdaptiveLR stepped with KL divergences around its threshold."""
    from skrl.resources.schedulers.torch import KLAdaptiveLR

    torch.manual_seed(0)
    net = _mlp(3, 2)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    sched = KLAdaptiveLR(optimizer, kl_threshold=0.01, min_lr=1e-5, max_lr=1e-2, kl_factor=2, lr_factor=1.5)
    for kl in [0.001, 0.03, 0.01, 0.05, 0.002, torch.tensor(0.0001), 0.5, 0.5, 0.5]:
        sched.step(kl)
        print("lr", repr(sched.get_last_lr()[0]), repr(optimizer.param_groups[0]["lr"]))
    print(sched.state_dict())


def memory():
    """RandomMemory filled with seeded transitions: samples with and without replacement, sample_all, indexes."""
    from skrl.memories.torch import RandomMemory

    torch.manual_seed(0)
    for replacement in (True, False):
        mem = RandomMemory(memory_size=10, num_envs=2, device="cpu", replacement=replacement)
        mem.create_tensor("observations", size=3, dtype=torch.float32)
        mem.create_tensor("actions", size=1, dtype=torch.int64)
        mem.create_tensor("rewards", size=1, dtype=torch.float32)
        for _ in range(13):
            mem.add_samples(observations=torch.randn(2, 3), actions=torch.randint(0, 4, (2, 1)),
                            rewards=torch.randn(2, 1))
        print("len", len(mem), "filled", mem.filled, "index", mem.memory_index)
        batches = mem.sample(names=["observations", "actions", "rewards"], batch_size=4, mini_batches=2)
        for b in batches:
            show(f"replacement={replacement} sample", [t.tolist() for t in b])
        print("indexes", mem.get_sampling_indexes().tolist())
        everything = mem.sample_all(names=["rewards"], mini_batches=2)
        for b in everything:
            show("all", b[0].flatten())
        show("by index", mem.sample_by_index(names=["actions"], indexes=torch.tensor([0, 5, 19]))[0][0])


def instantiators():
    """skrl's model instantiators from network definitions: outputs and gradients of each kind."""
    from skrl.utils.model_instantiators.torch import (
        categorical_model,
        deterministic_model,
        gaussian_model,
        multivariate_gaussian_model,
        shared_model,
    )

    torch.manual_seed(0)
    observation, action = _spaces("box", obs=4, act=2)
    network = [{"name": "net", "input": "OBSERVATIONS", "layers": [16, 8], "activations": ["relu", "tanh"]}]
    obs = torch.rand(6, 4)
    models = {
        "gaussian": gaussian_model(observation_space=observation, action_space=action, device="cpu",
                                   network=network, output="2 * tanh(ACTIONS)", initial_log_std=-0.3),
        "multivariate": multivariate_gaussian_model(observation_space=observation, action_space=action,
                                                    device="cpu", network=network, output="ACTIONS"),
        "deterministic": deterministic_model(observation_space=observation, action_space=action, device="cpu",
                                             network=network, output="ONE"),
        "categorical": categorical_model(observation_space=observation, action_space=_spaces("discrete", act=3)[1],
                                         device="cpu", network=network, output="ACTIONS"),
        "shared": shared_model(observation_space=observation, action_space=action, device="cpu",
                               structure=["GaussianMixin", "DeterministicMixin"],
                               parameters=[{"network": network, "output": "ACTIONS"},
                                           {"network": network, "output": "ONE"}], roles=["policy", "value"]),
    }
    for name, model in models.items():
        role = "policy" if name != "deterministic" else "value"
        try:  # (their layers are lazy: torch refuses to initialise them before a forward)
            model.init_parameters(method_name="normal_", mean=0.0, std=0.2)
        except ValueError as exc:
            print(name, "before a forward:", str(exc)[:60])
        for r in ("policy", "value") if name == "shared" else (role,):
            model.act({"observations": obs}, role=r)
        model.init_parameters(method_name="normal_", mean=0.0, std=0.2)
        model.init_biases(method_name="constant_", val=0.05)
        actions, outputs = model.act({"observations": obs}, role=role)
        show(f"{name} actions", actions)
        show(f"{name} outputs", {k: v for k, v in outputs.items() if isinstance(v, torch.Tensor)})
        actions.float().sum().backward() if actions.requires_grad else None
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        show(f"{name} grad norms", [float(g.norm()) for g in grads])
        if name == "shared":
            show("shared value", model.act({"observations": obs}, role="value")[0])


def _agent_run(agent_name, kind="box", steps=200, **cfg_changes):
    """One skrl agent trained ``steps`` steps on a seeded Gymnasium environment by SequentialTrainer, its logged
    scalars printed every 25 steps (fake_skrl_deps), then its models' parameters."""
    import gymnasium
    from skrl.envs.wrappers.torch import wrap_env
    from skrl.memories.torch import RandomMemory
    from skrl.models.torch import CategoricalMixin, DeterministicMixin, GaussianMixin, Model, MultivariateGaussianMixin
    from skrl.trainers.torch import SequentialTrainer
    from skrl.utils import set_seed

    set_seed(7)
    env = wrap_env(gymnasium.make("CartPole-v1" if kind == "discrete" else "Pendulum-v1"))
    env.action_space.seed(7)  # (random actions are Gymnasium's space samples: seeded from the OS otherwise)
    obs_space, act_space = env.observation_space, env.action_space

    def model(mixin, out=None, critic=False, **kwargs):
        class Net(mixin, Model):
            def __init__(self):
                Model.__init__(self, observation_space=obs_space, state_space=None, action_space=act_space,
                               device=env.device)
                mixin.__init__(self, **kwargs)
                extra = self.num_actions if critic else 0
                self.net = _mlp(self.num_observations + extra, out or self.num_actions, hidden=32, tanh=True)
                if mixin in (GaussianMixin, MultivariateGaussianMixin):
                    self.log_std_parameter = nn.Parameter(torch.zeros(self.num_actions))

            def compute(self, inputs, role=""):
                x = inputs["observations"]
                if critic:
                    x = torch.cat([x, inputs["taken_actions"]], dim=-1)
                y = self.net(x)
                if hasattr(self, "log_std_parameter"):
                    return 2 * torch.tanh(y), {"log_std": self.log_std_parameter}
                return (2 * torch.tanh(y) if mixin is DeterministicMixin and not critic and out is None else y), {}

        return Net()

    if agent_name in ("a2c", "rpo", "ppo_multivariate"):
        from skrl.agents.torch.a2c import A2C, A2C_CFG
        from skrl.agents.torch.ppo import PPO, PPO_CFG
        from skrl.agents.torch.rpo import RPO, RPO_CFG
        from skrl.resources.preprocessors.torch import RunningStandardScaler

        Agent, Cfg = {"a2c": (A2C, A2C_CFG), "rpo": (RPO, RPO_CFG), "ppo_multivariate": (PPO, PPO_CFG)}[agent_name]
        policy_mixin = MultivariateGaussianMixin if agent_name == "ppo_multivariate" else GaussianMixin
        if kind == "discrete":
            policy_mixin = CategoricalMixin
        models = {"policy": model(policy_mixin), "value": model(DeterministicMixin, out=1)}
        cfg = Cfg()
        cfg.rollouts, cfg.mini_batches = 32, 2
        if hasattr(cfg, "learning_epochs"):
            cfg.learning_epochs = 2
        cfg.observation_preprocessor = RunningStandardScaler
        cfg.observation_preprocessor_kwargs = {"size": obs_space, "device": env.device}
        cfg.value_preprocessor = RunningStandardScaler
        cfg.value_preprocessor_kwargs = {"size": 1, "device": env.device}
        memory_size = 32
    else:
        from skrl.agents.torch.ddqn import DDQN, DDQN_CFG
        from skrl.agents.torch.dqn import DQN, DQN_CFG
        from skrl.resources.noises.torch import OrnsteinUhlenbeckNoise

        Agent, Cfg = {"ddqn": (DDQN, DDQN_CFG), "dqn": (DQN, DQN_CFG)}.get(agent_name, (None, None))
        if Agent is not None:
            models = {"q_network": model(DeterministicMixin, out=act_space.n),
                      "target_q_network": model(DeterministicMixin, out=act_space.n)}
            cfg = Cfg()
            cfg.exploration_scheduler = lambda timestep, timesteps: max(1 - timestep / 100, 0.05)
            cfg.target_update_interval = 20
        else:
            from skrl.agents.torch.ddpg import DDPG, DDPG_CFG

            models = {"policy": model(DeterministicMixin), "target_policy": model(DeterministicMixin),
                      "critic": model(DeterministicMixin, out=1, critic=True),
                      "target_critic": model(DeterministicMixin, out=1, critic=True)}
            cfg = DDPG_CFG()
            cfg.exploration_noise = OrnsteinUhlenbeckNoise
            cfg.exploration_noise_kwargs = {"theta": 0.15, "sigma": 0.1, "base_scale": 1.0, "device": env.device}
            Agent = DDPG
        cfg.batch_size, cfg.learning_starts = 32, 64
        memory_size = 1000
    for key, value in cfg_changes.items():
        setattr(cfg, key, value)
    cfg.experiment.write_interval, cfg.experiment.checkpoint_interval = 25, 0
    cfg.experiment.directory = "runs"
    memory = RandomMemory(memory_size=memory_size, num_envs=env.num_envs, device=env.device)
    agent = Agent(models=models, memory=memory, cfg=cfg, observation_space=obs_space, state_space=None,
                  action_space=act_space, device=env.device)
    SequentialTrainer(cfg={"timesteps": steps, "headless": True}, env=env, agents=agent).train()
    for role, m in models.items():
        show_parameters(m, role)
    return agent


def a2c():
    _agent_run("a2c")
    _agent_run("a2c", kind="discrete", entropy_loss_scale=0.01)


def rpo():
    _agent_run("rpo", alpha=0.3)


def ppo_multivariate():
    from skrl.resources.schedulers.torch import KLAdaptiveLR

    _agent_run("ppo_multivariate", learning_rate_scheduler=KLAdaptiveLR,
               learning_rate_scheduler_kwargs={"kl_threshold": 0.008})


def dqn():
    _agent_run("dqn", kind="discrete")
    _agent_run("ddqn", kind="discrete")


def ddpg_ou():
    _agent_run("ddpg")


# ----- ncps (liquid time-constant networks) ------------------------------------------------------------------------
def _sine_data(batch=2, steps=16):
    """A seeded two-feature sequence (a sine and a cosine) and its double-frequency sine target, as ncps' examples."""
    import numpy as np

    t = np.linspace(0, 3 * np.pi, steps)
    x = np.stack([np.sin(t), np.cos(t)], axis=1)[None].repeat(batch, 0).astype(np.float32)
    x = x + np.random.default_rng(0).normal(0, 0.05, x.shape).astype(np.float32)
    y = np.sin(2 * t).reshape(1, steps, 1).repeat(batch, 0).astype(np.float32)
    return torch.tensor(x), torch.tensor(y)


def _train(name, model, steps=5, lr=0.01, timespans=None, batch=2):
    """``steps`` Adam updates of ``model`` on the sine data, printing the losses, output and a gradient norm."""
    x, y = _sine_data(batch)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for step in range(steps):
        optimizer.zero_grad()
        out, hx = model(x, timespans=timespans) if timespans is not None else model(x)
        loss = nn.functional.mse_loss(out[..., :1], y)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        optimizer.step()
        print(name, "step", step, repr(loss.item()), repr(float(norm)))
    show(f"{name} output", out[0, -3:])
    show(f"{name} state", hx[0] if isinstance(hx, tuple) else hx)
    show_parameters(model, name)


def ncps_wirings():
    """ncps' wirings: their adjacency matrices, polarities, neuron groups and configs after build."""
    from ncps import wirings

    cases = [("fully", wirings.FullyConnected(6, 2)),
             ("fully_noself", wirings.FullyConnected(5, self_connections=False)),
             ("random", wirings.Random(8, 2, sparsity_level=0.5)),
             ("ncp", wirings.NCP(inter_neurons=5, command_neurons=4, motor_neurons=2, sensory_fanout=3,
                                 inter_fanout=2, recurrent_command_synapses=3, motor_fanin=3)),
             ("auto", wirings.AutoNCP(16, 2)), ("auto_sparse", wirings.AutoNCP(20, 3, sparsity_level=0.7))]
    for name, wiring in cases:
        wiring.build(3)
        print(name, wiring.units, wiring.output_dim, wiring.input_dim, wiring.synapse_count,
              wiring.sensory_synapse_count)
        print(name, "adjacency", wiring.adjacency_matrix.tolist())
        print(name, "sensory", wiring.sensory_adjacency_matrix.tolist())
        if hasattr(wiring, "get_neurons_of_layer"):
            print(name, "layers", [list(wiring.get_neurons_of_layer(i)) for i in range(wiring.num_layers)])
        print(name, "erev", wiring.erev_initializer().tolist())


def ncps_cfc():
    """CfC in each mode, with a backbone, projection and mixed memory, trained a few Adam steps."""
    from ncps.torch import CfC

    for name, kwargs in [("default", {}), ("pure", {"mode": "pure"}), ("no_gate", {"mode": "no_gate"}),
                         ("backbone", {"backbone_units": 16, "backbone_layers": 2, "backbone_dropout": 0.0}),
                         ("proj", {"proj_size": 3}), ("mixed", {"mixed_memory": True}),
                         ("relu", {"activation": "relu"})]:
        torch.manual_seed(0)
        _train(f"cfc_{name}", CfC(2, 8, **kwargs))
    torch.manual_seed(0)
    x, _ = _sine_data()
    last = CfC(2, 6, return_sequences=False, batch_first=False)
    show("cfc last", last(x.transpose(0, 1))[0])
    show("cfc unbatched", CfC(2, 4)(x[0])[0][-2:])


def ncps_wired_cfc():
    """CfC on NCP wirings (WiredCfCCell), with timespans, trained a few steps."""
    from ncps.torch import CfC
    from ncps.wirings import NCP, AutoNCP

    for name, wiring in [("auto", AutoNCP(12, 1)),
                         ("ncp", NCP(inter_neurons=4, command_neurons=3, motor_neurons=1, sensory_fanout=2,
                                     inter_fanout=2, recurrent_command_synapses=2, motor_fanin=2))]:
        for mode in ("default", "pure"):
            torch.manual_seed(0)
            _train(f"wired_{name}_{mode}", CfC(2, wiring, mode=mode))
    torch.manual_seed(0)
    spans = torch.linspace(0.5, 1.5, 16)[None]  # (one sequence: the cell squeezes each step's (B, 1) timespans)
    _train("wired_timespans", CfC(2, AutoNCP(10, 1)), timespans=spans, steps=3, batch=1)


def ncps_ltc():
    """LTC on fully connected and NCP wirings, with mixed memory, explicit constraints and fewer unfolds."""
    from ncps.torch import LTC, LTCCell
    from ncps.wirings import AutoNCP, FullyConnected

    for name, make in [("units", lambda: LTC(2, 6)), ("auto", lambda: LTC(2, AutoNCP(10, 1))),
                       ("mixed", lambda: LTC(2, FullyConnected(5, 1), mixed_memory=True)),
                       ("explicit", lambda: LTC(2, 5, implicit_param_constraints=False, ode_unfolds=3)),
                       ("linear_maps", lambda: LTC(2, 5, input_mapping="linear", output_mapping="linear"))]:
        torch.manual_seed(0)
        _train(f"ltc_{name}", make(), steps=4)
    torch.manual_seed(0)
    wiring = FullyConnected(6, 2)
    cell = LTCCell(wiring, 3)
    out, h = cell(torch.randn(4, 3), torch.zeros(4, wiring.units))
    show("ltc cell out", out)
    show("ltc cell state", h)
    cell.apply_weight_constraints()
    show("ltc cell gleak", cell._params["gleak"])
