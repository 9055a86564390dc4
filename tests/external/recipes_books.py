"""Textbook and model-zoo recipes: Raschka's Machine Learning with PyTorch and Scikit-Learn (its PyTorch chapters),
his deeplearning-models notebooks, and harvardnlp's Annotated Transformer (``recipe_kit`` says what a recipe holds).
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

# rasbt/machine-learning-book: chapters 12-18, as notebooks (they show each cell's value) where the mirror holds them
BOOK = ("rasbt/machine-learning-book", "35ab3774e8e249c43a98209d8efd94c060102003", "MIT")
NO_ENV_CHECK = ("from python_environment_check import check_packages",  # it reads the stubs' versions
                "check_packages = print  # the book's version check")
STOP = "raise SystemExit  # the rest needs the dataset's images\n"
MNIST = ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
MNIST_SMALL = ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist_small(")
CUDA = (".cuda()", ".cpu()")
HISTORY = ("history = train(model, num_epochs, train_dl, x_valid, y_valid)\n",  # plotted: print the last epoch's
           "history = train(model, num_epochs, train_dl, x_valid, y_valid)\nprint([float(h[-1]) for h in history])\n")


def _book(name, path, edits=(), **kw):
    return _r(name, BOOK, path, [NO_ENV_CHECK, *edits], **kw)


RECIPES += [
    _book("mlbook_ch12_part1", "ch12/ch12_part1.ipynb",
          [("celeba_dataset = torchvision.datasets.CelebA(", STOP + "celeba_dataset = torchvision.datasets.CelebA(")]),
    _book("mlbook_ch12_part2", "ch12/ch12_part2.ipynb",
          [("num_epochs = 100", "num_epochs = 30"),  # the Iris classifier; the regression's 200 stay
           ("model_new = torch.load(path)", "model_new = torch.load(path, weights_only=False)"),  # a whole Module
           ("from scipy.special import expit", "expit = lambda z: 1 / (1 + np.exp(-z))  # scipy is not installed")]),
    _book("mlbook_ch13_part1", "ch13/ch13_part1.ipynb",
          [("\n def compute_z", "\ndef compute_z"),  # the notebook's cell is an IndentationError; the .py has no space
           ("num_epochs = 200", "num_epochs = 10"), HISTORY, HISTORY, HISTORY, HISTORY]),
    _book("mlbook_ch14_part1", "ch14/ch14_part1.ipynb",
          [("import scipy.signal", "import numpy as np  # scipy is not installed"),
           ("scipy.signal.convolve2d(X, W, mode='same')", "conv2d(X, W, p=(1, 1))"),
           MNIST_SMALL, ("torch.arange(10000)", "torch.arange(8)"), ("torch.arange(10000, len(", "torch.arange(8, len("),
           MNIST, ('device = torch.device("cuda:0")', 'device = torch.device("cpu")'),
           ("num_epochs = 20", "num_epochs = 1"), ("torch.cuda.synchronize()", "")]),
    _book("mlbook_ch14_part2", "ch14/ch14_part2.ipynb",  # CelebA through corpus_images.fake_celeba: 64/32/32 faces
          [*[("torchvision.datasets.CelebA(", "__import__('corpus_images').fake_celeba(")] * 6,
           ("torch.arange(16000)", "torch.arange(64)"), ("torch.arange(1000)", "torch.arange(32)"),
           ('device = torch.device("cuda:0")', 'device = torch.device("cpu")'), ("num_epochs = 30", "num_epochs = 1")]),
    _book("mlbook_ch15_part1", "ch15/ch15_part1.ipynb"),
    _book("mlbook_ch15_part2", "ch15/ch15_part2.ipynb",  # IMDB through corpus_imdb: 500 training reviews
          [("from torchtext.datasets import IMDB", "from corpus_imdb import IMDB"),
           ("list(train_dataset), [20000, 5000])", "list(train_dataset), [400, 100])"),
           ("from torchtext.vocab import vocab", "from corpus_imdb import vocab"),
           ("from torchtext import __version__ as torchtext_version\nfrom pkg_resources import parse_version\n", ""),
           ('if parse_version(torchtext.__version__) > parse_version("0.10"):', "if True:  # torchtext 0.11+"),
           ("num_epochs = 10", "num_epochs = 1"), ("num_epochs = 10", "num_epochs = 1")]),
    _r("mlbook_ch16_part1_self_attention", BOOK, "ch16/ch16-part1-self-attention.py", [NO_ENV_CHECK]),
    _r("mlbook_ch18_part1", BOOK, "ch18/ch18_part1.py",
       [NO_ENV_CHECK, ("import networkx as nx", "import fake_networkx as nx  # networkx's adjacency_matrix needs scipy"),
        ("h = np.dot(X,W_1) + np.dot(np.dot(A, X), W_2)", "h = np.dot(X,W_1) + np.dot(np.dot(A, X), W_2)\nprint(h)"),
        ("\ntorch.all(torch.isclose(G1_single, G1_batch))",  # the notebook shows these
         "\nprint(batch_results, G1_single)\nprint(torch.all(torch.isclose(G1_single, G1_batch)))")]),
    _r("mlbook_ch17_part1", BOOK, "ch17/ch17_part1.py",
       [NO_ENV_CHECK, MNIST, ("num_epochs = 100", "num_epochs = 2"),
        ("selected_epochs = [1, 2, 4, 10, 50, 100]", "selected_epochs = [1, 2]"),
        ("batch_size=10000, ", "batch_size=100, "), CUDA, CUDA,  # the stand-in has 300 images
        ("\ncompute_score(torch.from_numpy(epoch_samples[-1]), real_image)",
         "\nprint(compute_score(torch.from_numpy(epoch_samples[-1]), real_image))")]),
    _book("mlbook_ch15_part3", "ch15/ch15_part3.ipynb",
          [("text = text[start_indx:end_indx]", "text = text[start_indx:end_indx][:5000]"),  # 1.1M characters
           ('device = torch.device("cuda:0")', 'device = torch.device("cpu")'), ("rnn_hidden_size = 512", "rnn_hidden_size = 64"),
           ("num_epochs = 10000", "num_epochs = 3"), ("len_generated_text=500", "len_generated_text=100")],
          support=[("ch15/1268-0.txt", "1268-0.txt")]),
    _book("mlbook_ch17_part2", "ch17/ch17_part2.ipynb",
          [MNIST_SMALL, ("batch_size = 64", "batch_size = 32"),  # one batch of 32: Adam on the WGAN critic's
           ("num_epochs = 100", "num_epochs = 1"), ("selected_epochs = [1, 2, 4, 10, 50, 100]", "selected_epochs = [1]"),
           ("num_epochs = 100", "num_epochs = 1"),  # near-zero gradients turns their float32 rounding into steps
           ("selected_epochs = [1, 2, 4, 10, 50, 100]", "selected_epochs = [1]")]),
]

# harvardnlp/annotated-transformer: the model, its masks and the copy task (Part 3's Multi30k translation needs spacy's
# models and the dataset: the script stops there)
ANNOTATED = ("harvardnlp/annotated-transformer", "debc9fd747bb2123160a98046ad1c2d4da44a567", "MIT")
RECIPES += [
    _r("annotated_transformer", ANNOTATED, "the_annotated_transformer.py",
       [("import altair as alt\n", "import matplotlib as alt  # the runner's plot stub: altair is not installed\n"),
        ("from torchtext.data.functional import to_map_style_dataset\n", ""),
        ("import torchtext.datasets as datasets\n", ""), ("import spacy\n", ""), ("import GPUtil\n", ""),
        ("            elapsed = time.time() - start\n", "            elapsed = 1  # a wall-clock time\n"),
        ("    y = pe.forward(torch.zeros(1, 100, 20))\n",  # the charts' numbers, printed
         "    y = pe.forward(torch.zeros(1, 100, 20))\n    print(y[0, ::25, 4:8])\n"),
        ("    crit(x=predict.log(), target=torch.LongTensor([2, 1, 0, 3, 3]))\n",
         "    print(crit(x=predict.log(), target=torch.LongTensor([2, 1, 0, 3, 3])), crit.true_dist)\n"),
        ("    loss_data = pd.DataFrame(\n", "    print([float(loss(x, crit)) for x in (1, 10, 50, 99)])\n"
                                          "    loss_data = pd.DataFrame(\n"),
        ("        for step in range(20000):", "        for step in range(200):"),  # 3 x 20000 scheduler steps
        ("    learning_rates = torch.tensor(learning_rates)\n",  # plotted: print the last step's rates
         "    learning_rates = torch.tensor(learning_rates)\n    print(learning_rates[:, -1])\n"),
        ("    for _ in range(10):\n        inference_test()", "    for _ in range(3):\n        inference_test()"),
        ("    for epoch in range(20):\n", "    for epoch in range(1):\n"), ("    batch_size = 80\n", "    batch_size = 16\n"),
        ("            data_gen(V, batch_size, 20),", "            data_gen(V, batch_size, 2),"),
        ("            data_gen(V, batch_size, 5),", "            data_gen(V, batch_size, 1),"),
        ("# execute_example(example_simple_model)", "execute_example(example_simple_model)"),
        ('# %% [markdown] id="OpuQv2GsTsqL"', "raise SystemExit  # Part 3 needs spacy and Multi30k\n")]),
]

# rasbt/deeplearning-models: small classic models, one notebook each (MNIST through corpus_support's stand-in)
ZOO = ("rasbt/deeplearning-models", "18e046926551378cd691fd871dda0f21dcd272ab", "MIT")
ZOO_MNIST = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
ZOO_TIME = ("time.time() - start_time", "0")  # printed wall-clock minutes
NO_SUMMARY = ("from torchsummary import summary", "raise SystemExit  # torchsummary is not installed")


def _zoo(path, epochs=None, mnist=2, timers=2, edits=(), **kw):
    """``pytorch_ipynb/<path>.ipynb`` with its MNIST downloads stood in, its timings printed as 0 and ``epochs``
    (the line that sets them) trained for one epoch."""
    shorter = [(epochs, epochs.rstrip("0123456789") + "1")] if epochs else []
    name = "zoo_" + path.split("/")[-1].replace("-", "_")
    return _r(name, ZOO, f"pytorch_ipynb/{path}.ipynb", [*[ZOO_MNIST] * mnist, *[ZOO_TIME] * timers, *shorter, *edits],
              **kw)


RECIPES += [
    _zoo("basic-ml/perceptron", mnist=0, timers=0,
         edits=[("'../data/perceptron_toydata.txt'", "'perceptron_toydata.txt'"),
                ("y.astype(np.int)", "y.astype(int)"),  # NumPy 2 removed np.int
                ("((1-cond) * x_2)", "((~cond) * x_2)")],  # torch 1.2+ refuses 1 - a bool tensor: the current spelling
         support=[("pytorch_ipynb/data/perceptron_toydata.txt", "perceptron_toydata.txt")]),
    _zoo("basic-ml/softmax-regression", "num_epochs = 10", timers=0),
    _zoo("mlp/mlp-basic", "num_epochs = 10"),
    _zoo("mlp/mlp-batchnorm", "num_epochs = 10"),
    _zoo("mlp/mlp-dropout", "num_epochs = 10"),
    _zoo("mlp/mlp-fromscratch__sigmoid-mse", "NUM_EPOCHS = 50", timers=0),
    _zoo("cnn/cnn-basic", "num_epochs = 10"),
    _zoo("cnn/cnn-he-init", "num_epochs = 10"),
    _zoo("cnn/cnn-allconv", "num_epochs = 15"),
    _zoo("cnn/cnn-standardized", "num_epochs = 10", mnist=3),
    _zoo("cnn/resnet-ex-1", "num_epochs = 10"),
    _zoo("cnn/fc-to-conv", mnist=0, timers=0),
    _zoo("autoencoder/ae-basic", "num_epochs = 5"),
    _zoo("autoencoder/ae-var", "num_epochs = 50"),
    _zoo("autoencoder/ae-deconv", "num_epochs = 10"),
    _zoo("autoencoder/ae-cvae", "num_epochs = 50"),
    _zoo("gan/gan", "NUM_EPOCHS = 100"),
    _zoo("mechanics/cnn-weight-sharing", "num_epochs = 10"),
    _zoo("mechanics/mlp-sequential", "num_epochs = 10"),
    _zoo("mechanics/dataloader-nesting", mnist=0, timers=0),
    _zoo("tricks/gradclipping_mlp", "num_epochs = 10", timers=6),
    _zoo("gan/wgan-1", "NUM_EPOCHS = 100"),
    _zoo("gan/gan-conv", "NUM_EPOCHS = 100", edits=[NO_SUMMARY]),
    _zoo("gan/gan-conv-smoothing", "NUM_EPOCHS = 100", edits=[NO_SUMMARY]),
    _zoo("gan/dc-wgan-1", "NUM_EPOCHS = 100", edits=[NO_SUMMARY]),
    _zoo("autoencoder/ae-conv-nneighbor", "num_epochs = 10"),
    _zoo("autoencoder/ae-deconv-nopool", "num_epochs = 10"),
    _zoo("autoencoder/ae-conv-var", "num_epochs = 50"),
    _zoo("autoencoder/ae-cnn-cvae", "num_epochs = 50"),
    _zoo("autoencoder/ae-deconv-jaccard", "num_epochs = 10"),
    _zoo("mechanics/validation-splits", mnist=6, timers=0,  # 300 stand-in images: 100 for validation
         edits=[("num_workers=4", "num_workers=0")] * 7 + [("torch.arange(1000, 60000)", "torch.arange(100, 300)"),
                ("torch.arange(0, 1000)", "torch.arange(0, 100)")] * 2),
    _zoo("rnn/char_rnn-charlesdickens", mnist=0, timers=0,  # the ML book's novel stands in for Dickens's
         edits=[("import unidecode\n", ""), ("textfile = unidecode.unidecode(textfile)",
                                              "textfile = textfile.encode('ascii', 'ignore').decode()  # no unidecode"),
                ("NUM_ITER = 20000", "NUM_ITER = 2"), ("(time.time() - start_time)/60", "0")],
         support=[(BOOK[0], BOOK[1], "ch15/1268-0.txt", "98-0.txt")]),
]
