"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Course and tutorial material not yet covered (2026-12-07, corpus helper s32 COURSES), prefix ``c5_``:
- ``c5_fx_*``: pytorch/examples' ``fx`` folder (at the commit ``recipe_kit.EXAMPLES`` pins): custom tracers, inlining,
  inverting a function, a module-path tracer, primitive libraries, profiler ranges, graphs built from proxies,
  replacing ops, the subgraph rewriter and wrapping an output; each prints the code FX generates;
- ``c5_morvan_*``: the rest of Morvan Zhou's PyTorch-Tutorial (a CNN and an LSTM on MNIST, an autoencoder, a DQN on
  CartPole, a conditional GAN, the dynamic-graph RNN, the GPU lesson on the CPU);
- ``c5_udl_*``: Understanding Deep Learning's double-descent and full-batch notebooks and Bath's CM20315 practicals;
- ``c5_rladv2_*``, ``c5_pyrl_*``: higgsfield's RL-Adventure-2 and Ben Trevett's pytorch-rl policy-gradient notebooks
  on an old-API gym stand-in; ``c5_mlbook_ch19_cartpole``: Python Machine Learning's DQN;
- ``c5_pyic_*``: Ben Trevett's image-classification notebooks (MLP, LeNet on MNIST);
- ``c5_lucid_*``: six of lucidrains' single-file models driven by ``corpus_lucid_c5`` (four xfail: torch's
  convolution orders).
"""

from __future__ import annotations

from recipe_kit import EXAMPLES, MORVAN, _r

RECIPES: list[dict] = []

MNIST = ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
DSETS_MNIST = ("dsets.MNIST(", "__import__('corpus_support').fake_mnist(")


def _fx(name, edits=(), **kw):
    """pytorch/examples' ``fx/<name>.py``."""
    return _r(f"c5_fx_{name}", EXAMPLES, f"fx/{name}.py", edits, **kw)


RECIPES += [
    _fx("custom_tracer", [("default_traced.graph.print_tabular()", "print(default_traced.graph)"),  # tabulate is not
                          ("custom_traced_graph.print_tabular()", "print(custom_traced_graph)")]),  # installed
    _fx("inline_function", [("            m.graph.erase_node(node)\n",
                             "            m.graph.erase_node(node)\nm.recompile()\nprint(m.code)\n"
                             "print(m(torch.linspace(-2, 2, 5)))\n")]),
    _fx("invert"),
    _fx("module_tracer", [("rn18 = models.resnet18()", "rn18 = __import__('corpus_courses5').tiny_resnet()")]),
    _fx("primitive_library"),
    _fx("proxy_based_graph_creation", [("mod = GraphModule(torch.nn.Module(), graph)",
                                        "mod = GraphModule(torch.nn.Module(), graph)\nprint(mod.code)\n"
                                        "print(mod(torch.linspace(-1, 1, 3), torch.linspace(0, 2, 3)))")]),
    _fx("replace_op", [("traced.recompile()", "traced.recompile()\nprint(traced.code)\n"
                                              "print(traced(torch.tensor([3, 5]), torch.tensor([6, 3])))")]),
    _fx("subgraph_rewriter_basic_use", [("replace_pattern(traced, pattern, replacement)",
                                         "replace_pattern(traced, pattern, replacement)\nprint(traced.code)")]),
    _fx("wrap_output_dynamically", [("torch.testing.assert_close(new_output, torch.nn.LeakyReLU()(orig_output))",
                                     "torch.testing.assert_close(new_output, torch.nn.LeakyReLU()(orig_output))\n"
                                     "print(traced.code)\nprint(orig_output, new_output)")]),
]


def _morvan(name, path, edits=(), **kw):
    """Morvan Zhou's ``tutorial-contents/<path>.py``, seeded."""
    return _r(f"c5_morvan_{name}", MORVAN, f"tutorial-contents/{path}.py",
              [("import torch\n", "import torch\ntorch.manual_seed(1)\n"), *edits], **kw)


RECIPES += [
    _morvan("401_cnn", "401_CNN", [MNIST, MNIST, ("if HAS_SK:", "if False:  # t-SNE plots")]),
    _morvan("402_rnn_classifier", "402_RNN_classifier", [DSETS_MNIST, DSETS_MNIST, ("if step % 50 == 0:", "if step % 2 == 0:")]),
    _morvan("404_autoencoder", "404_autoencoder", [MNIST, ("EPOCH = 10", "EPOCH = 2"),
                                                   ("if step % 100 == 0:", "if step % 2 == 0:")]),
    # its D step updated D's weights in place before G_loss.backward() reached them (an error since PyTorch 1.5):
    # the G step's backward now runs first, as 406_GAN.py's own fix orders it
    _morvan("406_conditional_gan", "406_conditional_GAN",
            [("for step in range(10000):", "for step in range(30):"),
             ("    opt_D.step()\n\n    opt_G.zero_grad()\n    G_loss.backward()\n",
              "    opt_G.zero_grad()\n    G_loss.backward()\n    opt_D.step()\n"),
             ("    if step % 200 == 0:  # plotting", "    print(step, D_loss.item(), G_loss.item())\n"
                                                   "    if step % 200 == 0:  # plotting")]),
    _morvan("501_dynamic_graph", "501_why_torch_dynamic_graph",
            [("    optimizer.step()                        # apply gradients\n",
              "    optimizer.step()                        # apply gradients\n    print(loss.item())\n")]),
    _morvan("502_gpu", "502_GPU", [MNIST, MNIST, *[(".cuda()", "")] * 7]),  # on the CPU
    _morvan("405_dqn", "405_DQN_Reinforcement_learning",
            [("import gym\n", "import corpus_rl_more as gym  # the old gym API: a stand-in\n"),
             ("env = env.unwrapped\n", "env = env.unwrapped\nenv.x_threshold, env.theta_threshold_radians = "
                                       "env.env.x_limit, env.env.theta_limit  # CartPole's limits\n"),
             ("MEMORY_CAPACITY = 2000", "MEMORY_CAPACITY = 200"), ("for i_episode in range(400):",
                                                                  "for i_episode in range(25):")]),
]

# udlbook/udlbook: Understanding Deep Learning's notebooks that use PyTorch and are not in recipes_courses2, and the
# practicals of Simon Prince's CM20315 course at Bath (2022, 2023) that the book's repository holds, with their data
UDL = ("udlbook/udlbook", "a8fe82b5e155cb4f42415d2461ffa23224b1173b", "CC-BY-NC-ND-4.0")
MNIST1D = ("import mnist1d", "mnist1d = __import__('corpus_courses2').fake_mnist1d")
CM_DATA = [(f"CM20315/Data/{name}.npy", f"{name}.npy")
           for name in ("train_data_x", "train_data_y", "val_data_x", "val_data_y")]


def _udl(name, path, edits=(), **kw):
    """A notebook of the book or the course, run cell by cell."""
    return _r(f"c5_udl_{name}", UDL, path, edits, keep_going=True, **kw)


EPOCHS_50 = ("n_epoch = 50", "n_epoch = 2")
FULL_BATCH = [MNIST1D, *[("n_epoch=200000", "n_epoch=12")] * 3, ("n_epoch=500000", "n_epoch=12"),
              ('display("Epoch %d, errors_train %3.3f"', 'print("Epoch %d, errors_train %3.3f"'),  # IPython's display
              ("  return errors_train", "  print(loss.item())\n  return errors_train")]

RECIPES += [
    _udl("8_3_double_descent", "Notebooks/Chap08/8_3_Double_Descent.ipynb",
         [MNIST1D, ("hidden_variables = np.array([2,4,6,8,10,14,18,22,26,30,35,40,45,50,55,60,70,80,90,100,120,140,160,"
                    "180,200,250,300,400])", "hidden_variables = np.array([2,10,50])"), ("n_epoch = 1000", "n_epoch = 2")]),
    _udl("20_2_full_batch", "Notebooks/Chap20/20_2_Full_Batch_Gradient_Descent.ipynb", FULL_BATCH),
    _udl("cm_convolution_1", "CM20315/CM20315_Convolution_I.ipynb"),
    _udl("cm_convolution_3", "CM20315/CM20315_Convolution_III.ipynb", [MNIST, MNIST, ("n_epochs = 3", "n_epochs = 1")]),
    _udl("cm_coursework_1", "CM20315/CM20315_Coursework_I.ipynb", [EPOCHS_50], support=CM_DATA),
    _udl("cm23_coursework_2", "CM20315_2023/CM20315_Coursework_II.ipynb", [EPOCHS_50], support=CM_DATA),
]

# higgsfield/RL-Adventure-2 (policy-gradient notebooks, 2018, no licence stated): on corpus_courses5's old-API gym
# (corpus_rl_more's CartPole-v0 and Pendulum-v0) and its one-process stand-in for baselines' SubprocVecEnv; each plot
# prints its frame and rewards; frames cut to a few hundred. 8.gail reads the expert trajectories 3.ppo saves: left out
RLADV2 = ("higgsfield/RL-Adventure-2", "277966f7a7a852899a98e989f32b2732646c0704", "none stated")
RLADV2_EDITS = [("import gym\n", "gym = __import__('corpus_courses5').gym  # the old gym API: a stand-in\n")]
VEC_ENV = ("from common.multiprocessing_env import SubprocVecEnv",
           "from corpus_courses5 import DummyVecEnv as SubprocVecEnv  # one process")
PLOT_TITLE = "    plt.title('frame %s. reward: %s' % (frame_idx, rewards[-1]))"
PLOT = (PLOT_TITLE, f"    print('frame %s. reward: %s' % (frame_idx, rewards[-1]))\n{PLOT_TITLE}")


def _rladv2(name, path, edits=(), **kw):
    return _r(f"c5_rladv2_{name}", RLADV2, path, [*RLADV2_EDITS, *edits], keep_going=True, **kw)


RECIPES += [
    _rladv2("1_actor_critic", "1.actor-critic.ipynb",
            [VEC_ENV, PLOT, ("max_frames   = 20000", "max_frames   = 200"), ("if frame_idx % 1000 == 0:",
                                                                          "if frame_idx % 50 == 0:")]),
    _rladv2("2_gae", "2.gae.ipynb", [VEC_ENV, PLOT, ("max_frames   = 100000", "max_frames   = 100"),
                                     ("if frame_idx % 1000 == 0:", "if frame_idx % 50 == 0:")]),
    _rladv2("3_ppo", "3.ppo.ipynb", [VEC_ENV, PLOT, ("max_frames = 15000", "max_frames = 100"),
                                     ("if frame_idx % 1000 == 0:", "if frame_idx % 50 == 0:"),
                                     ("max_expert_num = 50000", "max_expert_num = 400")]),
    _rladv2("4_acer", "4.acer.ipynb", [PLOT, ("max_frames   = 10000", "max_frames   = 300")]),
    _rladv2("5_ddpg", "5.ddpg.ipynb", [PLOT, ("max_frames  = 12000", "max_frames  = 300"),
                                       ("frame_idx % max(1000, max_steps + 1) == 0", "frame_idx % 250 == 0")]),
    _rladv2("6_td3", "6.td3.ipynb", [PLOT, ("max_frames  = 10000", "max_frames  = 300"),
                                     ("if frame_idx % 1000 == 0:", "if frame_idx % 250 == 0:")]),
    _rladv2("7_soft_actor_critic", "7.soft actor-critic.ipynb",
            [PLOT, ("max_frames  = 40000", "max_frames  = 300"), ("max_frames  = 40000", "max_frames  = 300"),
             ("if frame_idx % 1000 == 0:", "if frame_idx % 250 == 0:")]),
    # torch 0.3's ``loss.data[0]`` (an IndexError on a 0-d tensor since 0.4) is ``loss.item()``
    _rladv2("9_her", "9.her.ipynb", [
        *[("max_frames = 200000", "max_frames = 600"), ("losses.append(loss.data[0])", "losses.append(loss.item())")] * 2,
        ("if frame_idx % 1000 == 0:", "if frame_idx % 100 == 0:"), ("if frame_idx % 10000 == 0:", "if frame_idx % 100 == 0:"),
        ("    plt.title('Mean Reward: %s. frame: %s' % (rewards[-1], frame_idx))",
         "    print('Mean Reward: %s. frame: %s' % (rewards[-1], frame_idx), losses[-1:])\n"
         "    plt.title('Mean Reward: %s. frame: %s' % (rewards[-1], frame_idx))")]),
]

# rasbt/machine-learning-book ch. 19 (the recipe_books pin): its DQN on CartPole, on corpus_rl_more's old-API
# CartPole-v0 (the script's gym 0.20 API; CartPole-v1 differs only in its 500-step limit), 200 → 8 episodes
MLBOOK = ("rasbt/machine-learning-book", "35ab3774e8e249c43a98209d8efd94c060102003", "MIT")
RECIPES += [
    _r("c5_mlbook_ch19_cartpole", MLBOOK, "ch19/cartpole/main.py",
       [("import gym\n", "import corpus_rl_more as gym  # the old gym API: a stand-in\n"),
        ("env = gym.make('CartPole-v1')", "env = gym.make('CartPole-v0')"), ("EPISODES = 200", "EPISODES = 8"),
        ("    plot_learning_history(total_rewards)", "    print(losses[-3:])\n    plot_learning_history(total_rewards)")]),
]

# bentrevett/pytorch-rl (2020, MIT): its CartPole notebooks on corpus_courses5's old-API gym (CartPole-v1 at v0's
# dynamics, 500 steps); 500 → 30 episodes (printed every 5, with the last losses), the multi-run comparisons 2 runs
# of 15 episodes, each episode's rewards and loss printed. Left out: its gym introduction and the LunarLander copies
# (Atari and Box2D environments), the n-step A2C (an empty notebook), dqn_working (gym's Monitor, tensorboard, argparse)
PYRL = ("bentrevett/pytorch-rl", "7f43f3df8042e687daaad728b07b7e35d4e27415", "MIT")
PYRL_GYM = ("import gym\n", "gym = __import__('corpus_courses5').gym  # the old gym API: a stand-in\n")


def _pyrl(name, path, losses="policy_loss, value_loss", **kw):
    """A numbered notebook: its training loop cut to 30 episodes, printing every 5 with ``losses``."""
    return _r(f"c5_pyrl_{name}", PYRL, f"{path}.ipynb",
              [PYRL_GYM, ("MAX_EPISODES = 500", "MAX_EPISODES = 30"), ("PRINT_EVERY = 10", "PRINT_EVERY = 5"),
               ("    if episode % PRINT_EVERY == 0:\n",
                f"    if episode % PRINT_EVERY == 0:\n        print({losses})\n")], keep_going=True, **kw)


def _pyrl_runs(name, path, episodes, runs, **kw):
    """A comparison notebook: ``runs`` runs of ``episodes`` (its own counts) cut to 2 of 15, each episode printed."""
    return _r(f"c5_pyrl_{name}", PYRL, f"{path}.ipynb",
              [PYRL_GYM, (runs, "n_runs = 2"), (episodes, episodes.split("=")[0] + "= 15"),
               ("        test_rewards[run][episode] = test_reward\n",
                "        test_rewards[run][episode] = test_reward\n"
                "        print(run, episode, loss, train_reward, test_reward)\n")], keep_going=True, **kw)


RECIPES += [
    _pyrl("1_reinforce", "1 - Vanilla Policy Gradient (REINFORCE) [CartPole]", "loss"),
    _pyrl("2_actor_critic", "2 - Actor Critic [CartPole]"),
    _pyrl("3_a2c", "3 - Advantage Actor Critic (A2C) [CartPole]"),
    _pyrl("4_gae", "4 - Generalized Advantage Estimation (GAE) [CartPole]"),
    _pyrl("5_ppo", "5 - Proximal Policy Optimization (PPO) [CartPole]"),
    _pyrl_runs("policy_gradient", "1_policy_gradient", "max_episodes = 300", "n_runs = 5"),
    _pyrl_runs("q_learning", "2_q_learning", "n_episodes = 500", "n_runs = 10"),
    _pyrl_runs("advantage_actor_critic", "3_advantage_actor_critic", "max_episodes = 300", "n_runs = 5"),
]

# bentrevett/pytorch-image-classification (2021, MIT): its MLP and LeNet notebooks on corpus_support's MNIST; its
# t-SNE/PCA and confusion-matrix cells need scikit-learn (not in the runner's fake_sklearn: their imports are
# dropped and those cells fail alike); 10/20 → 2 epochs, 50000 → 50 steps of imagine_digit's gradient ascent
PYIC = ("bentrevett/pytorch-image-classification", "33c9cfdb9097bc65b5800c1996f199f0ba520888", "MIT")
NO_TSNE = ("from sklearn import decomposition\nfrom sklearn import manifold\n", "")
TRANGE = "trange = lambda n, **kwargs: range(n)  # no bars"
IMAGINE = ("def imagine_digit(model, digit, device, n_iterations=50_000):",  # gradient ascent on an input image
           "def imagine_digit(model, digit, device, n_iterations=50):")
PYIC_DATA = [*[("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")] * 3]
RECIPES += [
    _r("c5_pyic_1_mlp", PYIC, "1_mlp.ipynb",
       [NO_TSNE, ("from tqdm.notebook import trange, tqdm", f"from tqdm.notebook import tqdm\n{TRANGE}"), *PYIC_DATA,
        ("EPOCHS = 10", "EPOCHS = 2"), IMAGINE], keep_going=True),
    _r("c5_pyic_2_lenet", PYIC, "2_lenet.ipynb",
       [NO_TSNE, ("from sklearn.metrics import confusion_matrix\nfrom sklearn.metrics import ConfusionMatrixDisplay\n", ""),
        ("from tqdm.notebook import tqdm, trange", f"from tqdm.notebook import tqdm\n{TRANGE}"), *PYIC_DATA,
        ("EPOCHS = 20", "EPOCHS = 2"), IMAGINE], keep_going=True),
]

# lucidrains' single-file models (MIT), each at its newest release tag (the repositories' heads): gMLP 0.1.5, ResMLP
# 0.0.6, Nyström attention 0.0.14, axial attention 0.6.1 (torch only), BottleStack 0.1.4 and Conformer 0.3.2, their
# package fetched beside the script with einops' (recipes_books5's pin); the package's __init__.py runs as the script
# with corpus_lucid_c5's driver appended: a tiny model's output and three Adam steps, every loss and gradient printed
EINOPS = ("arogozhnikov/einops", "ccb89f27599f26d7140a1bd2703305309fe3a3bd", "MIT")
EINOPS_PACKAGE = [(*EINOPS[:2], f"einops/{m}.py", f"einops/{m}.py") for m in (
    "__init__", "_backends", "_torch_specific", "einops", "packing", "parsing", "array_api",
    "layers/__init__", "layers/_einmix", "layers/torch")]


ZEN3 = "on the AMD EPYC Zen 3 (AVX2) of 2026-12-07, "
CONV = ZEN3 + ("torch's CPU convolution kernels (oneDNN, its depthwise paths) add in an order core's im2col "
               "products do not reproduce; the first differing op is ")

def _lucid(name, repo, commit, package, modules, last, xfail, einops=True):
    """``<package>/__init__.py`` beside its ``modules``, ``corpus_lucid_c5.<name>`` called on it after ``last``."""
    files = [(f"{package}/{m}.py", f"{package}/{m}.py") for m in ("__init__", *modules)]
    return _r(f"c5_lucid_{name}", (f"lucidrains/{repo}", commit, "MIT"), f"{package}/__init__.py",
              [(last, f"{last}\nimport {package}\n__import__('corpus_lucid_c5').{name}({package})\n")],
              support=[*(EINOPS_PACKAGE if einops else ()), *files], xfail=xfail)


RECIPES += [
    _lucid("gmlp", "g-mlp-pytorch", "970966c10c10770b2098b8f88c7d1f86efbf611b", "g_mlp_pytorch",
           ("g_mlp_pytorch", "autoregressive_wrapper"),
           "from g_mlp_pytorch.g_mlp_pytorch import gMLP, gMLPVision, gMLPBlock, SpatialGatingUnit", None),
    _lucid("resmlp", "res-mlp-pytorch", "562814a406cc418bdb4710aa3bdc569206ac171b", "res_mlp_pytorch",
           ("res_mlp_pytorch",), "from res_mlp_pytorch.res_mlp_pytorch import ResMLP", None),
    _lucid("nystrom", "nystrom-attention", "fbe9ebad6bae24143d7930d6c2b82d6a12d68f76", "nystrom_attention",
           ("nystrom_attention",), "Nystromer = Nystromformer",
           CONV + "the backward of res_conv, a depthwise Conv2d(4, 4, (33, 1), groups=4) on 2x4x56x8 (its input's "
           "gradient: 2153 of 3584 elements, last bit; the weight's: 126 of 132)"),
    _lucid("axial", "axial-attention", "eff2c10c2e76c735a70a6b995b571213adffbbb7", "axial_attention",
           ("axial_attention", "reversible"),
           "from axial_attention.axial_attention import AxialAttention, AxialPositionalEmbedding, "
           "AxialImageTransformer, SelfAttention",
           CONV + "the reversible transformer's feed-forward Conv2d(8, 32, 3, padding=1) on 2x8x6x6 (1929 of 2304 "
           "outputs, last bit)", einops=False),
    _lucid("botnet", "bottleneck-transformer-pytorch", "440fbdc6cc31cef318cc6c10a466c408138065fa",
           "bottleneck_transformer_pytorch", ("bottleneck_transformer_pytorch",),
           "from bottleneck_transformer_pytorch.bottleneck_transformer_pytorch import BottleStack, BottleBlock",
           CONV + "the shortcut's 3x3 stride-2 conv2d, 16 to 32 channels on 2x8x8 (900 of 1024 outputs)"),
    _lucid("conformer", "conformer", "fc70d518d3770788d17a5d9799e08d23ad19c525", "conformer", ("conformer",),
           "from conformer.conformer import ConformerConvModule, ConformerBlock, Conformer",
           CONV + "the backward of DepthWiseConv1d, a Conv1d(32, 32, 7, groups=32) on 2x32x26 (its input's "
           "gradient: 648 of 1664 elements, last bit; the weight's: 156 of 224; the bias': 23 of 32)"),
]

# their differences follow torch's convolution kernels (the reasons above): xfail, not strict (test_corpus'
# CPU_DEPENDENT), as the other CPU-dependent rows are
CPU_DEPENDENT: dict = {r["name"]: None for r in RECIPES if r["xfail"] and r["xfail"].startswith(ZEN3)}
