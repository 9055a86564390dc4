"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Learner material not yet covered, second batch (2026-12-07, corpus helper s35 CORPUS), prefix ``l2_``:
- ``l2_jk_*``: jinkyukim-me's pytorch-tutorials (Korean, 2019): 모두를 위한 딥러닝 시즌 2's lessons retyped as
  small scripts: tensor basics (broadcasting, views, squeeze, concatenation, casting, in-place ops), gradient
  descent by hand and with ``torch.optim``, multivariable and logistic regression, mini-batches, XOR networks,
  MNIST softmax/MLP/dropout/Xavier/batch-norm classifiers and a hand-written backpropagation (on the seeded
  MNIST stand-in, fewer epochs);
- ``l2_liuer_*``: Xiao Zhanpeng's code for 刘二大人 (Liu Hongpu)'s Bilibili course 《PyTorch深度学习实践》 (2025): linear
  models, gradient descent and backpropagation by hand, ``nn.Linear`` regression with each optimizer, logistic
  regression, the diabetes classifier with ``Dataset``/``DataLoader``, softmax MNIST, basic CNNs, GoogLeNet's
  Inception and ResNet blocks, RNN cells, embeddings, LSTM and GRU on "hello" -> "ohlol" (the MNIST
  stand-in, fewer epochs; its Titanic and Otto scripts need pandas' CSV reader, and its DenseNet file does not parse: left out),
  and Li Zhuofan's code for the same course (2026: backpropagation, logistic regression, the diabetes classifier
  with and without ``Dataset``/``DataLoader``, ``RNNCell`` on one-hot "hello"), ``l2_liuer2_*``;
- ``l2_cn_demo_*``: Monster880's pytorch_py (Chinese, 2021): one small script per tensor topic (creation, attributes,
  broadcasting, comparison, concatenation, splitting, reshaping, selection and indexing, statistics, norms,
  trigonometry, clamping, random sampling, arithmetic; its model files print nothing: left out);
- ``l2_ja_*``: Japanese learners' notebooks: Yuji Okamoto's 2020 Introduction of PyTorch (tensor operators; fitting
  a line with Adam and by hand-written gradient steps) and kahiro213's PyTorch 学習ログ (tensor basics, 2025);
- ``l2_ja_tokitsu_*``: Tokitsu Kotaro's PytorchLesson (2023), its answer notebooks (tensors, autograd, tensor
  functions, a model's implementation and training on MNIST, here the stand-in, activations, losses and optimizers,
  torchvision's models), cell by cell; and ``l2_ja_ishii_*``: Ishii Yuto's tensor study scripts (2026: autograd by
  hand, a linear model's training loop);
- ``l2_es_*``: Spanish courses: Fernando Carazo's Curso de PyTorch y Redes Neuronales (2024: fundamentals, linear
  regression from scratch and with ``nn.Linear``, logistic regression on MNIST, here the stand-in);
- ``l2_es_bdf_*``: Francisco Rodríguez's Spanish notes on PyTorch (bigdatafran, 2023, after Deep Learning with
  PyTorch Step-by-Step): computing derivatives, optimizers and classification on moons (the sklearn stand-in's),
  cell by cell (its tensor-operations notebook prints ``id(points.storage()) == id(points_t.storage())``, an answer
  of CPython's allocator about two temporaries, True in torch's run and False in core's: left out);
- ``l2_ko_*``: Korean course notebooks: TEAMLAB's (Gachon University) PyTorch example codes (2025), Kim Kyunghyun's
  딥러닝 기초 정리 (tensors, autograd, a backpropagation check, a small network, 2025) and crosstar1228's study
  notebooks (tensor tutorials, ``torch.nn``'s modules and losses, autograd, 2022);
- ``l2_de_*``: Dennis Müller's German Python course (Hochschule Niederrhein, 2024), lesson 8: tensors, devices, a
  three-layer sigmoid network's forward and backward by hand, ``nn.Linear`` layers updated by hand and with SGD, an
  LSTM module;
- ``l2_fr_*``: François-David Collin's French course on deep learning for sequential data (Montpellier, 2020):
  gradient descent, SGD in theory and practice (with mini-batches and ``torch.optim``), a cheat sheet on the last
  layer's activations and losses, and RNN basics, cell by cell;
- ``l2_pt_*``: Roberto Lotufo's Portuguese notebooks for UNICAMP's neural-network course (rnap): matrices, arrays
  and tensors, variables and gradients, autograd exercises, activations and their derivatives, batch norm's
  basics, embeddings, a first CNN, linear and logistic regression on Iris (the sklearn stand-in's), a two-layer
  network, datasets and loaders, and MNIST's logistic regression and multi-layer exercise (the stand-in), cell by
  cell as Jupyter runs them (their CUDA, Colab and graphviz cells fail alike in both runs).
"""

from __future__ import annotations

from recipe_kit import NO_WORKERS, _r

RECIPES: list[dict] = []

JK = ("jinkyukim-me/pytorch-tutorials", "4746ef749683f8d5ed3eee2e33ab4cb7b2e7939c", "none stated")
JK_MNIST = [("dsets.MNIST(", "__import__('corpus_support').fake_mnist("),
            ("dsets.MNIST(", "__import__('corpus_support').fake_mnist("),
            ("training_epochs = 15", "training_epochs = 2")]
DIABETES = ("csv/data-03-diabetes.csv", "data-03-diabetes.csv")


def _jk(path, edits=(), **kw):
    """jinkyukim-me's ``<path>`` (a file at the repository's root)."""
    name = path.removesuffix(".py").lower().replace("-", "_").replace(".", "_").replace(" ", "_")
    return _r(f"l2_jk_{name}", JK, path, edits, **kw)


RECIPES += [_jk(p) for p in (
    "CNN_implementation.py", "GD.py", "GD_torch.optim.py", "Matrix Multiplication.py",
    "Max and Argmax.py", "Mean.py", "SGD.py", "Squeeze.py", "Sum.py",
    "Unsqueeze.py", "argmax.py", "concatenate.py", "in-place-operation.py", "logistic-regression.py",
    "minibatch.py", "numpy-pytorch-tutorial1.py", "ones-and-zeros.py", "pytorch-broadcasting.py", "stacking.py",
    "torch.exp.py", "type-casting.py", "view-reshape.py")]
XOR_SHORT = ("range(10001)", "range(2001)")  # 10,000 steps of a 4-sample XOR: 2,000 show the same descent
RECIPES += [
    # torch.Tensor(sizes) is uninitialised memory (its printout is whatever was there): seeded normal noise instead
    _jk("Convolution_output.py", [("inputs = torch.Tensor(", "inputs = torch.randn(")] * 5),
    _jk("Multivariable.py", [("nb_epochs = 20000", "nb_epochs = 2000")]),
    _jk("Multivariable.torch.py", [("nb_epochs = 20000", "nb_epochs = 2000")]),
    _jk("xor_nn.py", [XOR_SHORT]),
    _jk("xor_nn_wide_deep.py", [XOR_SHORT]),
    _jk("xor_ver_2.py", [XOR_SHORT]),
    _jk("xor_pytorch.py", [('device = torch.device("cuda:0")', 'device = torch.device("cpu")  # no GPU here'),
                           XOR_SHORT]),
    _jk("logistic-regression-higher-level.py",
        [("'C:\\dev\\pytorch-tutorials\\csv\\data-03-diabetes.csv'", "'data-03-diabetes.csv'")], support=[DIABETES]),
    _jk("mnist_softmax.py", JK_MNIST),
    _jk("mnist_nn.py", JK_MNIST),
    _jk("mnist_nn_dropout.py", JK_MNIST),
    _jk("mnist_nn_xavier.py", JK_MNIST),
    _jk("mnist_nn_xavier_deep.py", JK_MNIST),
    _jk("mnist_batchnorm.py", JK_MNIST),
    _jk("mnist_backpropagation.py", JK_MNIST[:2] + [("while not i == 10000:", "while not i == 1000:"),
                                                    ("if i == 10000:", "if i == 1000:")]),
]

LIUER = ("lockbro/LiuErDaRen-PracticeCode", "aefad3f8f9278e16811068375bdf32fb1f9dd3da", "MIT")
LIUER_DIABETES = ("data/diabetes.csv", "data/diabetes.csv")
LIUER_MNIST = [("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist("),
               ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist("),
               ("training_epochs = 10", "training_epochs = 2"),
               ("batch_idx % 300 == 299", "batch_idx % 2 == 1")]  # 300 batches: the stand-in has 5
LIUER_WORKERS = [("num_workers=3", "num_workers=0")] * 2  # no worker processes on a shared 2-core machine
LIUER_MNIST_SMALL = LIUER_WORKERS + [(old, new.replace("fake_mnist(", "fake_mnist_small(")) for old, new in LIUER_MNIST[:3]] + [
    ("batch_idx % 300 == 299", "batch_idx % 1 == 0")]  # deep CNNs are slow in core: 32 images, one batch


def _liuer(name, edits=(), **kw):
    """``LearningCode/<name>.py`` of lockbro's 刘二大人 course code."""
    tag = name.lower().replace("_sample", "_s").replace("_homework", "_hw").replace(" copy", "")
    tag = {"lecture9_mnist多分类": "lecture9_mnist"}.get(tag, tag)
    return _r(f"l2_liuer_{tag}", LIUER, f"LearningCode/{name}.py", edits, **kw)


RECIPES += [_liuer(n) for n in (
    "Lecture2_homework", "Lecture2_sample", "Lecture3_StochasticGD_sample", "Lecture3_gradientDescent_sample",
    "Lecture4_homework", "Lecture4_sample", "Lecture5_homework", "Lecture5_sample", "Lecture6_sample1 copy",
    "Lecture7_sample", "Lecture10_sample1", "Lecture10_sample2_padding", "Lecture10_sample3_stride",
    "Lecture10_sample4_MaxPoolingLayer", "Lecture12_sample1_BasicRNN", "Lecture12_sample2_BasicRNN",
    "Lecture12_sample3_BasicRNN", "Lecture12_sample4_BasicRNN_Embedding", "Lecture12_sample5_BasicRNN_LSTM",
    "Lecture12_sample6_BasicRNN_GRU")]
RECIPES += [
    _liuer("Lecture7_DiabetesSample", [("for epoch in range(1000):", "for epoch in range(300):")],
           support=[LIUER_DIABETES]),
    _liuer("Lecture8_sample", [("training_epochs = 200", "training_epochs = 3"), NO_WORKERS], support=[LIUER_DIABETES]),
    _liuer("Lecture8_MINIST", [("datasets.MNIST(", "__import__('corpus_support').fake_mnist("),
                               ("datasets.MNIST(", "__import__('corpus_support').fake_mnist("),
                               ("training_epochs = 200", "training_epochs = 2")]),
    _liuer("Lecture9_MNIST多分类", LIUER_MNIST),
    _liuer("Lecture10_sample5_CNN_MNIST", LIUER_MNIST),
    _liuer("Lecture10_sample5_CNN_MNIST_GPU", LIUER_MNIST),
    _liuer("Lecture10_homework_CNN_MNIST_GPU", LIUER_MNIST + LIUER_WORKERS),
    _liuer("Lecture11_sample1_GoogleNet", LIUER_MNIST_SMALL),
    _liuer("Lecture11_sample2_ResNet", LIUER_MNIST_SMALL),
    _liuer("Lecture11_sample3_ResNet_other", LIUER_MNIST_SMALL),
]

OKAMOTO = ("yuji0001/2020Introduction_of_Pytorch", "9394f2b9117ee494e1f30281b5e2c58c1a82903a", "Apache-2.0")
KAHIRO = ("kahiro213/pytorch-learning-log", "f2ad640a99bba89b87f3014920335d01ad0d34e1", "none stated")
RECIPES += [
    _r("l2_ja_okamoto_operator", OKAMOTO, "operator.ipynb"),
    _r("l2_ja_okamoto_optimization", OKAMOTO, "optimization.ipynb", [("epoch = 4000", "epoch = 1000")] * 2),
    # torch.empty's values are whatever the memory held: zeros instead (the printout shows them)
    _r("l2_ja_kahiro_tensor_basics", KAHIRO, "01_tensors_and_operations/tensor_basics.ipynb",
       [("a = torch.empty(2, 3)", "a = torch.zeros(2, 3)")]),
]

CARAZO = ("FernandoCarazoMelo/pytorch-deep-learning-es", "82b2a3d9bae893e601a0c1c63e73150cf886ddbc", "none stated")
RECIPES += [
    _r("l2_es_carazo_fundamentals", CARAZO, "docs/01_pytorch_fundamentals_es.ipynb",
       [("import session_info\n__shown = (session_info.show(html=False))", "__shown = None  # session_info: not installed")]),
    _r("l2_es_carazo_linear_regression", CARAZO, "docs/02_pytorch_linear_regression_es.ipynb",
       [("TensorDataset?\n", ""), ("DataLoader?\n", ""), ("torch.optim.SGD?\n", "")]),  # IPython's help
    _r("l2_es_carazo_logistic_regression", CARAZO, "docs/03_pytorch_logistic_regression_es.ipynb",
       [("from torchvision.datasets import MNIST", "from corpus_support import fake_mnist as MNIST"),
        ("random_split(dataset, [50000, 10000])", "random_split(dataset, [250, 50])"),  # the stand-in has 300
        ("test_dataset[193]", "test_dataset[93]"), ("test_dataset[1839]", "test_dataset[83]")]),  # 100 test images
]

TEAMLAB = ("TEAMLAB-Lecture/DL-codes", "bddfcbd75521606df52ae19970245a71c000b165", "MIT")
KKH = ("kimkyunghyun2756/deep-learning-study", "23c6dab6dcf1aa834ad332c18ca3a3b20eeee781", "none stated")
CROSSTAR = ("crosstar1228/pytorch_study", "a8774f5d4f8321b54ee1698aae08ae0133a67f85", "none stated")
RECIPES += [
    _r("l2_ko_teamlab_example_codes", TEAMLAB, "examples/01-intro-to-neural-networks/pytroch_example_codes.ipynb",
       [("for i in range(100000000):\n    y = x.to(", "for i in range(100):\n    y = x.to(")]),  # a 1e8-step loop
    _r("l2_ko_kkh_tensor_ex", KKH, "01_tensor_basics/touch tensor_ex.ipynb"),
    _r("l2_ko_kkh_autograd_ex", KKH, "02_autograd/autograd_ex.ipynb"),
    _r("l2_ko_kkh_backprop_check", KKH, "03_backprop_derivation/backprop_check.ipynb"),
    _r("l2_ko_kkh_simple_nn", KKH, "04_simple_nn/simple_nn.ipynb"),
    _r("l2_ko_crosstar_torch_tutorial_1", CROSSTAR, "[week2_1]torch_tutorial_1.ipynb"),
    # cell by cell as Jupyter runs them: a cell builds nn.BatchNorm1d() without its size, on purpose
    _r("l2_ko_crosstar_torch_tutorial_2", CROSSTAR, "[week2_2]torch_tutorial_2.ipynb", keep_going=True),
    # (its dataloader notebook imports torchtext's datasets, which the stubbed torchtext lacks: left out)
    # a cell reads a gradient that zero_grad set to None; the profiler's table shows wall-clock times: its product
    _r("l2_ko_crosstar_autograd", CROSSTAR, "[week2_4]pytorch_autograd.ipynb",
       [("print(prf.key_averages().table(sort_by='self_cpu_time_total'))", "print(z)")], keep_going=True),
]

DMU = ("dmu1981/pythoncourse", "527e5b3da50d0fbecfe7da062d7b7672df25ff34", "none stated")
TEN_THOUSAND = ("range(10000)", "range(2001)")  # 10,000 steps of a 2-4-1 network: 2,000 show the same descent


def _dmu(name, edits=(), **kw):
    """``lektion8/<name>.py`` of dmu1981's course."""
    return _r(f"l2_de_lektion8_{name}", DMU, f"lektion8/{name}.py", edits, **kw)


# (pytorch.py prints the library's version string, which differs by design)
RECIPES += [_dmu(n) for n in ("lstm", "pytorch2", "pytorch3", "pytorch4", "pytorch5", "pytorch6", "pytorch7",
                              "pytorch8", "pytorch9", "pytorch10", "pytorch13")]
RECIPES += [
    _dmu("pytorch11", [("N = 10000", "N = 2001")]),
    _dmu("pytorch12", [TEN_THOUSAND]),
    _dmu("pytorch14", [TEN_THOUSAND]),
]

RNAP = ("robertoalotufo/rnap", "c79380eff40110dacc0e4ddd196f8684df95b8d4", "none stated")
RECIPES += [
    _r(f"l2_pt_rnap_{name.lower().replace('-', '_')}", RNAP, f"PyTorch/{name}.ipynb", keep_going=True)
    for name in ("Matrizes_Arrays_Tensores", "PyTorch_Variaveis_Gradientes", "Exercicio_PyTorch_Autograd",
                 "Activations_pytorch", "batch_norm_basics_pytorch", "embedding-basics-pytorch", "Introducao-CNN-PyTorch",
                 "LinearRegressionIris-Tensor-Solucao", "LinearRegressionIrisOptimizer", "LinearRegressionIrisPyTorch",
                 "LogisticRegressionIris", "Iris-dataset_2layers_exercise", "datasets-e-dataloaders")
]
RNAP_MNIST = ("from torchvision.datasets import MNIST", "from corpus_support import fake_mnist as MNIST")
RECIPES += [
    _r("l2_pt_rnap_logisticregressionmnist_sgd", RNAP, "PyTorch/LogisticRegressionMNIST-SGD.ipynb",
       [RNAP_MNIST, ("random_split(dataset_train, [1000,59000])", "random_split(dataset_train, [250,50])")],
       keep_going=True),  # (the stand-in has 300 training images)
    _r("l2_pt_rnap_exercicio_mnist_varias_camadas_gabarito", RNAP, "PyTorch/Exercicio-MNIST-varias-camadas-Gabarito.ipynb",
       [RNAP_MNIST, ("epochs = 100", "epochs = 5")], keep_going=True),
]

LIZHUOFAN = ("lizhuofan-curry/LiuErDaRenPyTorch", "ad55f8dfa95f82d9161bc5ddee7ac632f3817c86", "MIT")
LZF_DIABETES = ("datasets/diabetes.csv.gz", "diabetes.csv.gz")
RECIPES += [
    _r("l2_liuer2_backpropagation_quadratic", LIZHUOFAN, "Chapter04_BackPropagation/backpropagation_quadratic.py"),
    _r("l2_liuer2_backpropagation_y_wx", LIZHUOFAN, "Chapter04_BackPropagation/backpropagation_y_wx.py"),
    _r("l2_liuer2_logistic_regression", LIZHUOFAN, "Chapter06_LogisticRegression/logistic_regression.py"),
    _r("l2_liuer2_diabetes_binary_classification", LIZHUOFAN,
       "Chapter07_MultipleDimensionInput/diabetes_binary_classification.py",
       [('Path(__file__).resolve().parents[1] / "datasets" / "diabetes.csv.gz"', 'Path("diabetes.csv.gz")')],
       support=[LZF_DIABETES]),
    _r("l2_liuer2_dataset_and_dataloader", LIZHUOFAN,
       "Chapter08_DatasetAndDataloader/DiabetesBinaryClassification/dataset_and_dataloader.py",
       [('Path(__file__).resolve().parents[2] / "datasets" / "diabetes.csv.gz"', 'Path("diabetes.csv.gz")'),
        ("EPOCHS = 1000", "EPOCHS = 100")], support=[LZF_DIABETES]),
    _r("l2_liuer2_rnncell_onehot", LIZHUOFAN, "Chapter12_BasicRNN/RNNCell + Onehot.py"),
]

MONSTER = ("Monster880/pytorch_py", "9c5ac5974f48edb5ea3d897a1100a63d488c61d9", "MIT")
RECIPES += [
    _r(f"l2_cn_demo_{name.removeprefix('demo_')}", MONSTER, f"{name}.py")
    for name in ("clamp", "demo_attribute", "demo_broadcast", "demo_compare", "demo_concat", "demo_full",
                 "demo_function", "demo_norm", "demo_op", "demo_op_2", "demo_reshape", "demo_select_index",
                 "demo_split", "demo_statistic", "demo_trigon", "random_sample")
]
# torch.Tensor(2, 3) is uninitialised memory, which the script prints: zeros instead
RECIPES.append(_r("l2_cn_demo_create", MONSTER, "demo_create.py",
                  [("a = torch.Tensor(2,3)", "a = torch.zeros(2,3)")]))

FRADAV = ("fradav/Cours-Deep-Learning", "3e4daceecb97f57d1d5df6fb174eef117967e17c", "MIT")
RECIPES += [
    # torch.empty's values are whatever the memory held (the notebook prints them): zeros instead
    _r("l2_fr_descente_de_gradient", FRADAV, "1_Descente de gradient.ipynb",
       [("torch.empty(2, requires_grad=True)", "torch.zeros(2, requires_grad=True)")], keep_going=True),
    _r("l2_fr_sgd_theorie_et_pratique", FRADAV, "3_SGD Théorie et Pratique-2020.ipynb",
       [("nepoch=10000))", "nepoch=500))")] * 2 + [("nepoch=50))", "nepoch=5))")] * 2,
       keep_going=True),  # 10,000 epochs of plain SGD, and 50 of 200 mini-batches, each twice
    _r("l2_fr_pense_bete_derniere_couche", FRADAV, "NLP/2_Pense-bête dernière couche.ipynb", keep_going=True),
    _r("l2_fr_rnn", FRADAV, "NLP/3_RNN.ipynb", keep_going=True),
]

TOKITSU = ("TokitsuKotaro/PytorchLesson", "b8ba3bd75433a707c60077d3a65bf595e536e550", "none stated")
TOKITSU_MNIST = [  # its download helper (six's urllib, not installed here) and MNIST: the seeded stand-in
    ("from six.moves import urllib\nopener = urllib.request.build_opener()\n"
     "opener.addheaders = [('User-agent', 'Mozilla/5.0')]\nurllib.request.install_opener(opener)\n", ""),
    *[("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")] * 2]
RECIPES += [
    _r(f"l2_ja_tokitsu_{tag}", TOKITSU, f"{name}_解答例.ipynb", edits, keep_going=True)
    for tag, name, edits in (
        ("1_tensor", "1_Tensor", ()), ("2_tensor", "2_Tensor", ()), ("3_tensor", "3_Tensor", ()),
        ("5_model", "5_モテ\u3099ルの実装", ()),  # (its file name is in decomposed form)
        ("6_training", "6_モデルの学習", TOKITSU_MNIST + [("num_workers=2", "num_workers=0")] * 2),
        ("7_features1", "7_pytorchの様々な機能1", ()), ("8_features2", "8_pytorchの様々な機能2", ()))
]
ISHII = ("ISHIIYUTO11235/pythorch_study", "1274e68b0eb75dd407587cc6e3dc969f9fb9bf1c", "none stated")
RECIPES += [_r(f"l2_ja_ishii_{name}", ISHII, f"{name}.py") for name in (
    "hello_tensor", "tensor_sampl_01", "tensor_sample_02", "tensor_sample_03", "tensor_sample_04", "tensor_sample_05")]

BDF = ("bigdatafran/pytorch", "1e96c9f527fc45e785d9724c7a02554fd4cee9f6", "none stated")
RECIPES += [
    _r(f"l2_es_bdf_{name.lower()}", BDF, f"_sources/jupyters/{name}.ipynb", keep_going=True)
    for name in ("Calcularderivadas", "OptimizadoresPyTorch", "Tema_3_clasificacion")
]
