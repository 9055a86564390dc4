"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Short tutorial series beginners follow: Patrick Loeber's "PyTorch Tutorial" videos (``ploeber_``), Vahid Kazemi's
Effective PyTorch (``effpt_``) and Liao Xingyu's PyTorch beginner book code (``l1ao_``).
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

PLOEBER = ("patrickloeber/pytorchTutorial", "69637721ed9fa2ccf81a1093a928a52bbb591439", "MIT")
WINE = ("data/wine/wine.csv", "data/wine/wine.csv")
MNIST_TV = ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
CIFAR_TV = ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")
EMPTY = ("torch.empty(", "torch.zeros(")  # uninitialised memory prints differently in every run
RECIPES += [
    _r("ploeber_02_tensor_basics", PLOEBER, "02_tensor_basics.py", [EMPTY] * 5),
    _r("ploeber_03_autograd", PLOEBER, "03_autograd.py"),
    _r("ploeber_04_backpropagation", PLOEBER, "04_backpropagation.py"),
    _r("ploeber_05_1_gradientdescent_manually", PLOEBER, "05_1_gradientdescent_manually.py"),
    _r("ploeber_05_2_gradientdescent_auto", PLOEBER, "05_2_gradientdescent_auto.py"),
    _r("ploeber_06_1_loss_and_optimizer", PLOEBER, "06_1_loss_and_optimizer.py"),
    _r("ploeber_06_2_model_loss_and_optimizer", PLOEBER, "06_2_model_loss_and_ optimizer.py"),
    _r("ploeber_07_linear_regression", PLOEBER, "07_linear_regression.py"),
    _r("ploeber_08_logistic_regression", PLOEBER, "08_logistic_regression.py"),
    _r("ploeber_09_dataloader", PLOEBER, "09_dataloader.py", [("num_workers=2", "num_workers=0"), MNIST_TV],
       support=[WINE]),
    _r("ploeber_10_transformers", PLOEBER, "10_transformers.py", support=[WINE]),
    _r("ploeber_11_softmax_and_crossentropy", PLOEBER, "11_softmax_and_crossentropy.py"),
    _r("ploeber_12_activation_functions", PLOEBER, "12_activation_functions.py"),
    _r("ploeber_13_feedforward", PLOEBER, "13_feedforward.py",
       [MNIST_TV, MNIST_TV, ("if (i+1) % 100 == 0:", "if (i+1) % 1 == 0:")]),  # 3 steps of 100 stand-in images
    _r("ploeber_14_cnn", PLOEBER, "14_cnn.py",
       [("num_epochs = 5", "num_epochs = 1"), CIFAR_TV, CIFAR_TV, ("if (i+1) % 2000 == 0:", "if (i+1) % 25 == 0:")]),
    _r("ploeber_17_save_load", PLOEBER, "17_save_load.py",
       [("loaded_model = torch.load(FILE)", "loaded_model = torch.load(FILE, weights_only=False)")]),
]

# L1aoXingyu/pytorch-beginner: the code of a Chinese beginners' book (2017, updated since); many scripts keep
# PyTorch 0.3's spellings: ``loss.data[0]`` becomes ``loss.item()`` (an IndexError on a 0-dim tensor now), CUDA
# calls go (``.cuda()`` raises without CUDA), the datasets are corpus_support's stand-ins
L1AO = ("L1aoXingyu/pytorch-beginner", "a57dd7ea35c9965a41f4963dee62d38884f92a65", "none stated")
FASHION_DS = ("datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")
MNIST_DS = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
MNIST_BARE = ("dataset = MNIST(", "dataset = __import__('corpus_support').fake_mnist(")


def _item(n):
    """``n`` times ``x.data[0]`` → ``x.item()`` for the loss and accuracy names the scripts use."""
    return [(".data[0]", ".item()")] * n


def _no_cuda(n, text=".cuda()", without=""):
    return [(text, without)] * n


RECIPES += [
    _r("l1ao_00_basic", L1AO, "00-Pytorch Basics/basic.ipynb", [("torch.Tensor(5, 4)", "torch.zeros(5, 4)")],
       keep_going=True),  # its a.cuda() cell fails without CUDA
    _r("l1ao_01_linear_regression", L1AO, "01-Linear Regression/Linear_Regression.py"),
    _r("l1ao_02_logistic_regression", L1AO, "02-Logistic Regression/Logistic_Regression.py",
       [FASHION_DS, FASHION_DS, ("num_epochs = 100", "num_epochs = 2"), ("(time.time()-since)", "0")]),
    _r("l1ao_03_neural_network", L1AO, "03-Neural Network/neural_network.py",
       [FASHION_DS, FASHION_DS, ("num_epochs = 50", "num_epochs = 2")]),
    _r("l1ao_04_cnn", L1AO, "04-Convolutional Neural Network/convolution_network.py",
       [("from logger import Logger", "from unittest.mock import MagicMock as Logger"),  # TensorBoard via TensorFlow
        ("Logger('./logs')", "Logger()"),
        MNIST_DS, MNIST_DS, ("num_epoches = 20", "num_epoches = 1"), *_item(6)]),
    _r("l1ao_05_rnn", L1AO, "05-Recurrent Neural Network/recurrent_network.py",
       [MNIST_DS, MNIST_DS, ("num_epoches = 20", "num_epoches = 1"), *_item(4)]),
    _r("l1ao_06_ngram", L1AO, "06-Natural Language Process/N-Gram.py",
       [("for epoch in range(100):", "for epoch in range(3):"), *_item(1)]),  # 110 steps an epoch
    _r("l1ao_06_bag_of_word", L1AO, "06-Natural Language Process/bag-of-word.py",
       [("for epoch in range(100):", "for epoch in range(3):"), *_item(1)]),
    _r("l1ao_06_seq_lstm", L1AO, "06-Natural Language Process/seq-lstm.py",
       [("for epoch in range(300):", "for epoch in range(20):"), *_item(1)]),
    _r("l1ao_08_simple_autoencoder", L1AO, "08-AutoEncoder/simple_autoencoder.py",
       [MNIST_BARE, ("num_epochs = 100", "num_epochs = 2"), *_no_cuda(2), *_item(1)]),
    _r("l1ao_08_conv_autoencoder", L1AO, "08-AutoEncoder/conv_autoencoder.py",
       [MNIST_BARE, ("num_epochs = 100", "num_epochs = 2"), *_no_cuda(2)]),
    _r("l1ao_08_variational_autoencoder", L1AO, "08-AutoEncoder/Variational_autoencoder.py",
       [MNIST_BARE, ("num_epochs = 100", "num_epochs = 2"), *_item(2)]),
    _r("l1ao_09_simple_gan", L1AO, "09-Generative Adversarial network/simple_Gan.py",
       [MNIST_DS, ("num_epoch = 100", "num_epoch = 1"), ("Variable(img).cuda()", "Variable(img)"),
        *_no_cuda(4, ")).cuda()", "))"), ("if (i + 1) % 100 == 0:", "if (i + 1) % 1 == 0:"), *_item(2)]),
    _r("l1ao_09_conv_gan", L1AO, "09-Generative Adversarial network/conv_gan.py",
       [("mnist = datasets.MNIST(", "mnist = __import__('corpus_support').fake_mnist_small("),
        ("num_workers=4", "num_workers=0"), ("num_epoch = 100", "num_epoch = 1"), *_no_cuda(2),
        ("Variable(img).cuda()", "Variable(img)"), *_no_cuda(4, ")).cuda()", "))"),
        ("if (i+1) % 100 == 0:", "if (i+1) % 1 == 0:"), *_item(2)]),
    _r("l1ao_11_backward", L1AO, "11-backward/backward.py",
       [("print(out.data[0])", "print(out.item())"), *[("retain_variables=True", "retain_graph=True")] * 2]),
]

# vahidk/EffectivePyTorch: the README's chapters, each section's python blocks as one script (``README.md#Heading``);
# the blocks run on after one fails, as cells (``keep_going``): some are fragments (``z = x[begin:end]``)
EFFPT = ("vahidk/EffectivePyTorch", "36a0f8e7e5d0dd486fb5511daf16f2f0d9c56401", "none stated")
RECIPES += [
    _r("effpt_basics", EFFPT, "README.md#PyTorch basics", [("print(z.numpy())", "print(z)")],  # NumPy prints
       keep_going=True),  # a float32 matmul's every bit (its last bits differ between BLAS kernels and runs)
    _r("effpt_modules", EFFPT, "README.md#Encapsulate your model with Modules", keep_going=True),
    _r("effpt_broadcasting", EFFPT, "README.md#Broadcasting the good and the ugly", keep_going=True),
    _r("effpt_overloaded_operators", EFFPT, "README.md#Take advantage of the overloaded operators",
       [("(time.time() - start)", "0")], keep_going=True),  # a wall-clock time
    _r("effpt_torchscript", EFFPT, "README.md#Optimizing runtime with TorchScript", keep_going=True),
    _r("effpt_data_loaders", EFFPT, "README.md#Building efficient custom data loaders", keep_going=True),
    _r("effpt_numerical_stability", EFFPT, "README.md#Numerical stability in PyTorch", keep_going=True),
    _r("effpt_mixed_precision", EFFPT, "README.md#Faster training with mixed precision",
       [*[(".cuda()", ".cpu()")] * 8, ("grid(512, 512)", "grid(16, 16)"), ("checker(512, 512, 8)", "checker(16, 16, 8)"),
        *[("range(500)", "range(5)")] * 2, *[("print(time.time() - start_time)", "")] * 2], keep_going=True),
]

# patrickloeber/pytorch-examples: the same series' longer examples (its RNN videos and the autoencoder notebook)
PLOEBER_EX = ("patrickloeber/pytorch-examples", "500afab9676b676d8a975ca797f93d1137ca5e0c", "none stated")
NAMES = ["Arabic", "Chinese", "Czech", "Dutch", "English", "French", "German", "Greek", "Irish", "Italian", "Japanese",
         "Korean", "Polish", "Portuguese", "Russian", "Scottish", "Spanish", "Vietnamese"]
RECIPES += [
    _r("ploeber_rnn_lstm_gru", PLOEBER_EX, "rnn-lstm-gru/main.py",
       [MNIST_TV, MNIST_TV, ("num_epochs = 2", "num_epochs = 1"), ("if (i+1) % 100 == 0:", "if (i+1) % 1 == 0:")]),
    _r("ploeber_rnn_name_classification", PLOEBER_EX, "rnn-name-classification/rnn.py",
       [("plot_steps, print_steps = 1000, 5000", "plot_steps, print_steps = 100, 200"),
        ("n_iters = 100000", "n_iters = 1000"),
        ("while True:", "for sentence in ['Albert', 'Satoshi', 'quit']:  # typed at the prompt"),
        ('    sentence = input("Input:")\n', "")],
       support=[("rnn-name-classification/utils.py", "utils.py"),
                *[(f"rnn-name-classification/data/names/{n}.txt", f"data/names/{n}.txt") for n in NAMES]]),
    _r("ploeber_autoencoder", PLOEBER_EX, "Autoencoder.ipynb",
       [("datasets.MNIST(", "__import__('corpus_support').fake_mnist("), ("dataiter.next()", "next(dataiter)")]),
]

# patrickloeber/pytorch-chatbot: the intents chatbot's training (its tokenizer and stemmer are fake_nltk's)
CHATBOT = ("patrickloeber/pytorch-chatbot", "08dc94d0363175c79966646c3858b4caf40821f0", "MIT")
RECIPES += [
    _r("ploeber_chatbot_train", CHATBOT, "train.py", [("num_epochs = 1000", "num_epochs = 200")],
       support=[("nltk_utils.py", "nltk_utils.py"), ("model.py", "model.py"), ("intents.json", "intents.json")]),
]
RECIPES += [
    _r("l1ao_12_data_io", L1AO, "12-data io/example.ipynb",  # a custom Dataset and collate_fn over train.txt
       support=[("12-data io/custom_data_io.py", "custom_data_io.py"), ("12-data io/train.txt", "train.txt")]),
]
