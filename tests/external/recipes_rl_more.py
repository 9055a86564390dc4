"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

More reinforcement-learning, probabilistic-model and optimisation-lesson scripts (2026-12-04): OpenAI Spinning Up's
PyTorch algorithms (VPG, PPO, DDPG, TD3, SAC with their ``core.py`` actor-critics, and the policy-gradient
lessons) on ``corpus_rl_more``'s old-API cart-pole and pendulum, its single-process logger and MPI helpers;
Fujimoto's TD3 repository (TD3, DDPG, OurDDPG); pranz24's soft actor-critic (Gaussian, automatic entropy tuning,
deterministic); GunhoChoi's FastCampus lessons on regularisation, dropout, initialisation, learning-rate decay,
normalisation, batch norm and gradient-descent variants; omerbsezer's Fast-Pytorch notebooks.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

SPINUP = ("openai/spinningup", "038665d62d569055401d91856abb287263096178", "MIT")
OLD_GYM = ("import gym\n", "import corpus_rl_more as gym  # the old gym API: a stand-in\n")
SPINUP_HELPERS = [("from spinup.utils.logx import EpochLogger", "from corpus_rl_more import EpochLogger"),
                  ("from spinup.utils.run_utils import setup_logger_kwargs",
                   "from corpus_rl_more import setup_logger_kwargs")]
SPINUP_MPI = [("from spinup.utils.mpi_pytorch import", "from corpus_rl_more import"),
              ("from spinup.utils.mpi_tools import", "from corpus_rl_more import"), ("train_v_iters=80", "train_v_iters=20")]
PI_ITERS = ("train_pi_iters=80", "train_pi_iters=20")
# VPG logs the KL before its step and PPO the policy loss before its updates: both are float32 noise (~1e-9 and
# ~1e-7, a batch-of-one forward against the batched one) whose sign follows the BLAS kernels' last bits
NO_VPG_KL = ("        logger.log_tabular('KL', average_only=True)\n", "")
NO_PPO_LOSS_PI = ("        logger.log_tabular('LossPi', average_only=True)\n", "")
OFF_POLICY_SHORT = [("steps_per_epoch=4000", "steps_per_epoch=120"), ("start_steps=10000", "start_steps=100"),
                    ("update_after=1000", "update_after=100"), ("update_every=50", "update_every=25"),
                    ("num_test_episodes=10", "num_test_episodes=2"),
                    ("max_ep_len=1000", "max_ep_len=100")]


def _spinup(name, algo, args, edits=()):
    """Spinning Up's ``algo.py`` run from its ``__main__`` on ``args``; its ``core.py`` imported as ``ac_core``
    (a module named ``core`` is this run's torch) with gym and scipy.signal stand-ins."""
    core = (f"import spinup.algos.pytorch.{algo}.core as core",
            "with __import__('corpus_rl_more').gym_and_scipy():  # core.py imports gym.spaces, scipy.signal\n"
            "    import ac_core as core")
    return _r(name, SPINUP, f"spinup/algos/pytorch/{algo}/{algo}.py",
              [OLD_GYM, core, *SPINUP_HELPERS, *edits, ("args = parser.parse_args()", f"args = parser.parse_args({args!r})")],
              support=[(f"spinup/algos/pytorch/{algo}/core.py", "ac_core.py")])


def _pg(name, path):
    return _r(name, SPINUP, f"spinup/examples/pytorch/pg_math/{path}",
              [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), OLD_GYM,
               ("from gym.spaces import Discrete, Box", "from corpus_rl_more import Discrete, Box"),
               ("epochs=50, batch_size=5000", "epochs=3, batch_size=300"),
               ("args = parser.parse_args()", "args = parser.parse_args([])")])


ON_POLICY = ["--hid", "32", "--cpu", "1", "--steps", "200", "--epochs", "2"]
OFF_POLICY = ["--env", "Pendulum-v0", "--hid", "32", "--epochs", "2"]
RECIPES += [
    _spinup("spinup_vpg_cartpole", "vpg", ["--env", "CartPole-v0", *ON_POLICY], [*SPINUP_MPI, NO_VPG_KL]),
    _spinup("spinup_vpg_pendulum", "vpg", ["--env", "Pendulum-v0", *ON_POLICY], [*SPINUP_MPI, NO_VPG_KL]),
    _spinup("spinup_ppo_cartpole", "ppo", ["--env", "CartPole-v0", *ON_POLICY], [*SPINUP_MPI, PI_ITERS, NO_PPO_LOSS_PI]),
    _spinup("spinup_ppo_pendulum", "ppo", ["--env", "Pendulum-v0", *ON_POLICY], [*SPINUP_MPI, PI_ITERS, NO_PPO_LOSS_PI]),
    _spinup("spinup_ddpg", "ddpg", OFF_POLICY, OFF_POLICY_SHORT),
    _spinup("spinup_td3", "td3", OFF_POLICY, OFF_POLICY_SHORT),
    _spinup("spinup_sac", "sac", OFF_POLICY, [("steps_per_epoch=4000", "steps_per_epoch=60"),
                                              ("start_steps=10000", "start_steps=40"), ("update_after=1000", "update_after=40"),
                                              ("update_every=50", "update_every=20"),
                                              ("num_test_episodes=10", "num_test_episodes=1"),
                                              ("max_ep_len=1000", "max_ep_len=50")]),
    _pg("spinup_simple_pg", "1_simple_pg.py"),
    _pg("spinup_rtg_pg", "2_rtg_pg.py"),
]

TD3 = ("sfujim/TD3", "34770ccdcb51df6f6c7d85c1ba7e40d71b940d16", "MIT")


def _td3(name, policy):
    args = ["--policy", policy, "--env", "Pendulum-v0", "--start_timesteps", "100", "--eval_freq", "80",
            "--max_timesteps", "160", "--batch_size", "64"]
    return _r(name, TD3, "main.py",
              [OLD_GYM, ("eval_episodes=10", "eval_episodes=1"), ("args = parser.parse_args()",
                                                                  f"args = parser.parse_args({args!r})"),
               ("\tprint(f\"Evaluation over", "\tprint([round(p.sum().item(), 4) for p in policy.actor.parameters()])\n"
                                             "\tprint(f\"Evaluation over")],
              support=[(f, f) for f in ("TD3.py", "DDPG.py", "OurDDPG.py", "utils.py")])


RECIPES += [_td3("td3_td3", "TD3"), _td3("td3_ddpg", "DDPG"), _td3("td3_our_ddpg", "OurDDPG")]

PRANZ_SAC = ("pranz24/pytorch-soft-actor-critic", "c1805660b3961694be54079a355155a5cad492f5", "MIT")


def _pranz(name, extra):
    args = ["--env-name", "Pendulum-v0", "--batch_size", "32", "--num_steps", "110", "--hidden_size", "32",
            "--start_steps", "100", *extra]
    return _r(name, PRANZ_SAC, "main.py",
              [OLD_GYM, ("args = parser.parse_args()", f"args = parser.parse_args({args!r})"),
               ("env = gym.make(args.env_name)", "env = gym.make(args.env_name, max_episode_steps=40)"),
               ("i_episode % 10 == 0", "i_episode % 2 == 0"), ("episodes = 10\n", "episodes = 1\n"),
               ("env.close()", "print([round(p.sum().item(), 4) for p in agent.policy.parameters()])\nenv.close()")],
              support=[(f, f) for f in ("sac.py", "model.py", "replay_memory.py", "utils.py")])


RECIPES += [
    _pranz("pranz_sac_gaussian", []),
    _pranz("pranz_sac_autotune", ["--automatic_entropy_tuning", "True"]),
    _pranz("pranz_sac_deterministic", ["--policy", "Deterministic"]),
]

FASTCAMPUS = ("GunhoChoi/PyTorch-FastCampus", "1e9ba63e9ccffa28637f9c441d6d5faf35696268", "none stated")
NO_VISDOM = ("from visdom import Visdom\nviz = Visdom()", "")
FC_MNIST = [('dset.MNIST("./", train=True', '__import__("corpus_support").fake_mnist("./", size=160, train=True'),
            ('dset.MNIST("./", train=False', '__import__("corpus_support").fake_mnist("./", size=64, train=False'),
            ("num_workers=2", "num_workers=0"), ("num_workers=2", "num_workers=0")]
SEED_TORCH = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")


def _fastcampus(name, path, edits=(), cuda=0, seed=SEED_TORCH, **kw):
    """A FastCampus notebook on CPU: its ``cuda`` calls ``.cuda()`` dropped."""
    return _r(name, FASTCAMPUS, path, [seed, *edits, *[(".cuda()", "")] * cuda], **kw)


PROB = "06_Prob&Solutions"
RECIPES += [
    _fastcampus("fastcampus_weight_regularization", f"{PROB}/0_Weight_Regularization.ipynb", [NO_VISDOM, *FC_MNIST], 5),
    _fastcampus("fastcampus_dropout", f"{PROB}/1_Dropout.ipynb", [NO_VISDOM, *FC_MNIST], 5),
    _fastcampus("fastcampus_data_augmentation", f"{PROB}/2_Data_Augmentation.ipynb",
                [("num_epoch = 2", "num_epoch = 1"), *FC_MNIST], 5),
    _fastcampus("fastcampus_weight_initialization", f"{PROB}/3_Weight_Initialization.ipynb", FC_MNIST),
    _fastcampus("fastcampus_learning_rate_decay", f"{PROB}/4_Learning_Rate_Decay.ipynb",
                [NO_VISDOM, ("num_epoch = 2", "num_epoch = 1"), *FC_MNIST], 5),
    _fastcampus("fastcampus_data_normalization", f"{PROB}/5_Data_Normalization.ipynb", [NO_VISDOM, *FC_MNIST], 5),
    _fastcampus("fastcampus_batch_normalization", f"{PROB}/6_Batch_Normalization.ipynb",
                [NO_VISDOM, ("nn.BatchNorm2d(100)", "nn.BatchNorm1d(100)"), *FC_MNIST], 5),
    _fastcampus("fastcampus_gradient_descent_variants", f"{PROB}/7_Gradient_Descent_Variants.ipynb",
                [NO_VISDOM, *FC_MNIST], 5),
]

VISDOM = ("from visdom import Visdom", "from corpus_rl_more import Visdom  # draws nothing")
ZERO_D = ("numpy()[0]", "numpy().item()")  # PyTorch 0.3's losses were 1-element vectors, now 0-d
REG = "02_Regression&NN"
RECIPES += [
    _fastcampus("fastcampus_variable_autograd", f"{REG}/0_Linear_code/0_Variable_Autograd.ipynb",
                [("torch.Tensor(3,4)", "torch.zeros(3,4)"), ("torch.FloatTensor(3,4),", "torch.ones(3,4),"),
                 ("loss = torch.FloatTensor(3,4)", "loss = torch.ones(3,4)")], keep_going=True),
    _fastcampus("fastcampus_linear_regression", f"{REG}/0_Linear_code/1_linear_regression.ipynb",
                [VISDOM, ("num_epoch = 1000", "num_epoch = 200"), ZERO_D], keep_going=True),
    _fastcampus("fastcampus_linear_nonlinear", f"{REG}/0_Linear_code/2_linear_nonlinear.ipynb",
                [VISDOM, ("num_epoch = 1000", "num_epoch = 200"), ZERO_D], keep_going=True),
    _fastcampus("fastcampus_neural_quadratic", f"{REG}/1_NN_code/1d_data/0_neural_quadratic.ipynb",
                [VISDOM, ("num_epoch = 5000", "num_epoch = 500"), ZERO_D], 3, keep_going=True),
    _fastcampus("fastcampus_neural_cubic", f"{REG}/1_NN_code/1d_data/1_neural_cubic.ipynb",
                [VISDOM, ("num_epoch = 5000", "num_epoch = 500"), ZERO_D], 3, keep_going=True),
    _fastcampus("fastcampus_neural_2d", f"{REG}/1_NN_code/2d_data/neural_2d.ipynb",
                [VISDOM, ("num_epoch=10000", "num_epoch=500"), ZERO_D], 3, keep_going=True),
    _fastcampus("fastcampus_spiral_multiclass", f"{REG}/1_NN_code/Spiral_Multiclass.ipynb",
                [("import numpy as np\n", "import numpy as np\nnp.random.seed(0)\n"),
                 ("num_epoch=10000", "num_epoch=500")], 3, keep_going=True),
    _fastcampus("fastcampus_custom_function", f"{REG}/Pytorch_Custom_Function.ipynb", keep_going=True),
]

FAST_PYTORCH = ("omerbsezer/Fast-Pytorch", "6f60db9470dad61a22b0e00ae952e21861cca427", "none stated")
NO_COLAB = ("from google.colab import auth\nauth.authenticate_user()\nfrom oauth2client.client import GoogleCredentials\n"
            "creds = GoogleCredentials.get_application_default()\nimport getpass\nvcode = getpass.getpass()", "")
NEXT = ("dataiter.next()", "next(dataiter)")
RECIPES += [
    _r("fastpy_playground", FAST_PYTORCH, "Learning_Pytorch/Pytorch_Playground.ipynb",
       [NO_COLAB, SEED_TORCH, ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("),
        ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("),
        ("num_workers=2", "num_workers=0"), ("num_workers=2", "num_workers=0"), NEXT, NEXT,
        ("if i % 2000 == 1999:", "if i % 25 == 24:"), ("running_loss / 2000", "running_loss / 25")]),
    _r("fastpy_mlp_binary_bce", FAST_PYTORCH, "Learning_Pytorch/MLP_1class_BinaryCrossEntropyLoss.ipynb",
       [NO_COLAB, SEED_TORCH, ("import pandas as pd", "import corpus_rl_more as pd  # read_csv of a small table"),
        ("'drive/Fast-Pytorch/Learning_Pytorch/datasets/diabetes.csv'", "'diabetes.csv'"),
        ("num_epochs =1000", "num_epochs =20"), ("num_epochs =1000", "num_epochs =20")],
       support=[("Learning_Pytorch/datasets/diabetes.csv", "diabetes.csv")]),
    _r("fastpy_mlp_2class_ce", FAST_PYTORCH, "Learning_Pytorch/MLP_2class_CrossEntropyLoss.ipynb",
       [SEED_TORCH, ("range(10000)", "range(1001)"),
        ("    plt.text(3,-1,'Accuracy={:.2f}'.format(accuracy), fontdict={'size':14})",
         "    print('Accuracy={:.2f}'.format(accuracy))")]),
    _r("fastpy_mlp_3layer_mnist", FAST_PYTORCH, "Learning_Pytorch/MLP_3layer_MNIST.ipynb",
       [SEED_TORCH, ("datasets.MNIST(", "__import__('corpus_support').fake_mnist("),
        ("datasets.MNIST(", "__import__('corpus_support').fake_mnist("), ("epochs=10", "epochs=2"),
        ("if(i+1)%100==0:", "if(i+1)%1==0:")]),
]

CNN = "03_CNN_Basics/0_MNIST"
SEED_TORCH_SPACE = ("import torch \n", "import torch \ntorch.manual_seed(0)\n")
RNN = "05_RNN"
FC_MNIST_FULL = [(old, new.replace("size=160, ", "").replace("size=64, ", "")) for old, new in FC_MNIST]
RECIPES += [
    _fastcampus("fastcampus_basic_modules", f"{CNN}/0_Basic_Modules.ipynb", FC_MNIST_FULL[:1]),
    _fastcampus("fastcampus_linear_mnist", f"{CNN}/1_Linear_mnist.ipynb", [("num_epoch = 10", "num_epoch = 1"), *FC_MNIST], 5),
    _fastcampus("fastcampus_cnn_swish", f"{CNN}/3_CNN_clean_swish.ipynb",
                [NO_VISDOM, ("batch_size = 256", "batch_size = 32"), ("num_epoch = 2", "num_epoch = 1"), *FC_MNIST], 5),
    _fastcampus("fastcampus_unbalanced_mnist", f"{CNN}/4_Unbalanced_MNIST.ipynb", [*FC_MNIST_FULL[:3]]),
    _fastcampus("fastcampus_simple_char_rnncell", f"{RNN}/0_Basic/Simple_Char_RNNcell.ipynb",
                [("epochs = 2000", "epochs = 30")], seed=SEED_TORCH_SPACE),
    _fastcampus("fastcampus_lstm_practice", f"{RNN}/1_LSTM/0_LSTM_Practice.ipynb"),
    _fastcampus("fastcampus_char_lstm", f"{RNN}/1_LSTM/1_Char_LSTM.ipynb", [("num_epochs = 1000", "num_epochs = 15")],
                seed=SEED_TORCH_SPACE),
    _fastcampus("fastcampus_embedding_practice", f"{RNN}/2_Char_RNN/0_Embedding_Practice.ipynb"),
]
FP_MNIST = [("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")] * 2
RECIPES += [
    _r("fastpy_cnn_mnist", FAST_PYTORCH, "Learning_Pytorch/CNN_Mnist.ipynb",
       [SEED_TORCH, *FP_MNIST, ("epochs=10", "epochs=2"), ("if(i+1)%100 ==0:", "if(i+1)%1 ==0:")], keep_going=True),
    _r("fastpy_improved_cnn_mnist", FAST_PYTORCH, "Learning_Pytorch/Improved_CNN_Mnist.ipynb",
       [SEED_TORCH, *FP_MNIST, ("num_epochs=25", "num_epochs=2")], keep_going=True),
]


def _char_rnn(name, path, data, cuda=0):
    return _fastcampus(name, f"{RNN}/2_Char_RNN/{path}",
                       [("import unidecode", "import corpus_rl_more as unidecode  # ASCII text: itself"),
                        ("num_epochs = 10000", "num_epochs = 2"), ("chunk_len = 200", "chunk_len = 40"),
                        ("    for i in range(200):", "    for i in range(60):"),
                        ("        y_ = label[j]", "        y_ = label[j].view(1)")], cuda,  # 0.3's x[j] was 1-element
                       support=[(f"{RNN}/2_Char_RNN/data/{data}", f"data/{data}")])


RECIPES += [
    _char_rnn("fastcampus_char_rnn_naive", "1_Char_RNN_Naive.ipynb", "shakespeare.txt", 3),
    _char_rnn("fastcampus_char_rnn_gru", "2_Char_RNN_GRU.ipynb", "linux.txt"),
    _char_rnn("fastcampus_char_rnn_lstm", "3_Char_RNN_LSTM.ipynb", "shakespeare.txt"),
]

SWEETICE = ("sweetice/Deep-reinforcement-learning-with-pytorch", "7b9fac7e5e40ffdc6f7ccb8b0a81e7841370a996", "MIT")
RECIPES += [
    _r("sweetice_reinforce", SWEETICE, "Char02 Policy Gradient/REINFORCE.py",
       [OLD_GYM, ("args = parser.parse_args()", "args = parser.parse_args([])"),
        ("for i_episode in count(1):", "for i_episode in range(1, 21):")]),
    _r("sweetice_dqn_cartpole", SWEETICE, "Char01 DQN/DQN_CartPole-v0.py",
       [OLD_GYM, ("from tensorboardX import SummaryWriter", "from corpus_support import SilentWriter as SummaryWriter"),
        ("num_episodes = 2000", "num_episodes = 31"), ("capacity = 8000", "capacity = 100")]),
    _r("sweetice_reinforce_baseline", SWEETICE, "Char02 Policy Gradient/REINFORCE_with_Baseline.py",
       [OLD_GYM, ("from tensorboardX import SummaryWriter", "from corpus_support import SilentWriter as SummaryWriter"),
        ("    for i_episode in range(1000):\n        loop_episode()\n        plot(live_time)",
         "    for i_episode in range(3):\n        loop_episode()\n        plot(live_time)\n        print(i_episode, live_time[-1])")]),
    _r("sweetice_actor_critic", SWEETICE, "Char03 Actor-Critic/AC_CartPole-v0.py",
       [("import gym, os\n", "import corpus_rl_more as gym  # the old gym API: a stand-in\nimport os\n"),
        ("for i_episode in count(episodes):", "for i_episode in range(episodes + 1, episodes + 21):"),
        ("        plot(live_time)\n", "        plot(live_time)\n        print(i_episode, t, round(running_reward, 4))\n")]),
    _r("sweetice_ppo_pendulum", SWEETICE, "Char07 PPO/PPO_pendulum.py",
       [OLD_GYM, ("args = parser.parse_args()", "args = parser.parse_args(['--log-interval', '1'])"),
        ("buffer_capacity, batch_size = 1000, 32", "buffer_capacity, batch_size = 200, 32"),
        ("for i_ep in range(1000):", "for i_ep in range(3):"),
        ("    plt.plot([r.ep", "    print([round(p.sum().item(), 4) for p in agent.anet.parameters()])\n    plt.plot([r.ep")]),
]
RESULTS = "drive/Fast-Pytorch/Learning_Pytorch/results/results-RNN-word-embeddings.txt"
RECIPES += [
    _r("fastpy_rnn_word_embeddings", FAST_PYTORCH, "Learning_Pytorch/RNN_word_embeddings.ipynb",
       [NO_COLAB, NO_COLAB, ("import torch\n", "import torch\ntorch.manual_seed(0)\n"),
        ("'drive/Fast-Pytorch/Learning_Pytorch/datasets/example_ebook.txt'", "'example_ebook.txt'"),
        ("embed_size =128", "embed_size =32"), ("hidden_size = 1024", "hidden_size = 64"),
        ("num_epochs= 20", "num_epochs= 1"), ("if step % 100 ==0:", "if step % 2 ==0:"),
        ("for i in range(0, rep_tensor.size(1)-timesteps, timesteps):", "for i in range(0, 6 * timesteps, timesteps):"),
        (f'open("{RESULTS}", "w")', 'open("results.txt", "w")'), ("for i in range(500):", "for i in range(30):"),
        ("if(i+1)%100==0:", "if(i+1)%10==0:")],
       support=[("Learning_Pytorch/datasets/example_ebook.txt", "example_ebook.txt")]),
]
