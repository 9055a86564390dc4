"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Course and tutorial material not yet covered (2026-12-06, corpus helper s29 COURSES):
- ``dlw_*``: Ritchie Ng's Deep Learning Wizard (MIT) at its v1.0.3 release (2024-02-26): the PyTorch tutorial
  notebooks of its "Practical PyTorch", "Boosting Models" and "From Scratch" chapters (matrices, gradients,
  linear and logistic regression, feedforward, convolutional, recurrent and LSTM networks, an overcomplete
  autoencoder, optimizers, learning-rate schedules, weight initialisations and activations, overfitting,
  SGDR, forward and backward propagation by hand, logistic regression and a CNN from scratch), each notebook's code
  cells as one script. MNIST and Fashion-MNIST are ``corpus_support``'s seeded stand-ins (300 training and 100 test
  images), so each training run's ``n_iters`` is 30 (10 epochs of 3 batches) and it reports every 10 iterations;
- ``rbw_*``: Kaixhin's Rainbow (MIT) at its head of 2022-01-13: main.py trains its agent (noisy nets, dueling
  distributional heads, n-step double-Q with prioritised replay on a NumPy sum tree) with agent.py, model.py,
  memory.py, env.py and test.py beside it on ``corpus_courses3``'s stand-in ALE (``atari_py``, ``cv2`` and ``plotly``
  for the script only), at small sizes given on its command line, both architectures, saving its memory and a
  checkpoint, and in evaluation mode, and once at its 1.4 release (2019-06-17: its replay memory of Python
  transitions stacked with ``torch.stack``); ``corpus_courses3.show_rainbow`` prints the trained network at the end;
- ``gir_*``: girafe-ai's ml-course (MIT): its week 9 character-level RNN on the names list (100 Adam steps instead of
  1000, the loss printed where the notebook plots it, 10 of its 50 samples);
- ``blt_*``: Lightning-Universe's lightning-bolts (Apache-2.0) at its 0.7.0 release (2023-06-30): the modules that
  need no Lightning (U-Net, DCGAN, pix2pix, the ResNet autoencoder components, the RL networks, distributions and
  DQN losses, the self-supervised losses and encoders, SwAV, LARS and its schedules, the metrics), fetched under ``pl_bolts/`` without the package's ``__init__`` files and
  driven by ``corpus_courses3.bolts_*`` (``under_review`` stood in): outputs, gradients and a few Adam steps.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

# ritchieng/deep-learning-wizard (MIT) at its v1.0.3 release (2024-02-26).
DLW = ("ritchieng/deep-learning-wizard", "2abdef7aa1d15e6f940416ea3cccd97fd73e6ad3", "MIT")
_MNIST = ("dsets.MNIST(", "__import__('corpus_support').fake_mnist(")
_FASHION = ("dsets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")


def _dlw(name, path, edits=(), *, mnist=0, iters=(), every=0, **kw):
    """``docs/deep_learning/<path>.ipynb`` with its ``mnist`` data sets stood in, each ``n_iters = N`` of ``iters``
    set to 30 and its ``every`` reports at 500 iterations made every 10."""
    shorter = [(f"n_iters = {n}", "n_iters = 30") for n in iters]
    reports = [("iter % 500 == 0", "iter % 10 == 0")] * every
    return _r(name, DLW, f"docs/deep_learning/{path}.ipynb", [*[_MNIST] * mnist, *shorter, *reports, *edits], **kw)


RECIPES += [
    _dlw("dlw_matrices", "practical_pytorch/pytorch_matrices"),
    _dlw("dlw_gradients", "practical_pytorch/pytorch_gradients"),
    _dlw("dlw_linear_regression", "practical_pytorch/pytorch_linear_regression"),
    _dlw("dlw_logistic_regression", "practical_pytorch/pytorch_logistic_regression",
         mnist=6, iters=[3000] * 3, every=3),
    _dlw("dlw_feedforward", "practical_pytorch/pytorch_feedforward_neuralnetwork",
         mnist=12, iters=[3000] * 6, every=6),
    _dlw("dlw_cnn", "practical_pytorch/pytorch_convolutional_neuralnetwork", mnist=8, iters=[3000] * 4, every=4),
    _dlw("dlw_rnn", "practical_pytorch/pytorch_recurrent_neuralnetwork", mnist=8, iters=[3000] * 4, every=4),
    _dlw("dlw_lstm", "practical_pytorch/pytorch_lstm_neuralnetwork", mnist=8, iters=[3000] * 4, every=4),
    _dlw("dlw_overcomplete_ae", "practical_pytorch/pytorch_fc_overcomplete_ae",
         [_FASHION, _FASHION, ("idx % 500 == 0", "idx % 10 == 0")], iters=[5000]),
    _dlw("dlw_optimizers", "boosting_models_pytorch/optimizers", mnist=18, iters=[3000] * 9, every=9),
    _dlw("dlw_lr_scheduling", "boosting_models_pytorch/lr_scheduling", mnist=10, iters=[3000] * 3 + [6000] * 2,
         every=5),
    _dlw("dlw_weight_init_activations", "boosting_models_pytorch/weight_initialization_activation_functions",
         mnist=10, iters=[3000] * 5, every=5),
    _dlw("dlw_overfitting", "boosting_models_pytorch/(inc)_overfitting", mnist=15, iters=[3000] * 5 + [10000] * 2,
         every=1),
    _dlw("dlw_sgdr", "boosting_models_pytorch/(inc)_adv_lr_optimization"),
    _dlw("dlw_forward_backward_propagation",
         "boosting_models_pytorch/forwardpropagation_backpropagation_gradientdescent"),
    _dlw("dlw_fromscratch_logistic_regression", "fromscratch/fromscratch_logistic_regression"),
    _dlw("dlw_fromscratch_cnn", "fromscratch/fromscratch_cnn",  # MNIST from OpenML: 400 seeded noise images
         [("from sklearn.datasets import fetch_openml", "fetch_openml = __import__('corpus_courses3').fake_fetch_openml"),
          ("from sklearn.utils import check_random_state", "from numpy.random import RandomState as check_random_state"),
          ("train_samples = 60000", "train_samples = 300"), ("test_size=10000", "test_size=100"),
          ("pd.DataFrame(output.numpy()).to_string(index=False, header=False)", "output.tolist()")]),  # pandas: a stub
]

# Kaixhin/Rainbow (MIT) at its head of 2022-01-13 (after its 1.4 release of 2019, with the memory rewritten in NumPy).
RAINBOW = ("Kaixhin/Rainbow", "1745b184c3dfc03d4ffa3ce2342ced9996b39a60", "MIT")
_RAINBOW_FILES = [(f"{m}.py", f"{m}.py") for m in ("agent", "env", "memory", "model", "test")]


def _rainbow(name, args, edits=(), source=RAINBOW):
    """main.py on ``corpus_courses3``'s ALE stand-in with the command line ``args``, no timestamps and no progress
    bar, and the trained agent shown at the end (``corpus_courses3.show_rainbow``)."""
    trange = [("from tqdm import trange\n", "trange = range  # no progress bar\n")] if source is RAINBOW else []
    return _r(name, source, "main.py",
              [("import atari_py\n", "__import__('corpus_courses3').install_rainbow()\nimport atari_py\n"),
               *trange,
               ("args = parser.parse_args()", f"args = parser.parse_args({args!r})"),
               ("str(datetime.now().strftime('%Y-%m-%dT%H:%M:%S'))", "'time'"),  # a wall-clock time
               ("\nenv.close()\n", "\nenv.close()\n__import__('corpus_courses3').show_rainbow(dqn, mem, state)\n"),
               *edits], support=_RAINBOW_FILES)


# Its 1.4 release (2019-06-17): the replay memory of Python transitions stacked with torch.stack/cat.
RAINBOW_14 = ("Kaixhin/Rainbow", "8a34488c1cd597f193326e7b858fa768ee1ee3d9", "MIT")


_SMALL = ["--memory-capacity", "2000", "--evaluation-episodes", "2", "--evaluation-size", "40"]
RECIPES += [
    _rainbow("rbw_main_data_efficient",
             ["--architecture", "data-efficient", "--hidden-size", "64", "--T-max", "240", "--learn-start", "80",
              "--evaluation-interval", "120", "--target-update", "80", "--batch-size", "16", *_SMALL]),
    _rainbow("rbw_main_canonical",
             ["--hidden-size", "32", "--T-max", "120", "--learn-start", "72", "--evaluation-interval", "120",
              "--target-update", "96", "--batch-size", "8", "--memory", "memory.bz2", "--checkpoint-interval", "100",
              *_SMALL]),
    _rainbow("rbw_main_one_step_uniform",
             ["--architecture", "data-efficient", "--hidden-size", "32", "--T-max", "160", "--learn-start", "60",
              "--multi-step", "1", "--priority-exponent", "0", "--reward-clip", "0", "--atoms", "21",
              "--evaluation-interval", "80", "--target-update", "40", "--batch-size", "16", "--noisy-std", "0.5",
              *_SMALL]),
    _rainbow("rbw_evaluate", ["--architecture", "data-efficient", "--evaluate", *_SMALL]),
    _rainbow("rbw_v14_data_efficient",
             ["--architecture", "data-efficient", "--hidden-size", "64", "--T-max", "240", "--learn-start", "80",
              "--evaluation-interval", "120", "--target-update", "80", "--batch-size", "16", *_SMALL],
             source=RAINBOW_14),
]

# girafe-ai/ml-course (MIT) at its head of 2024-08-24.
GIRAFE = ("girafe-ai/ml-course", "b57d7c8df19b6166dbc173ee027f9fdd55cc8686", "MIT")
RECIPES += [
    _r("gir_seq2seq_rnn_names", GIRAFE, "week0_09_embeddings_and_seq2seq/week09_seq2seq_rnn_practice_solved.ipynb",
       [("for i in range(1000):", "for i in range(100):"),
        ("        clear_output(True)\n", "        print(i + 1, repr(history[-1].item()))\n"),  # its plot of the loss
        ("for _ in range(50):", "for _ in range(10):")],
       support=[("week0_09_embeddings_and_seq2seq/names", "names")]),
]

# Lightning-Universe/lightning-bolts (Apache-2.0) at its 0.7.0 release (2023-06-30): its pure-PyTorch components only.
BOLTS = ("Lightning-Universe/lightning-bolts", "9ae0581776ddfef4d9ccc2f3709499d00e22be2e", "Apache-2.0")
_BOLTS_LAST = '    "__version__",\n]\n'


def _bolts(name, modules, xfail=None):
    """``src/pl_bolts/__about__.py`` run as a script with ``corpus_courses3.bolts_<name>()`` appended, ``modules``
    beside it under ``pl_bolts/`` without the package's ``__init__`` files (which import Lightning): namespace
    packages, and ``under_review`` from ``corpus_courses3.install_bolts``."""
    files = [(f"src/pl_bolts/{m}.py", f"pl_bolts/{m}.py") for m in modules]
    return _r(f"blt_{name}", BOLTS, "src/pl_bolts/__about__.py",
              [(_BOLTS_LAST, _BOLTS_LAST + "\nc3 = __import__('corpus_courses3')\nc3.install_bolts()\n"
                f"c3.bolts_{name}()\n")], support=files, xfail=xfail)


_NETWORKS = ["models/rl/common/networks", "models/rl/common/distributions"]
RECIPES += [
    _bolts("unet", ["models/vision/unet"]),
    _bolts("dcgan", ["models/gans/dcgan/components"]),
    _bolts("pix2pix", ["models/gans/pix2pix/components"],
           xfail="float32 summation order: the discriminator's convolution biases feed batch norms, so their true "
                 "gradient is 0 and the float32 one is 1e-7 of rounding (its convolutions' backward), which Adam's "
                 "normalised step turns into updates of +-lr; in float64 core's printout equals torch's to 3e-15"),
    _bolts("autoencoders", ["models/autoencoders/components"],
           xfail="float32 summation order amplified by batch norm at batch 2: the gradients through 16 to 50 "
                 "BatchNorm2d layers drift by 1e-5 to 7e-4 (convolution backward and batch-norm reductions); in "
                 "float64 the first three configurations equal torch's to 1e-10, and the resnet50 encoder with "
                 "max pooling (1x1 maps, BatchNorm over 2 values, whose true input gradient is 0) differs even there"),
    _bolts("rl_networks", _NETWORKS),
    _bolts("rl_losses", ["losses/rl", *_NETWORKS]),
    _bolts("ssl_losses", ["losses/self_supervised_learning", "models/vision/pixel_cnn"]),
    _bolts("basic_gan", ["models/gans/basic/components"]),
    _bolts("pixel_cnn", ["models/vision/pixel_cnn"]),
    _bolts("optimizers", ["optimizers/lars", "optimizers/lr_scheduler", "models/self_supervised/evaluator"]),
    _bolts("metrics", ["metrics/aggregation", "utils/shaping"]),
    _bolts("ssl_encoders", ["models/self_supervised/cpc/networks", "models/self_supervised/resnets"]),
    _bolts("swav", ["models/self_supervised/swav/loss", "models/self_supervised/swav/swav_resnet"],
           xfail="float32 summation order amplified: the ResNet-18's embeddings differ from torch's by 1e-6 "
                 "(convolution sums), and one SGD step at lr 0.1 through batch norms over 4 crops and SwAV's "
                 "Sinkhorn targets (exp of scores / 0.05) moves the next loss by 5e-3; in float64 the printout "
                 "equals torch's to 5e-14"),
]
