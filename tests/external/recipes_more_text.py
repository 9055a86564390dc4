"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

More text, sequence, tabular and optimisation scripts (2026-12-04): minimalRL's single-file reinforcement-learning
agents on ``corpus_gym``'s cart-pole and pendulum (our stand-in for ``gym``); karpathy's normalizing flows
(RealNVP, NICE, MAF, IAF, Glow, neural splines on two moons); ikostrikov's flows (its unit tests, and main.py on
two moons: known differences, MKL's last bits); the in-text examples of Rao and McMahan's NLP book; bentrevett's sentiment analysis (bag of words, LSTM, CNN) on
corpus_more_text's IMDB, torchtext and GloVe stand-ins, and its seq2seq notebooks (LSTM, GRU with context,
attention) on a generated Multi30k with spaCy and BLEU stand-ins; torch.func's gradients, Hessians, Gauss-Newton
and Fisher matrices on iris (fake_sklearn's); Jeff Heaton's course notebooks that need no download (complex-number
Mandelbrot, an LSTM classifier, layer inventories, a BatchNorm/dropout tabular net on make_classification);
Christian Versloot's loss-function article, one script per loss (FakeData, MNIST and Boston stand-ins), and his
regularisation, dropout, regression, K-fold, greedy layer-wise and BatchNorm articles; karpathy's MADE (its
autoregressive self-test and run.py on a seeded binarized MNIST); higgsfield's RL-Adventure DQN notebooks on the
old-API CartPole-v0.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

MINIMALRL = ("seungeunrho/minimalRL", "c8efed8481e3cd40e9739cfde220a55522555b57", "MIT")
GYM = ("import gym\n", "import corpus_gym as gym  # cart-pole and pendulum: a stand-in\n")
SEED = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")


def _rl(name, path, model, episodes, edits=()):
    """A minimalRL agent trained ``episodes`` episodes (a report every 20); its parameters' sums printed at the end."""
    sums = f"    print([round(p.sum().item(), 4) for p in {model}.parameters()])\n    env.close()"
    return _r(name, MINIMALRL, path, [GYM, SEED, ("range(10000)", f"range({episodes})"), *edits,
                                      ("    env.close()", sums)])


RANDOM_SEED = ("import random\n", "import random\nrandom.seed(0)\n")
PENDULUM_50 = ("count < 200", "count < 50")  # 50 pendulum steps an episode instead of 200
RECIPES += [
    _rl("mrl_reinforce", "REINFORCE.py", "pi", 41),
    _rl("mrl_dqn", "dqn.py", "q", 41, [RANDOM_SEED, ("memory.size()>2000", "memory.size()>500")]),
    _rl("mrl_ppo", "ppo.py", "model", 41),
    _rl("mrl_actor_critic", "actor_critic.py", "model", 41),
    _rl("mrl_acer", "acer.py", "model", 41, [RANDOM_SEED, ("memory.size()>500", "memory.size()>20")]),
    _rl("mrl_ppo_lstm", "ppo-lstm.py", "model", 21),
    _rl("mrl_vtrace", "vtrace.py", "model", 41),
    _rl("mrl_ddpg", "ddpg.py", "mu", 21, [RANDOM_SEED, PENDULUM_50, ("memory.size()>2000", "memory.size()>200")]),
    _rl("mrl_sac", "sac.py", "pi", 21, [PENDULUM_50, ("memory.size()>1000", "memory.size()>900")]),
    _rl("mrl_ppo_continuous", "ppo-continuous.py", "model", 21,
        [("count < 200", "count < 20"), ("buffer_size    = 10", "buffer_size    = 2"), ("minibatch_size = 32", "minibatch_size = 8")]),
]

# karpathy's normalizing flows notebook, once per flow family it offers (its cell keeps the others commented out)
NFLOWS = ("karpathy/pytorch-normalizing-flows", "b60e119b37be10ce2930ef9fa17e58686aaf2b3d", "none stated")
NFLIB = [(f"nflib/{f}.py", f"nflib/{f}.py") for f in ("__init__", "flows", "made", "nets", "spline_flows")]
NSF = ("nfs_flow = NSF_CL if True else NSF_AR\n"
       "flows = [nfs_flow(dim=2, K=8, B=3, hidden_dim=16) for _ in range(3)]\n"
       "convs = [Invertible1x1Conv(dim=2) for _ in flows]\n"
       "norms = [ActNorm(dim=2) for _ in flows]\n"
       "flows = list(itertools.chain(*zip(norms, convs, flows)))\n")
GLOW = ("# flows = [Invertible1x1Conv(dim=2) for i in range(3)]\n"
        "# norms = [ActNorm(dim=2) for _ in flows]\n"
        "# couplings = [AffineHalfFlow(dim=2, parity=i%2, nh=32) for i in range(len(flows))]\n"
        "# flows = list(itertools.chain(*zip(norms, flows, couplings)))")
TRAIN_51 = [("for k in range(1000):", "for k in range(51):"), ("if k % 100 == 0:", "if k % 10 == 0:"),
            ("zs = model.sample(128*8)\n", "zs = model.sample(128*8)\nprint(zs[-1].mean(0), zs[-1].std(0))\n"),
            ("zs, log_det = model.backward(xy)\n", "zs, log_det = model.backward(xy)\nprint(log_det[:4])\n"),
            ("import matplotlib.gridspec as gridspec", "from matplotlib import gridspec")]  # the stub's attribute
TRAIN_11 = [("for k in range(1000):", "for k in range(11):"), *TRAIN_51[1:]]  # the splines take longer a step


def _uncomment(text):
    return (text, "\n".join(line[2:] for line in text.split("\n")))


def _nflows(name, *chosen):
    """nflib1.ipynb trained 51 steps (a loss every 10) with the flows ``chosen`` uncommented instead of the splines;
    its samples' mean and spread and the grid's first log-determinants printed where they are plotted."""
    edits = [_uncomment(c) for c in chosen] + ([(NSF, "")] if chosen else [])
    return _r(name, NFLOWS, "nflib1.ipynb", [*edits, *TRAIN_51], support=NFLIB, keep_going=True)


RECIPES += [
    _r("nflows_nsf_coupling", NFLOWS, "nflib1.ipynb", TRAIN_11, support=NFLIB, keep_going=True),
    _r("nflows_nsf_autoregressive", NFLOWS, "nflib1.ipynb",
       [("NSF_CL if True else NSF_AR", "NSF_CL if False else NSF_AR"), *TRAIN_11], support=NFLIB, keep_going=True),
    _nflows("nflows_realnvp", "# flows = [AffineHalfFlow(dim=2, parity=i%2) for i in range(9)]"),
    _nflows("nflows_nice", "# flows = [AffineHalfFlow(dim=2, parity=i%2, scale=False) for i in range(4)]\n"
                           "# flows.append(AffineConstantFlow(dim=2, shift=False))"),
    _nflows("nflows_slowmaf", "# flows = [SlowMAF(dim=2, parity=i%2) for i in range(4)]"),
    _nflows("nflows_maf_actnorm", "# flows = [MAF(dim=2, parity=i%2) for i in range(4)]",
            "# norms = [ActNorm(dim=2) for _ in flows]\n# flows = list(itertools.chain(*zip(norms, flows)))"),
    _nflows("nflows_iaf", "# flows = [IAF(dim=2, parity=i%2) for i in range(3)]"),
    _nflows("nflows_glow", GLOW),
]

# ikostrikov's flows: its unit tests (inverse passes cancel), and main.py on two moons with each flow it builds
IKFLOWS = ("ikostrikov/pytorch-flows", "bf12ed91b86867b38d74982f5e2d44c248604df9", "MIT")
SCIPY_LU = ("import flows as fnn\n", "with __import__('corpus_more_text').scipy_lu():  # SciPy's LU: a stand-in\n"
                                    "    import flows as fnn\n")
RECIPES += [
    _r("ikflows_flow_test", IKFLOWS, "flow_test.py",
       [SCIPY_LU, ("    unittest.main()", "    for name in unittest.TestLoader().getTestCaseNames(TestFlow):\n"
                              "        print(name, TestFlow(name).run().wasSuccessful())")],
       support=[("flows.py", "flows.py")]),
]


IKFLOWS_ROUNDING = ("the last bits of nn.init.orthogonal_'s QR (MKL's LAPACK; core's is NumPy's OpenBLAS), of the "
                    "(100, 64) @ (64, 2) GEMMs (MKL's sgemm) and of MKL's vector exp and tanh, which on this CPU are "
                    "off the correctly rounded value core returns on ~1% of elements; 20 Adam steps at lr 1e-3 carry "
                    "them to the 4th digit of the printed samples")


def _ikflows(flow):
    args = ["--dataset", "MOONS", "--flow", flow, "--epochs", "2", "--lr", "0.001"]
    return _r(f"ikflows_moons_{flow.replace('-', '_')}", IKFLOWS, "main.py",
              [SCIPY_LU, ("from tensorboardX import SummaryWriter", "from torch.utils.tensorboard import SummaryWriter"),
               ("import datasets\n", "from corpus_more_text import flow_datasets as datasets  # 1250 moons\n"),
               ("args = parser.parse_args()", f"args = parser.parse_args({args!r})"),
               ("-val_loss / pbar.n))", "-val_loss / len(loader.dataset)))"),  # the stub progress bar counts nothing
               ("        utils.save_moons_plot(epoch, model, dataset)",
                "        utils.save_moons_plot(epoch, model, dataset)\n        print(model.sample(3).detach())")],
              support=[("flows.py", "flows.py"), ("utils.py", "utils.py")], xfail=IKFLOWS_ROUNDING)


RECIPES += [_ikflows(flow) for flow in ("maf", "realnvp", "glow")]

# Rao and McMahan's "Natural Language Processing with PyTorch": the chapters' in-text examples
NLPBOOK = ("joosthub/PyTorchNLPBook", "6169d3ec6f1fb57e70a078815170f0d2a7e330fe", "Apache-2.0")
RECIPES += [
    _r("nlpbook_ch1_pytorch_basics", NLPBOOK, "chapters/chapter_1/PyTorch_Basics.ipynb",
       [("describe(torch.Tensor(2, 3))", "describe(torch.zeros(2, 3))")]),  # uninitialised memory
    _r("nlpbook_ch3_in_text_examples", NLPBOOK, "chapters/chapter_3/Chapter-3-In-Text-Examples.ipynb"),
    _r("nlpbook_ch3_supervised_training", NLPBOOK,
       "chapters/chapter_3/Chapter-3-Diving-Deep-into-Supervised-Training.ipynb",
       [("batch_size = 1000\n", "batch_size = 250\n"),  # torch.tensor of a list of arrays is slow in torch
        ("    epoch += 1\n", "    print(epoch, loss_value, f'{change:.6f}')  # the plot's title\n    epoch += 1\n")]),
    _r("nlpbook_ch4_in_text_examples", NLPBOOK, "chapters/chapter_4/Chapter-4-In-Text-Examples.ipynb",
       [("intermediate2.mean(dim=(0, 2))", "intermediate2.mean(dim=(0, 2)).abs().max() < 1e-6")]),  # ~1e-8: rounding
    _r("nlpbook_ch8_packed_sequence", NLPBOOK, "chapters/chapter_8/8_PackedSequence_example.ipynb"),
]

# bentrevett's sentiment analysis (2024): IMDB through Hugging Face datasets and torchtext, both stand-ins here
SENTIMENT = ("bentrevett/pytorch-sentiment-analysis", "329f654b2cfaed22fee432569ebd7a2674584f79", "MIT")
SENTIMENT_DATA = [("import datasets\n", "from corpus_more_text import hf_datasets as datasets  # IMDB: a stand-in\n"),
                  ("import torchtext\n", "from corpus_more_text import torchtext  # tokenizer, vocab, GloVe: a stand-in\n"),
                  ("batch_size = 512", "batch_size = 64")]  # 375 training reviews: 6 batches an epoch
RECIPES += [
    _r("sentiment_1_nbow", SENTIMENT, "1 - Neural Bag of Words.ipynb",
       [*SENTIMENT_DATA, ("n_epochs = 10", "n_epochs = 3")]),
    _r("sentiment_2_lstm", SENTIMENT, "2 - Recurrent Neural Networks.ipynb",
       [*SENTIMENT_DATA, ("hidden_dim = 300", "hidden_dim = 32"), ("n_epochs = 10", "n_epochs = 1")]),
    _r("sentiment_3_cnn", SENTIMENT, "3 - Convolutional Neural Networks.ipynb",
       [*SENTIMENT_DATA, ("n_filters = 100", "n_filters = 32"), ("n_epochs = 10", "n_epochs = 1")]),
]

# bentrevett's seq2seq (2024): Multi30k through Hugging Face datasets, spaCy, torchtext and evaluate (stand-ins)
SEQ2SEQ = ("bentrevett/pytorch-seq2seq", "b3cd54c72cd6e4e63f672d334c795b4fe744ef92", "MIT")
SEQ2SEQ_DATA = [("import spacy\n", "from corpus_more_text import spacy  # tokenizers: a stand-in\n"),
                ("import datasets\n", "from corpus_more_text import hf_datasets as datasets  # Multi30k: a stand-in\n"),
                ("import torchtext\n", "from corpus_more_text import torchtext  # the vocabulary: a stand-in\n"),
                ("import evaluate\n", "from corpus_more_text import evaluate  # BLEU: a stand-in\n"),
                ("batch_size = 128", "batch_size = 64"), ("n_epochs = 10", "n_epochs = 2"),
                ("encoder_embedding_dim = 256", "encoder_embedding_dim = 32"),
                ("decoder_embedding_dim = 256", "decoder_embedding_dim = 32"),
                ("    max_output_length=25,", "    max_output_length=10,")]  # untrained: it would say "a a a ..."
RECIPES += [
    _r("seq2seq_1_lstm", SEQ2SEQ, "1 - Sequence to Sequence Learning with Neural Networks.ipynb",
       [*SEQ2SEQ_DATA, ("hidden_dim = 512", "hidden_dim = 64")]),
    _r("seq2seq_2_gru_context", SEQ2SEQ,
       "2 - Learning Phrase Representations using RNN Encoder-Decoder for Statistical Machine Translation.ipynb",
       [*SEQ2SEQ_DATA, ("hidden_dim = 512", "hidden_dim = 64")]),
    _r("seq2seq_3_attention", SEQ2SEQ, "3 - Neural Machine Translation by Jointly Learning to Align and Translate.ipynb",
       [*SEQ2SEQ_DATA, ("encoder_hidden_dim = 512", "encoder_hidden_dim = 64"),
        ("decoder_hidden_dim = 512", "decoder_hidden_dim = 64"),
        ("import matplotlib.ticker as ticker", "from matplotlib import ticker")]),  # the stub's attribute
]

# torch.func on iris (mokdtt/torch_func_simple_example): gradients, Hessians, the Gauss-Newton and Fisher matrices
TORCH_FUNC = ("mokdtt/torch_func_simple_example", "2b93b11ace9ffbdcac5183ad6f446f09f214de41", "none stated")
RECIPES += [
    _r("tfunc_1_gradient_hessian", TORCH_FUNC, "notebook1.ipynb", [("for epoch in range(100):", "for epoch in range(3):")]),
    _r("tfunc_2_ggn_fisher", TORCH_FUNC, "notebook2.ipynb",
       [("    for epoch in range(50):", "    for epoch in range(1):"),  # a Hessian and a GGN per sample:
        ("        for data, target in train_loader:\n            optimizer.zero_grad()\n",  # 10, not 120 samples
         "        for data, target in list(train_loader)[:10]:\n            optimizer.zero_grad()\n"),
        ("# plot\n", "print(matrix_norms)  # plotted\n")]),
]

# Jeff Heaton's Applications of Deep Neural Networks (the 2025 PyTorch edition): the notebooks without downloads
HEATON = ("jeffheaton/app_deep_learning", "c8d1e529bda98281b5889524d759ac80a0310665", "Apache-2.0")
RECIPES += [
    _r("heaton_02_1_numerical", HEATON, "t81_558_class_02_1_pytorch_numerical.ipynb",
       [("render_size = (640, 480)", "render_size = (64, 48)"), ("cycles = 200", "cycles = 50"),
        ("iter_np = iter_counts.cpu().numpy()  # shape: (H, W), float32\n",
         "iter_np = iter_counts.cpu().numpy()  # shape: (H, W), float32\n"
         "print(iter_np.sum(), (iter_np == 0).sum())  # the image's numbers\n")], keep_going=True),
    _r("heaton_06_2_lstm", HEATON, "t81_558_class_06_2_lstm.ipynb", [("for epoch in range(200):", "for epoch in range(100):")],
       keep_going=True),  # its sunspots need pandas and a download: those cells fail alike
    _r("heaton_07_1_model_structure", HEATON, "t81_558_class_07_1_model_structure.ipynb"),
    _r("heaton_07_2_learnable_layers", HEATON, "t81_558_class_07_2_learnable_layers.ipynb"),
    _r("heaton_07_3_transfer", HEATON, "t81_558_class_07_3_transfer.ipynb", keep_going=True),
    _r("heaton_07_4_normalization", HEATON, "t81_558_class_07_4_normalization.ipynb",
       [("from sklearn.datasets import make_classification",
         "from corpus_more_text import make_classification  # scikit-learn's recipe: a stand-in"),
        ("n_samples=2000,", "n_samples=500,"), ("num_epochs = 50", "num_epochs = 20")]),
    _r("heaton_07_5_shapes", HEATON, "t81_558_class_07_5_shapes.ipynb"),
]

# Christian Versloot's "How to use PyTorch loss functions": each section's script (one loss each)
VERSLOOT = ("christianversloot/machine-learning-articles", "9bc12f88ed056afeaebf2c4d7f4746f91a6b6714", "none stated")
LOSSES = "how-to-use-pytorch-loss-functions.md#"
ONE_EPOCH = ("range(0, 5)", "range(0, 1)")
FAKE_DATA = [("from torchvision.datasets import FakeData", "from corpus_more_text import FakeData  # a stand-in"),
             ("size=15000", "size=640"), ("num_workers = 4, pin_memory = True", "num_workers = 0"), ONE_EPOCH,
             ("if i % 10 == 0:", "if i % 3 == 0:")]  # 10 batches of 64
MNIST_DATA = [("from torchvision.datasets import MNIST", "from corpus_support import fake_mnist as MNIST  # a stand-in"),
              ("num_workers=1", "num_workers=0"), ONE_EPOCH, ("if i % 500 == 499:", "if i % 10 == 9:")]  # 30 batches
BOSTON_DATA = [("from torchvision.datasets import MNIST", "from corpus_support import fake_mnist as MNIST  # a stand-in"),
               ("from sklearn.datasets import load_boston", "from corpus_more_text import load_boston  # a stand-in"),
               ("num_workers=1", "num_workers=0"), ONE_EPOCH]  # 51 batches of 10
LOSS_SECTIONS = [
    ("bce", "Binary Cross-entropy loss, on Sigmoid (`nn.BCELoss`) example", FAKE_DATA),
    ("bce_logits", "Binary Cross-entropy loss, on logits (`nn.BCEWithLogitsLoss`)", FAKE_DATA),
    ("nll", "Negative log likelihood loss (`nn.NLLLoss`)", MNIST_DATA),
    ("cross_entropy", "Cross-entropy loss (`nn.CrossEntropyLoss`)", MNIST_DATA),
    ("poisson_nll", "Poisson Negative log likelihood loss (`nn.PoissonNLLLoss`)", MNIST_DATA),
    ("gaussian_nll", "Gaussian Negative log likelihood loss (`nn.GaussianNLLLoss`)", MNIST_DATA),
    ("hinge_embedding", "Hinge embedding loss (`nn.HingeEmbeddingLoss`)", FAKE_DATA),
    ("soft_margin", "Two-class soft margin loss (`nn.SoftMarginLoss`)", FAKE_DATA),
    ("multi_margin", "Multi-class margin loss (`nn.MultiMarginLoss`)", MNIST_DATA),
    ("multilabel_soft_margin", "Multilabel soft margin loss (`nn.MultiLabelSoftMarginLoss`)", MNIST_DATA),
    ("kl_div", "Kullback-Leibler Divergence (KL Divergence) loss (`nn.KLDivLoss`)", MNIST_DATA),
    ("l1", "Mean Absolute Error (MAE) / L1 Loss (`nn.L1Loss`)", BOSTON_DATA),
    ("mse", "Mean Squared Error (MSE) loss (`nn.MSELoss`)", BOSTON_DATA),
    ("smooth_l1", "Smooth MAE / L1 Loss (`nn.SmoothL1Loss`)", BOSTON_DATA),
    ("huber", "Huber loss (`nn.HuberLoss`)", BOSTON_DATA),
]
SIX_DIGITS = ("'Loss after mini-batch %5d: %.3f'", "'Loss after mini-batch %5d: %.6f'")  # the sums / 500: 0.004
RECIPES += [_r(f"versloot_loss_{name}", VERSLOOT, LOSSES + heading, [*edits, SIX_DIGITS])
            for name, heading, edits in LOSS_SECTIONS]

# more of Versloot's articles: L1/L2 regularisation (the elastic-net section has no imports), dropout, regression, K-fold CV, greedy layer-wise
# training and BatchNorm (MNIST and CIFAR-10 through corpus_support's stand-ins)
CIFAR_DATA = [("from torchvision.datasets import CIFAR10", "from corpus_support import fake_cifar10 as CIFAR10  # a stand-in"),
              ("num_workers=1", "num_workers=0")]
RECIPES += [
    _r("versloot_l1_regularization", VERSLOOT,
       "how-to-use-l1-l2-and-elastic-net-regularization-with-pytorch.md#Example of L1 Regularization with PyTorch",
       MNIST_DATA),
    _r("versloot_l2_regularization", VERSLOOT,
       "how-to-use-l1-l2-and-elastic-net-regularization-with-pytorch.md#Example of L2 Regularization with PyTorch",
       MNIST_DATA),
    _r("versloot_dropout", VERSLOOT, "using-dropout-with-pytorch.md#Using Dropout with PyTorch: full example",
       [*MNIST_DATA, SIX_DIGITS]),
    _r("versloot_regression_mlp", VERSLOOT,
       "how-to-create-a-neural-network-for-regression-with-pytorch.md#MLP for regression with PyTorch - full code example",
       [*BOSTON_DATA[1:], SIX_DIGITS]),
    _r("versloot_kfold", VERSLOOT, "how-to-use-k-fold-cross-validation-with-pytorch.md"
       "#Summary and code example: K-fold Cross Validation with PyTorch",
       [MNIST_DATA[0], ("from sklearn.model_selection import KFold", "from corpus_more_text import KFold  # a stand-in"),
        MNIST_DATA[3], ("k_folds = 5", "k_folds = 2"), SIX_DIGITS]),
    _r("versloot_greedy_layerwise", VERSLOOT, "greedy-layer-wise-training-of-deep-networks-a-pytorch-example.md"
       "#Full model code", [*CIFAR_DATA, ("from accelerate import Accelerator",
                            "from corpus_more_text import Accelerator  # one CPU process: a stand-in"),
                            ('"num_layers_to_add": 10', '"num_layers_to_add": 4'),
                            ("if i % 500 == 499:", "if i % 2 == 1:"), SIX_DIGITS]),  # two batches of 250 an epoch
    _r("versloot_batch_norm", VERSLOOT,
       "batch-normalization-with-pytorch.md#Full code example: Batch Normalization with PyTorch",
       [*CIFAR_DATA, ONE_EPOCH, ("if i % 500 == 499:", "if i % 10 == 9:"), SIX_DIGITS]),
]

# karpathy's MADE: its autoregressive self-test (made.py) and run.py on a seeded binarized MNIST
PYMADE = ("karpathy/pytorch-made", "81886ccc8270cdf3a2b32cbbca5c7feab422f907", "none stated")


def _made(name, args):
    return _r(name, PYMADE, "run.py",
              [("args = parser.parse_args()", f"args = parser.parse_args({args!r})"),
               ("    mnist = np.load(args.data_path)",
                "    __import__('corpus_more_text').binarized_mnist(args.data_path)  # a stand-in\n"
                "    mnist = np.load(args.data_path)"),
               ("xtr = torch.from_numpy(xtr).cuda()", "xtr = torch.from_numpy(xtr).cpu()"),
               ("xte = torch.from_numpy(xte).cuda()", "xte = torch.from_numpy(xte).cpu()"),
               ("model.cuda()", "model.cpu()"), ("for epoch in range(100):", "for epoch in range(3):"),
               ("step_size=45", "step_size=1")],  # the decay at epoch 45 of 100 comes at epoch 1 of 3
              support=[("made.py", "made.py")])


RECIPES += [
    _r("made_selftest", PYMADE, "made.py"),
    _made("made_run", ["-d", "binarized_mnist.npz", "-q", "100"]),
    _made("made_run_masks", ["-d", "binarized_mnist.npz", "-q", "64,64", "-n", "4", "-r", "1", "-s", "4"]),
]

# higgsfield's RL-Adventure (DQN and its extensions, 2018): the CartPole halves on corpus_gym's old-API CartPole-v0
# (their Pong halves need the Atari wrappers: those cells fail alike). 4 stops at a Python 2 ``zip(...)[0]``, 5-8 at
# common/replay_buffer's ``np.array(action, copy=False)``, which NumPy 2 refuses for a tensor or a number, in both
RLADV = ("higgsfield/RL-Adventure", "0f82b6922e8a1a8515fc4c84c28702e7caa226f1", "none stated")
RLADV_COMMON = [(f"common/{f}.py", f"common/{f}.py") for f in ("layers", "replay_buffer", "wrappers")]  # no __init__:
# its Python 2 ``import layers`` would fail; a namespace package serves ``from common.layers import ...``
RLADV_EDITS = [GYM, ("import math, random\n", "import math, random\nrandom.seed(0)\n"), SEED,
               ("losses.append(loss.data[0])", "losses.append(loss.item())"),  # torch 0.3's spelling of a 0-d value
               ("    plt.title('frame %s. reward: %s' % (frame_idx, np.mean(rewards[-10:])))",
                "    print('frame %s. reward: %s' % (frame_idx, np.mean(rewards[-10:])), losses[-1])\n"
                "    plt.title('frame %s. reward: %s' % (frame_idx, np.mean(rewards[-10:])))")]


def _rladv(name, path, frames="10000"):
    return _r(name, RLADV, path, [*RLADV_EDITS, (f"num_frames = {frames}\n", "num_frames = 400\n")],
              support=RLADV_COMMON, keep_going=True)


RECIPES += [
    _rladv("rladv_1_dqn", "1.dqn.ipynb"),
    _rladv("rladv_2_double_dqn", "2.double dqn.ipynb"),
    _rladv("rladv_3_dueling_dqn", "3.dueling dqn.ipynb"),
    _rladv("rladv_4_prioritized_dqn", "4.prioritized dqn.ipynb"),
    _rladv("rladv_5_noisy_dqn", "5.noisy dqn.ipynb"),
    _rladv("rladv_6_categorical_dqn", "6.categorical dqn.ipynb"),
    _rladv("rladv_7_rainbow_dqn", "7.rainbow dqn.ipynb", frames="15000"),
    _rladv("rladv_8_quantile_dqn", "8.quantile regression dqn.ipynb"),
    _r("rladv_9_hierarchical_dqn", RLADV, "9.hierarchical dqn.ipynb",
       [GYM, ("import random\n", "import random\nrandom.seed(0)\n"), SEED, ("num_frames = 100000\n", "num_frames = 400\n"),
        ("if frame_idx % 1000 == 0:", "if frame_idx % 100 == 0:"),
        ("            plt.title(frame_idx)\n",
         "            print(frame_idx, len(all_rewards), np.mean(all_rewards[-100:]))  # plotted\n"
         "            plt.title(frame_idx)\n")], keep_going=True),
]
