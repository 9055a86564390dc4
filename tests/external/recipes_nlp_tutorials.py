"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Small NLP and classic-model tutorials (corpus helper A's list): Morvan Zhou's NLP-Tutorials in PyTorch (``mnlp_``:
word2vec, seq2seq, a CNN language model and a transformer on its generated date-translation data), Keon Kim's
"3-min PyTorch" book code (``keon3_``: tensors to seq2seq, Korean comments) and L1aoXingyu's
code-of-learn-deep-learning-with-pytorch notebooks (``l1aob_``). Each script is seeded and its training shortened.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

MNLP = ("MorvanZhou/NLP-Tutorials", "3aa02a13151b696e8c034da5f7bd2ef4294a5e5f", "MIT")
MNLP_SUPPORT = [("pytorch/utils.py", "utils.py"), ("pytorch/visual.py", "visual.py")]
MNLP_SEED = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")
MNLP_NO_PLOT = ("    show_w2v_word_embedding(", "    print(m.embeddings.weight.data[:4])  # show_w2v_word_embedding(")
# the date data: 4000 pairs are 125 batches an epoch; 160 are 5, each epoch printing its first batch
MNLP_W2V = [("for t in range(2500):", "for t in range(200):"), ("if t%200 == 0:", "if t%50 == 0:"), MNLP_NO_PLOT]
MNLP_DATES = [("utils.DateData(4000)", "utils.DateData(160)"), ("for i in range(100):", "for i in range(2):")]


def _mnlp(name, path, edits=(), support=MNLP_SUPPORT, **kw):
    return _r(f"mnlp_{name}", MNLP, f"pytorch/{path}", [MNLP_SEED, *edits], support=support, **kw)


# GPT, BERT and ELMo train on the MRPC paraphrase corpus, a download: corpus_nlp_tutorials' seeded sentence pairs
MNLP_MRPC = ("import utils\n", "import utils\nimport corpus_nlp_tutorials  # MRPC: a stand-in\n"
             "utils.maybe_download_mrpc, utils._process_mrpc = corpus_nlp_tutorials.no_download, "
             "corpus_nlp_tutorials.fake_mrpc\n")
MNLP_SMALL = [("MODEL_DIM = 256", "MODEL_DIM = 32"), ("N_LAYER = 4", "N_LAYER = 2")]

RECIPES += [
    _mnlp("cbow", "CBOW.py", MNLP_W2V),
    _mnlp("skip_gram", "skip_gram.py", MNLP_W2V),
    _mnlp("seq2seq", "seq2seq.py", MNLP_DATES),
    _mnlp("seq2seq_attention", "seq2seq_attention.py", MNLP_DATES),
    _mnlp("cnn_lm", "cnn_lm.py", MNLP_DATES),
    _mnlp("transformer", "transformer.py",
          [("utils.DateData(4000)", "utils.DateData(160)"), ("for i in range(100):", "for i in range(2):"),
           ("args = parser.parse_args()", "args = parser.parse_args(['--n_layer', '1'])")]),
    _mnlp("gpt", "GPT.py", [MNLP_MRPC, *MNLP_SMALL, ("for epoch in range(100):", "for epoch in range(2):")],
          support=[*MNLP_SUPPORT, ("pytorch/transformer.py", "transformer.py")]),
    _mnlp("bert", "BERT.py", [MNLP_MRPC, *MNLP_SMALL, ("for epoch in range(500):", "for epoch in range(2):")],
          support=[*MNLP_SUPPORT, ("pytorch/transformer.py", "transformer.py"), ("pytorch/GPT.py", "GPT.py")]),
    _mnlp("elmo", "ELMo.py", [MNLP_MRPC, ("UNITS = 256", "UNITS = 32"), ("for i in range(10):", "for i in range(2):"),
                              # NumPy prints the float32 embeddings to 8 digits, where GEMM rounding shows
                              ("    print(emb)", "    print([e.round(4) for e in emb])")]),
]

# keon/3-min-pytorch: the code of Keon Kim's Korean book "펭귄브로의 3분 딥러닝, 파이토치맛" (one script per notebook)
KEON = ("keon/3-min-pytorch", "a68ea4dcb73f6003b3e2b60244c35c67c85883ce", "MIT")
KEON_ANN = "03-파이토치로_구현하는_ANN"
KEON_DNN = "04-패션_아이템을_구분하는_DNN"
KEON_CNN = "05-이미지_처리능력이_탁월한_CNN"
KEON_AE = "06-사람의_지도_없이_학습하는_오토인코더"
KEON_RNN = "07-순차적인_데이터를_처리하는_RNN"
KEON_SEED = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")
KEON_FASHION = ("datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")
KEON_MNIST = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")


def _keon(name, folder, file, edits=(), **kw):
    return _r(f"keon3_{name}", KEON, f"{folder}/{file}", edits, **kw)


RECIPES += [
    _keon("tensor_basic", KEON_ANN, "tensor_basic.py"),
    _keon("tensor_operation", KEON_ANN, "tensor_operation.py", [KEON_SEED]),
    _keon("autograd_basic", KEON_ANN, "autograd_basic.py"),
    _keon("image_recovery", KEON_ANN, "image_recovery.py",
          [KEON_SEED, ("for i in range(0,20000):", "for i in range(0,100):"), ("if i % 1000 == 0:", "if i % 10 == 0:")],
          support=[(f"{KEON_ANN}/broken_image_t.p", "broken_image_t.p")]),
    _keon("basic_neural_network", KEON_ANN, "basic_neural_network.py",
          [KEON_SEED, ("epochs = 2000", "epochs = 150"), ("if epoch % 100 == 0:", "if epoch % 15 == 0:")]),
    _keon("fashion_mnist", KEON_DNN, "fashion_mnist.py", [KEON_FASHION, KEON_FASHION]),
    _keon("neural_network", KEON_DNN, "neural_network.py",
          [KEON_SEED, KEON_FASHION, KEON_FASHION, ("EPOCHS = 30", "EPOCHS = 2")]),
    _keon("overfitting_and_regularization", KEON_DNN, "overfitting_and_regularization.py",
          [KEON_SEED, KEON_FASHION, KEON_FASHION, ("EPOCHS = 50", "EPOCHS = 2")]),
    _keon("cnn", KEON_CNN, "cnn.py", [KEON_SEED, KEON_MNIST, KEON_MNIST, ("EPOCHS     = 40", "EPOCHS     = 1")]),
    _keon("resnet", KEON_CNN, "resnet.py",
          [KEON_SEED, *[("datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10_small(")] * 2,
           ("EPOCHS     = 300", "EPOCHS     = 1")]),
    _keon("basic_autoencoder", KEON_AE, "basic_autoencoder.py", [KEON_SEED, KEON_FASHION, ("EPOCH = 10", "EPOCH = 1"),
           ('encoded_data = encoded_data.to("cpu")', 'encoded_data = encoded_data.to("cpu")\nprint(encoded_data[:5])')]),
    _keon("denoising_autoencoder", KEON_AE, "denoising_autoencoder.py",
          [KEON_SEED, KEON_FASHION, KEON_FASHION, ("EPOCH = 10", "EPOCH = 1")]),
    _keon("gan", "09-경쟁하며_학습하는_GAN", "gan.py", [KEON_SEED, KEON_FASHION, ("EPOCHS = 500", "EPOCHS = 2")]),
    _keon("conditional_gan", "09-경쟁하며_학습하는_GAN", "conditional_gan.py",
          [KEON_SEED, KEON_FASHION, ("EPOCHS = 300", "EPOCHS = 1")]),
    _keon("cartpole_dqn", "10-주어진_환경과_상호작용하며_성장하는_DQN", "cartpole_dqn.py",
          [("import gym\n", "import corpus_gym as gym  # cart-pole: a stand-in\n"), KEON_SEED,
           ("EPISODES = 50 ", "EPISODES = 8 "), ("        env.render()\n", "")]),  # the stand-in draws nothing
    _keon("text_classification", KEON_RNN, "text_classification.py",
          [KEON_SEED, ("from torchtext import data, datasets",  # legacy torchtext's IMDB: a stand-in
                       "from corpus_nlp_tutorials import legacy_data as data, legacy_datasets as datasets"),
           ("EPOCHS = 10", "EPOCHS = 2"),
           ("BasicGRU(1, 256, vocab_size, 128, n_classes, 0.5)", "BasicGRU(1, 32, vocab_size, 32, n_classes, 0.5)")]),
    _keon("sequence_to_sequence", KEON_RNN, "sequence_to_sequence.py",
          [KEON_SEED, ("for i in range(1000):", "for i in range(30):"), ("if i % 100 == 0:", "if i % 5 == 0:")]),
]

# L1aoXingyu/code-of-learn-deep-learning-with-pytorch: the notebooks of Liao Xingyu's Chinese book 《深度学习入门之PyTorch》
# (2017-18, ``Variable`` and ``loss.data[0]`` of its time): run as Jupyter does, a cell's error printed and the next cell run
L1AOB = ("L1aoXingyu/code-of-learn-deep-learning-with-pytorch", "ea24810dc26265e85e3eec34e1d091d21202d800", "none stated")
L1AOB_TIME = ("'During Time: {:.3f} s'.format(during)", "'During Time: 0 s'")  # a wall-clock time
L1AOB_SEED = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")


def _items(n):
    """Each of the first ``n`` ``x.data[0]`` (a 0-dim or one-element tensor's value in 2017, an IndexError now) as
    ``x.item()``."""
    return [(".data[0]", ".item()")] * n


def _l1aob(name, path, edits=(), **kw):
    return _r(f"l1aob_{name}", L1AOB, path, edits, keep_going=True, **kw)


RECIPES += [
    _l1aob("tensor_and_variable", "chapter2_PyTorch-Basics/Tensor-and-Variable.ipynb"),
    _l1aob("autograd", "chapter2_PyTorch-Basics/autograd.ipynb"),
    _l1aob("linear_regression_gd", "chapter3_NN/linear-regression-gradient-descend.ipynb", _items(2)),
    _l1aob("logistic_regression", "chapter3_NN/logistic-regression/logistic-regression.ipynb",
           [L1AOB_TIME, L1AOB_TIME, *_items(10), *[("for e in range(1000):", "for e in range(200):"), ("% 200 == 0", "% 40 == 0")] * 2], support=[("chapter3_NN/logistic-regression/data.txt", "data.txt")]),
    _l1aob("nn_sequential_module", "chapter3_NN/nn-sequential-module.ipynb",
           [*_items(5), *[("for e in range(10000):", "for e in range(100):"), ("% 1000 == 0", "% 25 == 0")] * 3,
            ("for e in range(20000):", "for e in range(100):"), ("% 1000 == 0", "% 25 == 0")]),
    _l1aob("param_initialize", "chapter3_NN/param_initialize.ipynb", [L1AOB_SEED]),
    _l1aob("deep_nn", "chapter3_NN/deep-nn.ipynb",
           [("mnist.MNIST(", "__import__('corpus_support').fake_mnist(")] * 4 + [("for e in range(20):", "for e in range(2):")]),
    _l1aob("n_gram", "chapter5_RNN/nlp/n-gram.ipynb", [L1AOB_SEED, *_items(3), ("for e in range(100):", "for e in range(3):"), ("% 20 == 0", "% 1 == 0")]),
    _l1aob("seq_lstm", "chapter5_RNN/nlp/seq-lstm.ipynb", [L1AOB_SEED, *_items(1), ("for e in range(300):", "for e in range(20):"), ("% 50 == 0", "% 10 == 0")]),
    _l1aob("word_embedding", "chapter5_RNN/nlp/word-embedding.ipynb", [L1AOB_SEED]),
    _l1aob("pytorch_rnn", "chapter5_RNN/pytorch-rnn.ipynb", [L1AOB_SEED],
           xfail="float32 GEMM rounding: an RNNCell's 100-wide input GEMM (OpenBLAS's sums vs MKL's) puts an element "
                 "near 1e-4 one unit off in the 4th printed digit of its scientific notation (1.1130e-04 vs 1.1127e-04)"),
]

# the book's optimizer notebooks: SGD, momentum, Adagrad, RMSprop, Adadelta and Adam written by hand on MNIST, then
# torch.optim's; each training's wall-clock time printed as 0 s
L1AOB_MNIST = ("MNIST(", "__import__('corpus_support').fake_mnist(")
L1AOB_MNIST_RAW = ("MNIST(", "__import__('corpus_nlp_tutorials').fake_mnist_raw(")  # their transforms read the image
L1AOB_OPT_TIME = ("'使用时间: {:.5f} s'.format(end - start)", "'使用时间: 0 s'")
L1AOB_OPTIMIZERS = {"sgd": (4, 7), "momentum": (3, 6), "adagrad": (2, 3), "rmsprop": (3, 5), "adadelta": (2, 3),
                    "adam": (2, 3)}  # (timings, x.data[0]s)

# SGD's third run steps at lr 1.0, which turns GEMM rounding (1e-7 at a step) into 5e-5 in the loss by the third epoch:
# its five epochs (and the other runs') are two, the first run's (batches of 1: 300 steps an epoch) one
L1AOB_SGD_EPOCHS = [("for e in range(5):", "for e in range(1):")] + [("for e in range(5):", "for e in range(2):")] * 3

RECIPES += [
    _l1aob(f"optimizer_{name}", f"chapter3_NN/optimizer/{name}.ipynb",
           [L1AOB_SEED, L1AOB_MNIST_RAW, L1AOB_MNIST_RAW, *[L1AOB_OPT_TIME] * times, *_items(items),
            *(L1AOB_SGD_EPOCHS if name == "sgd" else [])])
    for name, (times, items) in L1AOB_OPTIMIZERS.items()
]
RECIPES += [
    _l1aob("autoencoder", "chapter6_GAN/autoencoder.ipynb",
           [L1AOB_SEED, L1AOB_MNIST, *_items(2), ("for e in range(100):", "for e in range(2):"),
            ("if (e+1) % 20 == 0:", "if (e+1) % 1 == 0:"), ("for e in range(40):", "for e in range(2):"),
            ("if (e+1) % 20 == 0:", "if (e+1) % 1 == 0:")]),
    _l1aob("vae", "chapter6_GAN/vae.ipynb",
           [L1AOB_SEED, L1AOB_MNIST, *_items(1), ("for e in range(100):", "for e in range(2):"),
            ("if (e + 1) % 20 == 0:", "if (e + 1) % 1 == 0:")]),
]

# hunkim/DeepLearningZeroToAll's PyTorch labs (2017, ``Variable`` and ``x.data[0]``; the lectures' TensorFlow labs
# ported): seeded as written; loops of 2001-10001 steps → 201-1001, MNIST → corpus_support's stand-in
HKDL = ("hunkim/DeepLearningZeroToAll", "60c707e02af7bd950401faeadcc6c0e1b39b2978", "none stated")
HKDL_MNIST = ("dsets.MNIST(", "__import__('corpus_support').fake_mnist(")


# NumPy prints a float32 array to its shortest round-trip digits, so one unit in the last place of a tiny Linear's
# GEMM shows: MKL's sgemm/sgemv for 3-8 inputs adds in an order that depends on the batch's row blocking (measured:
# no fixed order of products, bias and fused multiply-adds matches it for every batch size), NumPy's BLAS in another
HKDL_GEMM = "float32 GEMM rounding: NumPy prints the float32 predictions to all their digits and {} (MKL's small-sgemm "\
            "summation order, which depends on the batch's row blocking)"


def _hkdl(name, file, edits=(), **kw):
    return _r(f"hkdl_{name}", HKDL, f"pytorch/{file}", edits, **kw)


def _hkdl_mnist(name, file, epochs):
    return _hkdl(name, file, [HKDL_MNIST, HKDL_MNIST, ("training_epochs = 15", f"training_epochs = {epochs}"),
                              *_items(1 if file.startswith("lab-10") else 0)])


RECIPES += [
    _hkdl("02_linear_regression", "lab-02-1&2-linear_regression.py", [("range(2001)", "range(201)")]),
    _hkdl("04_2_multi_variable_linear_regression", "lab-04-2-multi_variable_linear_regression.py",
          [("range(2001)", "range(201)"), ("% 10 == 0", "% 50 == 0")],
          xfail=HKDL_GEMM.format("the first prediction of Linear(3, 1) is one unit off (-54.07891 vs -54.078915)")),
    _hkdl("04_3_file_input_linear_regression", "lab-04-3-file_input_linear_regression.py",
          [("range(2001)", "range(201)"), ("% 10 == 0", "% 50 == 0")],
          support=[("pytorch/data-01-test-score.csv", "data-01-test-score.csv")],
          xfail=HKDL_GEMM.format("the first prediction of Linear(3, 1) is one unit off (-54.07891 vs -54.078915)")),
    _hkdl("05_1_logistic_regression", "lab-05-1-logistic_regression.py", [("range(10001)", "range(1001)")]),
    _hkdl("05_2_logistic_regression_diabetes", "lab-05-2-logistic_regression_diabetes.py",
          [("range(10001)", "range(1001)")], support=[("pytorch/data-03-diabetes.csv", "data-03-diabetes.csv")],
          xfail=HKDL_GEMM.format("after 1000 steps of Linear(8, 1) one sigmoid is one unit off (0.64607257 vs "
                                 "0.6460726)")),
    _hkdl("06_1_softmax_classifier", "lab-06-1-softmax_classifier.py",
          [("range(2001)", "range(401)"), ("% 200 == 0", "% 100 == 0")]),
    _hkdl("06_2_softmax_zoo_classifier", "lab-06-2-softmax_zoo_classifier.py",
          [("range(2001)", "range(401)"), *_items(3)], support=[("pytorch/data-04-zoo.csv", "data-04-zoo.csv")]),
    _hkdl("09_1_xor", "lab-09-1-xor.py", [("range(10001)", "range(1001)")]),
    _hkdl("09_2_xor_nn", "lab-09-2-xor-nn.py", [("range(10001)", "range(1001)")]),
    _hkdl_mnist("10_1_mnist_softmax", "lab-10-1-mnist_softmax.py", 2),
    _hkdl_mnist("10_2_mnist_nn", "lab-10-2-mnist_nn.py", 2),
    _hkdl_mnist("10_3_mnist_nn_xavier", "lab-10-3-mnist_nn_xavier.py", 2),
    _hkdl_mnist("10_4_mnist_nn_deep", "lab-10-4-mnist_nn_deep.py", 2),
    _hkdl_mnist("10_5_mnist_nn_dropout", "lab-10-5-mnist_nn_dropout.py", 2),
    _hkdl_mnist("11_1_mnist_cnn", "lab-11-1-mnist_cnn.py", 1),
    _hkdl_mnist("11_2_mnist_deep_cnn", "lab-11-2-mnist_deep_cnn.py", 1),
    _hkdl_mnist("11_3_mnist_cnn_class", "lab-11-3-mnist_cnn_class.py", 1),
    _hkdl("12_1_hello_rnn", "lab-12-1-hello-rnn.py", _items(1)),
    _hkdl("12_2_char_seq_rnn", "lab-12-2-char-seq-rnn.py", _items(1)),
    _hkdl("12_4_rnn_long_char", "lab-12-4-rnn-long_char.py", [*_items(1), ("num_epochs = 500", "num_epochs = 30")]),
    _hkdl("12_5_stock_prediction", "lab-12-5-stock_prediction.py", [*_items(1), ("num_epochs = 500", "num_epochs = 50")],
          support=[("pytorch/data-02-stock_daily.csv", "data-02-stock_daily.csv")]),
]

# vinhkhuc/PyTorch-Mini-Tutorials: seven short scripts from tensors to an LSTM on MNIST rows, each seeded; their MNIST
# files come from corpus_nlp_tutorials.load_mnist (seeded noise); PyTorch still takes their reduction='elementwise_mean'
MINI = ("vinhkhuc/PyTorch-Mini-Tutorials", "bb967869a6ad2c3919b67b0623ce33e36349d413", "none stated")
MINI_MNIST = ("from data_util import load_mnist", "from corpus_nlp_tutorials import load_mnist  # MNIST: a stand-in")

RECIPES += [
    _r("mini_0_multiply", MINI, "0_multiply.py"),
    _r("mini_1_linear_regression", MINI, "1_linear_regression.py", [("for i in range(100):", "for i in range(20):")]),
    _r("mini_2_logistic_regression", MINI, "2_logistic_regression.py",
       [MINI_MNIST, ("for i in range(100):", "for i in range(3):")]),
    _r("mini_3_neural_net", MINI, "3_neural_net.py", [MINI_MNIST, ("for i in range(100):", "for i in range(3):")]),
    _r("mini_4_modern_neural_net", MINI, "4_modern_neural_net.py",
       [MINI_MNIST, ("for i in range(100):", "for i in range(3):")]),
    _r("mini_5_convolutional_net", MINI, "5_convolutional_net.py",
       [MINI_MNIST, ("for i in range(20):", "for i in range(2):")]),
    _r("mini_6_lstm", MINI, "6_lstm.py", [MINI_MNIST, ("epochs = 20", "epochs = 2")]),
]

# zhangxiann/PyTorch_Practice: the code of a Chinese PyTorch course (tensors, autograd, containers, losses,
# optimizers, hooks, normalisation, dropout). Its lessons switch their sections on with ``flag = True``/``flag = 1``:
# every section is switched on; plotted losses are printed, CPython ids compared instead; tensorboardX is torch's
# SummaryWriter; set_seed comes from the repository's common_tools.py. The regularisation lessons' 200-wide MLPs on
# 10 points drift from GEMM rounding (gradients 1e-8 apart at the first step, losses 5e-4 by step 60): 2000 steps →
# 60 (with weight decay, which drifts first: 30)
ZXP = ("zhangxiann/PyTorch_Practice", "59ceef57476206bf62673a8bcb05ce52f3769aaf", "GPL-3.0")
ZXP_TOOLS = [("common_tools.py", "common_tools.py")]
ZXP_WRITER = ("from tensorboardX import SummaryWriter", "from torch.utils.tensorboard import SummaryWriter")


def _zxp(name, path, flags=(0, 0), edits=(), **kw):
    """``flags``: how many ``flag = False`` and ``flag = 0`` lines the lesson has, each switched on."""
    on = [("\nflag = False", "\nflag = True")] * flags[0] + [("\nflag = 0", "\nflag = 1")] * flags[1]
    return _r(f"zxp_{name}", ZXP, path, [*on, *edits], support=ZXP_TOOLS, **kw)


RECIPES += [
    _zxp("tensor_introduce1", "lesson1/tensor_introduce1.py", (6, 0), edits=[
        ("print(id(t), id(out_t), id(t) == id(out_t))", "print(id(t) == id(out_t))")]),
    _zxp("tensor_introduce2", "lesson1/tensor_introduce2.py", (9, 0), edits=[
        ('print("t.data 内存地址:{}".format(id(t.data)))', 'print("t.data 内存地址:", t.data.data_ptr() == t.data_ptr())'),
        ('print("t_reshape.data 内存地址:{}".format(id(t_reshape.data)))',
         'print("t_reshape.data 内存地址:", t_reshape.data.data_ptr() == t.data_ptr())')]),
    _zxp("autograd", "lesson1/autograd.py", (6, 0), edits=[("print(id(a), a)", "print(a)")] * 4),
    _zxp("computational_graph", "lesson1/computational_graph.py"),
    _zxp("linear_regression", "lesson1/linear_regression.py", edits=[
        ("plt.text(2, 20, 'Loss=%.4f' % loss.data.numpy(), fontdict={'size': 20, 'color':  'red'})",
         "print('Loss=%.4f' % loss.data.numpy(), w.data.numpy(), b.data.numpy())")]),
    _zxp("logistic_regression", "lesson1/logistic-regression.py", edits=[
        ("plt.text(-5, 5, 'Loss=%.4f' % loss.data.numpy(), fontdict={'size': 20, 'color': 'red'})",
         "print('Loss=%.4f' % loss.data.numpy(), w0, w1, plot_b, acc)")]),
    _zxp("module_containers", "lesson3/module_containers.py",
         xfail="float32 convolution rounding: a Conv2d(10, 10, 3) output printed in scientific notation (its 5 digits) "
               "shows the summation order of the 90-term products (4.7479e-04 vs 4.7474e-04, 10 of 371 lines)"),
    _zxp("grad_vanish_explod", "lesson4/grad_vanish_explod.py", (0, 1)),
    _zxp("learning_rate", "lesson4/learning_rate.py", (0, 2)),
    _zxp("loss_function_1", "lesson4/loss_function_1.py", (0, 8)),
    _zxp("loss_function_2", "lesson4/loss_function_2.py", (0, 20)),
    _zxp("momentum", "lesson4/momentum.py", (0, 2)),
    _zxp("optimizer_methods", "lesson4/optimizer_methods.py", (0, 4), edits=[
        ("format(id(optimizer.param_groups[0]['params'][0]), id(weight))",
         "format(optimizer.param_groups[0]['params'][0] is weight, True)")]),
    _zxp("hook_methods", "lesson5/hook_methods.py", (0, 2)),
    _zxp("l2_regularization", "lesson6/L2_regularization.py", edits=[ZXP_WRITER,
        ("max_iter = 2000", "max_iter = 30"), ("disp_interval = 200", "disp_interval = 10"),
        ("plt.text(-0.25, -1.5, 'no weight decay loss={:.6f}'.format(loss_normal.item()), fontdict={'size': 15, "
         "'color': 'red'})", "print('no weight decay loss={:.6f}'.format(loss_normal.item()))"),
        ("plt.text(-0.25, -2, 'weight decay loss={:.6f}'.format(loss_wdecay.item()), fontdict={'size': 15, "
         "'color': 'red'})", "print('weight decay loss={:.6f}'.format(loss_wdecay.item()))")]),
    _zxp("bn_and_initialize", "lesson6/bn_and_initialize.py"),
    _zxp("bn_in_123_dim", "lesson6/bn_in_123_dim.py", (0, 2)),
    _zxp("dropout_layer", "lesson6/dropout_layer.py"),
    _zxp("dropout_regularization", "lesson6/dropout_regularization.py", edits=[ZXP_WRITER,
        ("max_iter = 2000", "max_iter = 60"), ("disp_interval = 400", "disp_interval = 20"),
        ("plt.text(-0.25, -1.5, 'd_prob_0 loss={:.8f}'.format(loss_normal.item()), fontdict={'size': 15, "
         "'color': 'red'})", "print('d_prob_0 loss={:.8f}'.format(loss_normal.item()))"),
        ("plt.text(-0.25, -2, 'd_prob_05 loss={:.6f}'.format(loss_wdecay.item()), fontdict={'size': 15, "
         "'color': 'red'})", "print('d_prob_05 loss={:.6f}'.format(loss_wdecay.item()))")]),
    _zxp("normalization_layers", "lesson6/normallization_layers.py", (0, 2)),
    _zxp("model_save", "lesson7/model_save.py"),
]

# lyeoni's MNIST VAE and conditional VAE notebooks (the authors of pytorch-mnist-GAN, another repository each): their
# training moves every batch to the GPU unconditionally, which the edits drop (the model's own .cuda() is guarded)
LYEONI_VAE = ("lyeoni/pytorch-mnist-VAE", "b6aaf1e1698789856ef624428939380bff6d0227", "none stated")
LYEONI_CVAE = ("lyeoni/pytorch-mnist-CVAE", "90075c34867eea08fd415435d123179bf09b1104", "none stated")
LYEONI_SEED = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")
LYEONI_MNIST = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")

RECIPES += [
    _r("lyeoni_mnist_vae", LYEONI_VAE, "pytorch-mnist-VAE.ipynb",
       [LYEONI_SEED, LYEONI_MNIST, LYEONI_MNIST, *[("data = data.cuda()", "data = data")] * 2,
        ("torch.randn(64, 2).cuda()", "torch.randn(64, 2)"), ("vae.decoder(z).cuda()", "vae.decoder(z)"),
        ("for epoch in range(1, 51):", "for epoch in range(1, 3):")]),
    _r("lyeoni_mnist_cvae", LYEONI_CVAE, "pytorch-mnist-CVAE.ipynb",
       [LYEONI_SEED, LYEONI_MNIST, LYEONI_MNIST,
        *[("data, cond = data.cuda(), one_hot(cond, cond_dim).cuda()", "data, cond = data, one_hot(cond, cond_dim)")] * 2,
        ("torch.randn(10, 2).cuda()", "torch.randn(10, 2)"), ("torch.eye(10).cuda()", "torch.eye(10)"),
        ("for epoch in range(1, 51):", "for epoch in range(1, 3):")]),
]
