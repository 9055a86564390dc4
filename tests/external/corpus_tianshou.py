"""Drivers for ``recipes_tianshou.py`` (our text): Tianshou 1.2.0's own package on core, used as its docs and tests
use it.

Each script holds Tianshou's and Gymnasium's packages beside it (``runner._fetched_packages``; numba, sensai and the
rest are ``fake_tianshou_deps``). The drivers build Tianshou's data structures, networks and policies on seeded
inputs and Gymnasium's classic-control environments, update each policy a few times and print what a user reads
(losses, returns, sampled indices, parameters) at full precision, so core and torch are compared number for number.
"""

from __future__ import annotations

import numpy as np
import torch


# What the drivers print ---------------------------------------------------------------------------------------------
def _values(t, n=6):
    """A tensor's or array's first ``n`` values (flattened), floats to 7 decimals: float32 products differ in their last
    bit between core's and torch's matrix kernels, which a value near 0 after a cancellation shows relative to its
    size (-0.00270014 vs -0.00270011)."""
    if isinstance(t, torch.Tensor):
        t = t.detach().cpu().numpy()
    values = np.asarray(t).reshape(-1)[:n]
    return [f"{v:.7f}" for v in values.tolist()] if values.dtype.kind == "f" else values.tolist()


def show(name, t, n=6):
    """A tensor's or array's type, shape, dtype and first values."""
    kind = "tensor" if isinstance(t, torch.Tensor) else type(t).__name__
    array = t if isinstance(t, torch.Tensor) else np.asarray(t)
    print(name, kind, tuple(array.shape), array.dtype, _values(array, n))


def show_parameters(module, n=3):
    """Every parameter's shape and first values to 7 decimals."""
    for name, p in module.named_parameters():
        print(" ", name, tuple(p.shape), _values(p, n))


def seed(value=0):
    torch.manual_seed(value)
    np.random.seed(value)


# tianshou.data ------------------------------------------------------------------------------------------------------
def batch():
    """``Batch``: construction from dicts and arrays, nested keys, indexing, cat/stack/split, ``to_torch``/``to_numpy``,
    empty batches, ``update``, ``__eq__`` and the tensor-holding batch's arithmetic."""
    from tianshou.data import Batch, to_numpy, to_torch

    seed()
    b = Batch(obs=np.arange(12.0).reshape(4, 3), act=np.array([0, 1, 1, 0]), info={"x": torch.arange(4)},
              rew=torch.randn(4))
    print(b)
    print(len(b), b.shape, sorted(b.keys()))
    print(b[1:3])
    print(b[np.array([0, 2])].info.x)
    b2 = Batch.cat([b, b[:2]])
    print(len(b2), b2.obs.shape, b2.info.x)
    st = Batch.stack([b[0], b[1]])
    print(st.obs, st.rew)
    for part in b.split(3, shuffle=False):
        print("split", len(part), part.act)
    t = to_torch(Batch(a=np.ones((2, 2)), b={"c": np.zeros(3, dtype=np.int32)}), dtype=torch.float32)
    print(t.a.dtype, t.b.c.dtype, t)
    n = to_numpy(b)
    print(type(n.rew).__name__, n.rew.dtype, n.info.x)
    print(len(Batch()), len(Batch(a=[1, 2, 3])), Batch.empty(Batch(a=np.ones(3), b=torch.ones(2, 2))))
    print(b.to_torch(dtype=torch.float64).obs.dtype, b.to_numpy().rew.dtype, b[0].to_dict(recursive=True).keys())
    print(Batch(a=np.array([1.0, np.nan]), b=Batch(c=torch.tensor([0.0, 1.0]))).hasnull(),
          Batch(a=np.array([1.0, np.nan, 2.0])).isnull().a, Batch(a=np.array([1.0, np.nan, 2.0])).dropnull().a)
    b.update(new=np.zeros(4), obs=np.ones((4, 3)))
    print(sorted(b.keys()), b.obs.sum())
    print(Batch(a=np.array([1.0, 2.0])) == Batch(a=np.array([1.0, 2.0])),
          Batch(a=np.array([1.0, 2.0])) == Batch(a=np.array([1.0, 3.0])))
    x = Batch(a=torch.ones(3), b=Batch(c=torch.full((3,), 2.0)))
    y = x * 2 + 1
    print(y, (x / 4).b.c)
    print(Batch.stack([Batch(a=torch.zeros(2)), Batch(a=torch.ones(2))], axis=1).a)
    b3 = Batch(a=np.zeros((3, 2)))
    b3[1] = Batch(a=np.array([5.0, 6.0]))
    print(b3.a)
    print(Batch({"a": [4, 4], "b": (5, 5)}).a, Batch(a=[np.zeros(2), np.ones(2)]).a.shape)


# Tianshou's algorithm tests (test/discrete, test/continuous...) run with short arguments ------------------------------
class QuietWriter:
    """A ``SummaryWriter`` that makes its log folder (the tests save their best policy there) and records nothing:
    torch's run has no tensorboard package (the runner's stub writer makes no folder), core's keeps scalars."""

    def __init__(self, log_dir="runs", *args, **kwargs):
        import os

        self.log_dir = log_dir
        os.makedirs(log_dir, exist_ok=True)

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def expert_buffer(path, task, size=300, seed=0):
    """A pickled ``ReplayBuffer`` of ``size`` transitions of ``task`` under seeded random actions: the offline tests'
    expert data (their ``gather_data`` trains an agent for minutes to collect it)."""
    import pickle

    import gymnasium as gym
    from tianshou.data import Batch, ReplayBuffer

    env = gym.make(task)
    env.action_space.seed(seed)
    buffer = ReplayBuffer(size)
    obs, _ = env.reset(seed=seed)
    for _ in range(size):
        act = env.action_space.sample()
        obs_next, rew, terminated, truncated, _ = env.step(act)
        buffer.add(Batch(obs=obs, act=act, rew=rew, terminated=terminated, truncated=truncated, obs_next=obs_next,
                         info={}))
        obs = env.reset()[0] if terminated or truncated else obs_next
    with open(path, "wb") as f:
        pickle.dump(buffer, f)


def run_test(namespace, function, *args, buffer=None):
    """``namespace[function]`` (a test function of an algorithm test module run as a script) called with
    ``namespace["get_args"]()``, its ``SummaryWriter`` a ``QuietWriter``; the result is printed where the test trains
    (``show_result``). ``buffer``: the task whose ``expert_buffer`` an offline test loads (``--load-buffer-name``)."""
    namespace["SummaryWriter"] = QuietWriter
    arguments = namespace["get_args"]()
    if buffer is not None:
        expert_buffer(arguments.load_buffer_name, buffer)
    namespace[function](arguments, *args)


def show_result(result, policy):
    """A trainer's ``InfoStats`` (not its timings) and the trained policy's parameters."""
    print("gradient_step", result.gradient_step, "best_reward", result.best_reward, "best_reward_std",
          result.best_reward_std, "best_score", result.best_score)
    print("train_step", result.train_step, "train_episode", result.train_episode, "test_step", result.test_step,
          "test_episode", result.test_episode)
    show_parameters(policy)


def _without_timings(value):
    """A stats dataclass's ``asdict`` (or a dict) with its wall-clock entries (``*time*``, ``*speed*``) left out."""
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if "time" not in str(k) and "speed" not in str(k)}
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":  # (a list: NumPy pads an array's columns to the
        return np.round(value, 7).tolist()  # widest value's repr, whose digits follow float32's last bit)
    return value


def show_stats(stats):
    """What ``stats.pprint_asdict()`` shows (a collector's or a policy update's statistics) but its timings."""
    import pprint

    print(type(stats).__name__)
    pprint.pprint(_without_timings(stats), width=120)


# tianshou.utils.net -------------------------------------------------------------------------------------------------
def nets():
    """``Net`` (plain, dueling, distributional, with norm layers and softmax, concatenating state and action), the
    discrete and continuous actors and critics, ``ActorProb`` bounded and unbounded with conditioned sigma,
    ``Recurrent``, ``RecurrentActorProb``/``RecurrentCritic`` with their hidden states, IQN's and FQF's quantile
    networks, ``NoisyLinear``, the ICM and the VAE: outputs and one backward pass each."""
    from tianshou.utils.net import common, continuous, discrete

    seed()
    obs = torch.randn(5, 4)
    act = torch.randn(5, 2)
    cases = {
        "net": common.Net(4, 3, hidden_sizes=[8, 8]),
        "dueling": common.Net(4, 3, hidden_sizes=[8], dueling_param=({"hidden_sizes": [6]}, {"hidden_sizes": [6]})),
        "atoms": common.Net(4, 3, hidden_sizes=[8], num_atoms=5, softmax=True),
        "norm": common.Net(4, 3, hidden_sizes=[8, 8], norm_layer=torch.nn.LayerNorm, activation=torch.nn.Tanh),
        "concat": common.Net(4, 2, hidden_sizes=[8], concat=True),
    }
    for name, net in cases.items():
        out, state = net(torch.cat([obs, act], 1) if name == "concat" else obs)
        out.square().sum().backward()  # (a softmax output sums to 1: its sum has no gradient)
        show(name, out)
        print("  grad", _values(next(net.parameters()).grad, 3), state)
    mlp = common.MLP(4, 3, [6], activation=[torch.nn.ReLU], norm_layer=torch.nn.BatchNorm1d)
    show("mlp", mlp(obs))
    base = common.Net(4, hidden_sizes=[8])
    logits, _ = discrete.Actor(base, 3, hidden_sizes=[6])(obs)
    show("discrete actor", logits)
    show("discrete critic", discrete.Critic(base, hidden_sizes=[6])(obs))
    show("continuous actor", continuous.Actor(base, 2, max_action=2.0)(obs)[0])
    show("continuous critic", continuous.Critic(common.Net(4, 2, hidden_sizes=[8], concat=True))(obs, act))
    for unbounded, conditioned in ((False, False), (True, False), (False, True)):
        (mu, sigma), _ = continuous.ActorProb(base, 2, unbounded=unbounded, conditioned_sigma=conditioned)(obs)
        show(f"actor prob unbounded={unbounded} conditioned={conditioned} mu", mu)
        show("  sigma", sigma)
    seq = torch.randn(3, 4, 4)
    rnn = common.Recurrent(2, 4, 3, hidden_layer_size=8)
    q, state = rnn(seq)
    show("recurrent", q)
    show("  hidden", state["hidden"])
    q2, _ = rnn(seq[:, -1], state)
    show("  step", q2)
    (mu, sigma), state = continuous.RecurrentActorProb(layer_num=1, state_shape=(4,), action_shape=(2,),
                                                       hidden_layer_size=8)(seq)
    show("recurrent actor prob mu", mu)
    show("  sigma", sigma)
    show("recurrent critic", continuous.RecurrentCritic(1, (4,), (2,), hidden_layer_size=8)(seq, act[:3]))
    iqn = discrete.ImplicitQuantileNetwork(common.Net(4, hidden_sizes=[8]), 3, hidden_sizes=[6], num_cosines=4)
    (quantiles, taus), _ = iqn(obs, sample_size=4)
    show("iqn quantiles", quantiles)
    show("  taus", taus)
    fpn = discrete.FractionProposalNetwork(5, 8)
    embedding = torch.randn(2, 8)
    taus, tau_hats, entropies = fpn(embedding)
    show("fqf taus", taus)
    show("  tau_hats", tau_hats)
    show("  entropies", entropies)
    noisy = discrete.NoisyLinear(4, 3)
    show("noisy linear train", noisy(obs))
    noisy.eval()
    show("noisy linear eval", noisy(obs))
    icm = discrete.IntrinsicCuriosityModule(common.MLP(4, 8, [8]), 8, 3, hidden_sizes=[6])
    mse, logits = icm(obs, torch.tensor([0, 1, 2, 0, 1]), obs + 0.1)
    show("icm mse", mse)
    show("  act logits", logits)
    vae = continuous.VAE(common.MLP(6, 0, [8]), common.MLP(4 + 4, 2, [8]), hidden_dim=8, latent_dim=4,
                         max_action=1.0)
    recon, mean, std = vae(obs, act)
    show("vae recon", recon)
    show("  mean", mean)
    show("  std", std)
    show("  decode", vae.decode(obs))


# buffers and returns ------------------------------------------------------------------------------------------------
def buffers_returns():
    """``ReplayBuffer``, ``PrioritizedReplayBuffer`` (seeded sampling, importance weights, ``update_weight`` from a TD
    error tensor), ``VectorReplayBuffer`` and ``PrioritizedVectorReplayBuffer`` with their sub-buffer indices,
    frame stacking; then ``BasePolicy.compute_episodic_return`` (GAE with critic values) and
    ``compute_nstep_return`` with a torch target-Q function, as the policies call them."""
    from tianshou.data import (
        Batch,
        PrioritizedReplayBuffer,
        PrioritizedVectorReplayBuffer,
        ReplayBuffer,
        VectorReplayBuffer,
    )
    from tianshou.policy import BasePolicy

    seed()

    def step(i, done, env_id=None):
        return Batch(obs=np.array([i, -i], dtype=np.float32), act=i % 2, rew=float(i) / 4, terminated=done,
                     truncated=False, obs_next=np.array([i + 1, -i - 1], dtype=np.float32), info={})

    buf = ReplayBuffer(12, stack_num=3)
    for i in range(14):
        buf.add(step(i, i % 5 == 4))
    print(buf.obs[:, 0], buf.done, buf.get(np.array([0, 5, 11]), "obs")[..., 0])
    print(buf.prev(np.arange(12)), buf.next(np.arange(12)), buf.unfinished_index())
    prio = PrioritizedReplayBuffer(16, alpha=0.6, beta=0.4)
    for i in range(10):
        prio.add(step(i, i == 9))
    batch, indices = prio.sample(6)
    print("prio sample", indices, batch.weight)
    prio.update_weight(indices, torch.tensor([0.5, -2.0, 1.5, 0.1, 3.0, -0.7]))
    print("prio weight", prio.weight[np.arange(10)], prio.get_weight(np.arange(10)))
    batch, indices = prio.sample(6)
    print("prio resample", indices, batch.weight)
    prio.set_beta(1.0)
    print("prio beta 1", prio.get_weight(indices))
    vec = VectorReplayBuffer(12, 3)
    for i in range(8):
        stacked = Batch.stack([step(i + 10 * k, i == 5 and k == 1) for k in range(3)])
        ptr, ep_rew, ep_len, ep_idx = vec.add(stacked, buffer_ids=[0, 1, 2])
    print("vec", len(vec), ptr, ep_rew, ep_len, ep_idx, vec.subbuffer_edges)
    batch, indices = vec.sample(5)
    print("vec sample", indices, batch.obs[:, 0], vec.sample_indices(0))
    pvec = PrioritizedVectorReplayBuffer(12, 2, alpha=0.5, beta=0.5)
    for i in range(6):
        pvec.add(Batch.stack([step(i, False), step(i + 20, i == 3)]), buffer_ids=[0, 1])
    batch, indices = pvec.sample(4)
    print("pvec sample", indices, batch.weight)

    # returns: GAE over a buffer with episode ends, as A2C/PPO's process_fn calls it
    buf = ReplayBuffer(20)
    for i in range(10):
        buf.add(Batch(obs=i, act=0, rew=float(i % 3) - 0.5, terminated=i in (3, 8), truncated=i == 6, obs_next=i + 1,
                      info={}))
    batch, indices = buf.sample(0)
    v_s = np.linspace(-1, 1, 10).astype(np.float32)
    v_s_ = np.linspace(1, -1, 10).astype(np.float32)
    for gamma, lam in ((0.99, 0.95), (0.9, 1.0), (1.0, 0.0)):
        returns, advantages = BasePolicy.compute_episodic_return(batch, buf, indices, v_s_=v_s_, v_s=v_s,
                                                                 gamma=gamma, gae_lambda=lam)
        print("gae", gamma, lam, returns.tolist(), advantages.tolist())
    net = torch.nn.Linear(1, 2)

    def target_q(buffer, idx):
        obs_next = torch.as_tensor(buffer[idx].obs_next, dtype=torch.float32).reshape(-1, 1)
        return net(obs_next).max(dim=1)[0]

    for n_step, gamma in ((1, 0.99), (3, 0.9)):
        out = BasePolicy.compute_nstep_return(batch=buf[indices], buffer=buf, indices=indices, target_q_fn=target_q,
                                              gamma=gamma, n_step=n_step)
        show(f"nstep n={n_step} gamma={gamma}", out.returns, 10)


# policies with their options, updated on collected data -------------------------------------------------------------
def _collected(task, steps, policy=None, envs=2, episode_steps=None):
    """A ``VectorReplayBuffer`` of ``steps`` transitions of ``task`` from seeded environments under seeded random
    actions (``Collector.collect(random=True)``: the action space's ``sample``)."""
    import gymnasium as gym
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv

    kwargs = {"max_episode_steps": episode_steps} if episode_steps else {}
    venv = DummyVectorEnv([lambda: gym.make(task, **kwargs) for _ in range(envs)])
    venv.seed(0)
    buffer = VectorReplayBuffer(400, envs)
    if policy is None:
        from tianshou.policy.base import RandomActionPolicy

        policy = RandomActionPolicy(action_space=gym.make(task).action_space)
        policy.action_space.seed(0)
    collector = Collector[CollectStats](policy, venv, buffer, exploration_noise=True)
    collector.reset()
    stats = collector.collect(n_step=steps, random=True)
    print(task, "collected", stats.n_collected_steps, stats.n_collected_episodes, len(buffer))
    return buffer, venv


def _update(name, policy, buffer, times=3, **kwargs):
    """``policy.update`` ``times`` times in a training step (sampling with NumPy's seeded generator), each update's
    statistics printed without timings, then the first parameters."""
    from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode

    print("==", name)
    for _ in range(times):
        with policy_within_training_step(policy), torch_train_mode(policy):
            stats = policy.update(buffer=buffer, **kwargs)
        print(_rounded(_without_timings(stats)))
    show_parameters(policy, 2)


def _rounded(value, places=6):
    """Floats in a (nested) dict to ``places`` decimals, -0.0 as 0.0: PPO's clip loss over normalised advantages is a
    cancellation whose extremes are float32 residues (3.7e-09 in one library, -1.5e-08 in the other)."""
    if isinstance(value, dict):
        return {k: _rounded(v, places) for k, v in value.items()}
    if isinstance(value, float):
        return round(value, places) + 0.0
    return value


def discrete_policies():
    """DQN (dueling, double or not, with Huber loss, n-step targets and a target network), C51, QR-DQN,
    PPO (dual and value clipping, recomputed advantages, reward normalisation) and discrete SAC with automatic
    entropy tuning, each updated three times on seeded CartPole transitions."""
    import gymnasium as gym
    from tianshou.policy import C51Policy, DiscreteSACPolicy, DQNPolicy, PPOPolicy, QRDQNPolicy
    from tianshou.utils.net.common import ActorCritic, Net
    from tianshou.utils.net.discrete import Actor, Critic

    seed()
    space = gym.make("CartPole-v1").action_space
    buffer, _ = _collected("CartPole-v1", 120)
    for double, huber in ((True, False), (False, True)):  # (reward_normalization: "unsupported now" for n-step targets)
        seed(1)
        net = Net(4, 2, hidden_sizes=[16, 16], dueling_param=({"hidden_sizes": [8]}, {"hidden_sizes": [8]}))
        policy = DQNPolicy(model=net, optim=torch.optim.Adam(net.parameters(), lr=1e-2), action_space=space,
                           discount_factor=0.9, estimation_step=3, target_update_freq=2, is_double=double,
                           clip_loss_grad=huber)
        policy.set_eps(0.1)
        _update(f"dqn double={double} huber={huber}", policy, buffer, sample_size=16)
    seed(2)
    net = Net(4, 2, hidden_sizes=[16], num_atoms=11, softmax=True)
    policy = C51Policy(model=net, optim=torch.optim.Adam(net.parameters(), lr=1e-2), action_space=space,
                       num_atoms=11, v_min=-5.0, v_max=5.0, estimation_step=2, target_update_freq=2)
    _update("c51", policy, buffer, sample_size=16)
    seed(3)
    net = Net(4, 2, hidden_sizes=[16], num_atoms=8)
    policy = QRDQNPolicy(model=net, optim=torch.optim.Adam(net.parameters(), lr=1e-2), action_space=space,
                         num_quantiles=8, estimation_step=1, target_update_freq=0)
    _update("qrdqn", policy, buffer, sample_size=16)
    for dual, value_clip, recompute in ((None, False, False), (3.0, True, True)):
        seed(4)
        base = Net(4, hidden_sizes=[16])
        actor, critic = Actor(base, 2), Critic(base)
        optim = torch.optim.Adam(ActorCritic(actor, critic).parameters(), lr=1e-2)
        policy = PPOPolicy(actor=actor, critic=critic, optim=optim, dist_fn=torch.distributions.Categorical,
                           action_space=space, dual_clip=dual, value_clip=value_clip, recompute_advantage=recompute,
                           reward_normalization=recompute, max_grad_norm=0.5, ent_coef=0.01, gae_lambda=0.9,
                           action_scaling=False)
        _update(f"ppo dual={dual} value_clip={value_clip}", policy, buffer, times=2, sample_size=0, batch_size=32,
                repeat=2)
    seed(5)
    actor = Actor(Net(4, hidden_sizes=[16]), 2, softmax_output=False)
    critic1, critic2 = (Critic(Net(4, hidden_sizes=[16]), last_size=2) for _ in range(2))
    log_alpha = torch.zeros(1, requires_grad=True)
    policy = DiscreteSACPolicy(actor=actor, actor_optim=torch.optim.Adam(actor.parameters(), lr=1e-2),
                               critic=critic1, critic_optim=torch.optim.Adam(critic1.parameters(), lr=1e-2),
                               critic2=critic2, critic2_optim=torch.optim.Adam(critic2.parameters(), lr=1e-2),
                               action_space=space, alpha=(0.5, log_alpha, torch.optim.Adam([log_alpha], lr=1e-2)))
    _update("discrete sac", policy, buffer, sample_size=16)


def continuous_policies():
    """SAC (automatic entropy, deterministic evaluation), TD3 (target policy smoothing, delayed actor updates), DDPG
    with Ornstein-Uhlenbeck noise and A2C with a diagonal Gaussian, each updated on seeded Pendulum transitions; then
    their actions for the same observations with and without exploration noise."""
    import gymnasium as gym
    from tianshou.data import Batch
    from tianshou.exploration import OUNoise
    from tianshou.policy import A2CPolicy, DDPGPolicy, SACPolicy, TD3Policy
    from tianshou.utils.net.common import ActorCritic, Net
    from tianshou.utils.net.continuous import Actor, ActorProb, Critic

    seed()
    space = gym.make("Pendulum-v1").action_space
    buffer, _ = _collected("Pendulum-v1", 120, episode_steps=50)
    obs = Batch(obs=np.array([[1.0, 0.0, 0.5], [0.0, 1.0, -2.0]], dtype=np.float32), info={})

    def critic(seed_value):
        seed(seed_value)
        net = Critic(Net(3, 1, hidden_sizes=[16], concat=True))
        return net, torch.optim.Adam(net.parameters(), lr=1e-2)

    seed(6)
    actor = ActorProb(Net(3, hidden_sizes=[16]), 1, max_action=2.0, unbounded=True, conditioned_sigma=True)
    (c1, o1), (c2, o2) = critic(7), critic(8)
    log_alpha = torch.zeros(1, requires_grad=True)
    sac = SACPolicy(actor=actor, actor_optim=torch.optim.Adam(actor.parameters(), lr=1e-2), critic=c1,
                    critic_optim=o1, critic2=c2, critic2_optim=o2, action_space=space,
                    alpha=(-1.0, log_alpha, torch.optim.Adam([log_alpha], lr=1e-2)), estimation_step=2)
    _update("sac", sac, buffer, sample_size=16)
    seed(9)
    actor = Actor(Net(3, hidden_sizes=[16]), 1, max_action=2.0)
    (c1, o1), (c2, o2) = critic(10), critic(11)
    td3 = TD3Policy(actor=actor, actor_optim=torch.optim.Adam(actor.parameters(), lr=1e-2), critic=c1,
                    critic_optim=o1, critic2=c2, critic2_optim=o2, action_space=space, policy_noise=0.2,
                    update_actor_freq=2, noise_clip=0.5)
    _update("td3", td3, buffer, times=4, sample_size=16)
    seed(12)
    actor = Actor(Net(3, hidden_sizes=[16]), 1, max_action=2.0)
    c1, o1 = critic(13)
    ddpg = DDPGPolicy(actor=actor, actor_optim=torch.optim.Adam(actor.parameters(), lr=1e-2), critic=c1,
                      critic_optim=o1, action_space=space, exploration_noise=OUNoise(sigma=0.3), estimation_step=3)
    _update("ddpg", ddpg, buffer, sample_size=16)
    seed(14)
    actor = ActorProb(Net(3, hidden_sizes=[16]), 1, max_action=2.0)
    value = Critic(Net(3, hidden_sizes=[16]))

    def gaussian(loc_scale):
        loc, scale = loc_scale
        return torch.distributions.Independent(torch.distributions.Normal(loc, scale), 1)

    a2c = A2CPolicy(actor=actor, critic=value, optim=torch.optim.Adam(ActorCritic(actor, value).parameters(), lr=1e-2),
                    dist_fn=gaussian, action_space=space, max_grad_norm=1.0, ent_coef=0.01, reward_normalization=True)
    _update("a2c", a2c, buffer, times=2, sample_size=0, batch_size=32, repeat=1)
    for name, policy in (("sac", sac), ("td3", td3), ("ddpg", ddpg), ("a2c", a2c)):
        seed(15)
        policy.eval()
        act = policy(obs).act
        print(name, "act", _values(act), "mapped", _values(policy.map_action(act)),
              "noisy", _values(policy.exploration_noise(to_numpy(act), obs)))
        policy.train()


def to_numpy(x):
    return x.detach().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


def show_experiment(result):
    """A high-level ``Experiment.run()``'s result: its trainer's state (the release's ``run`` leaves the result's
    ``trainer_result`` None) and the trained policy."""
    trainer = result.world.trainer
    print(type(result).__name__, result.trainer_result, type(trainer).__name__)
    print("best_reward", trainer.best_reward, "best_reward_std", trainer.best_reward_std, "best_epoch",
          trainer.best_epoch, "env_step", trainer.env_step, "gradient_step", trainer._gradient_step)
    show_parameters(result.world.policy, 2)
