"""Dive into Deep Learning (d2l.ai, English edition): its PyTorch notebooks from d2l-ai/d2l-pytorch-colab, in the
book's order (``recipe_kit`` says what a recipe holds).

Every notebook imports ``from d2l import torch as d2l``: the book's helper package (``d2l/__init__.py`` and
``d2l/torch.py``, the same commit) comes as support files. The colab repository states no licence; the book's
repository, d2l-ai/d2l-en, puts its sample code under MIT-0 (``LICENSE-SAMPLECODE``) and its text under CC BY-SA 4.0.
"""

from __future__ import annotations

from recipe_kit import NG, _r

RECIPES: list[dict] = []

D2L = ("d2l-ai/d2l-pytorch-colab", "f8543710a7046a947464f0fa3ad0f8619d7613d3", "MIT-0 (d2l-en's sample code)")
D2L_PACKAGE = [("d2l/__init__.py", "d2l/__init__.py"), ("d2l/torch.py", "d2l/torch.py")]


VAL_LOSS = ("\n__batch = next(iter(data.val_dataloader()))  # the plotted losses: the first validation batch's\n"
            "print('validation loss:', model.loss(model(*__batch[:-1]), __batch[-1]).item())\n")
ID_Z = ("print('id(Z):', id(Z))", "__id_z = id(Z)")  # ids differ from run to run: print whether it stays the same


def _fashion(call):
    """Fashion-MNIST through ``corpus_d2l``'s stand-in, read without worker processes."""
    return (call, "d2l.torchvision = __import__('corpus_d2l').fashion_torchvision()\n"
                  f"{call}\ndata.num_workers = 0  # the book's DataModule starts 4 worker processes")


def _fit(times=1):
    """Each ``trainer.fit(model, data)`` (the first ``times``) then prints its model's first validation loss."""
    return [("__shown = (trainer.fit(model, data))", "trainer.fit(model,data)" + VAL_LOSS + "__shown = None")] * times


def _d2l(name, path, edits=(), **kw):
    return _r(f"d2l_{name}", D2L, f"{path}.ipynb", edits, support=D2L_PACKAGE, **kw)


RECIPES += [
    _d2l("ndarray", "chapter_preliminaries/ndarray",
         [ID_Z, ("print('id(Z):', id(Z))", "print('id(Z) is unchanged:', id(Z) == __id_z)")]),
    _d2l("linear_algebra", "chapter_preliminaries/linear-algebra"),
    _d2l("calculus", "chapter_preliminaries/calculus"),
    _d2l("autograd", "chapter_preliminaries/autograd"),
    _d2l("probability", "chapter_preliminaries/probability"),
    _d2l("oo_design", "chapter_linear-regression/oo-design"),
    _d2l("synthetic_regression_data", "chapter_linear-regression/synthetic-regression-data"),
    _d2l("linear_regression_scratch", "chapter_linear-regression/linear-regression-scratch"),
    _d2l("linear_regression_concise", "chapter_linear-regression/linear-regression-concise"),
    _d2l("weight_decay", "chapter_linear-regression/weight-decay"),
    _d2l("softmax_regression_scratch", "chapter_linear-classification/softmax-regression-scratch",
         [_fashion("data = d2l.FashionMNIST(batch_size=256)"), ("max_epochs=10", "max_epochs=3"), *_fit()]),
    _d2l("softmax_regression_concise", "chapter_linear-classification/softmax-regression-concise",
         [_fashion("data = d2l.FashionMNIST(batch_size=256)"), ("max_epochs=10", "max_epochs=3"), *_fit()]),
    _d2l("mlp", "chapter_multilayer-perceptrons/mlp"),
    _d2l("mlp_implementation", "chapter_multilayer-perceptrons/mlp-implementation",
         [_fashion("data = d2l.FashionMNIST(batch_size=256)"), ("max_epochs=10", "max_epochs=3"), *_fit(2)]),
    _d2l("numerical_stability_and_init", "chapter_multilayer-perceptrons/numerical-stability-and-init"),
    _d2l("dropout", "chapter_multilayer-perceptrons/dropout",
         [_fashion("data = d2l.FashionMNIST(batch_size=256)"), ("max_epochs=10", "max_epochs=3"), *_fit(2)]),
    _d2l("model_construction", "chapter_builders-guide/model-construction"),
    _d2l("parameters", "chapter_builders-guide/parameters"),
    _d2l("init_param", "chapter_builders-guide/init-param"),
    _d2l("lazy_init", "chapter_builders-guide/lazy-init"),
    _d2l("custom_layer", "chapter_builders-guide/custom-layer",
         xfail="float32 GEMM rounding: the mean of a centred LazyLinear output is a rounding residue (+-9.3e-10) whose "
               "sign follows the matmul's last bits, and PyTorch's sgemm adds an 8-term dot product in another order"),
    _d2l("read_write", "chapter_builders-guide/read-write"),
    _d2l("use_gpu", "chapter_builders-guide/use-gpu"),
    _d2l("conv_layer", "chapter_convolutional-neural-networks/conv-layer"),
    _d2l("padding_and_strides", "chapter_convolutional-neural-networks/padding-and-strides"),
    _d2l("channels", "chapter_convolutional-neural-networks/channels"),
    _d2l("pooling", "chapter_convolutional-neural-networks/pooling"),
    _d2l("lenet", "chapter_convolutional-neural-networks/lenet",
         [("max_epochs=10", "max_epochs=2"), _fashion("data = d2l.FashionMNIST(batch_size=128)"), *_fit()]),
]

STOP = "raise SystemExit  # the rest trains on the dataset at full size\n"


def _stop_at(text):
    return (text, STOP + text)


_MODERN = "chapter_convolutional-modern"
_ATTENTION = "chapter_attention-mechanisms-and-transformers"
RECIPES += [
    _d2l("batch_norm", f"{_MODERN}/batch-norm",
         [("max_epochs=10", "max_epochs=2"), _fashion("data = d2l.FashionMNIST(batch_size=128)"), *_fit(),
          ("max_epochs=10", "max_epochs=2"), _fashion("data = d2l.FashionMNIST(batch_size=128)"), *_fit()]),
    _d2l("alexnet", f"{_MODERN}/alexnet", [_stop_at("data = d2l.FashionMNIST(batch_size=128, resize=(224, 224))")]),
    _d2l("vgg", f"{_MODERN}/vgg", [("(1, 1, 224, 224)", "(1, 1, 32, 32)"),  # 224x224 takes 3 s in core
                                   _stop_at("trainer = d2l.Trainer(max_epochs=10, num_gpus=1)")]),
    _d2l("nin", f"{_MODERN}/nin", [_stop_at("trainer = d2l.Trainer(max_epochs=10, num_gpus=1)")]),
    _d2l("googlenet", f"{_MODERN}/googlenet", [_stop_at("trainer = d2l.Trainer(max_epochs=10, num_gpus=1)")]),
    _d2l("resnet", f"{_MODERN}/resnet", [_stop_at("trainer = d2l.Trainer(max_epochs=10, num_gpus=1)")]),
    _d2l("densenet", f"{_MODERN}/densenet", [_stop_at("trainer = d2l.Trainer(max_epochs=10, num_gpus=1)")]),
    _d2l("sequence", "chapter_recurrent-neural-networks/sequence",  # the plotted predictions: their last values
         [*_fit(), ("multistep_preds = multistep_preds.detach().numpy()\n",
                    "multistep_preds = multistep_preds.detach().numpy()\nprint(multistep_preds[-3:].tolist())\n"),
          ("preds = k_step_pred(steps[-1])\n",
           "preds = k_step_pred(steps[-1])\nprint([preds[k - 1][-1].item() for k in steps])\n")]),
    _d2l("queries_keys_values", f"{_ATTENTION}/queries-keys-values"),
    _d2l("attention_pooling", f"{_ATTENTION}/attention-pooling"),
    _d2l("attention_scoring_functions", f"{_ATTENTION}/attention-scoring-functions"),
    _d2l("multihead_attention", f"{_ATTENTION}/multihead-attention"),
    _d2l("self_attention_and_positional_encoding", f"{_ATTENTION}/self-attention-and-positional-encoding"),
    _d2l("vision_transformer", f"{_ATTENTION}/vision-transformer",
         [_stop_at("trainer = d2l.Trainer(max_epochs=10, num_gpus=1)")]),
    _d2l("optimization_intro", "chapter_optimization/optimization-intro"),
    _d2l("convexity", "chapter_optimization/convexity"),
    _d2l("gd", "chapter_optimization/gd"),
    _d2l("sgd", "chapter_optimization/sgd"),
    _d2l("momentum", "chapter_optimization/momentum", [_stop_at("data_iter, feature_dim = d2l.get_data_ch11(")]),
]

# The Time Machine's text comes from the book's data server: tiny Shakespeare (ng-video-lecture's input.txt, its first
# 40000 characters) stands in for it, read by the book's own preprocessing and vocabulary
SHAKESPEARE = [(NG[0], NG[1], "input.txt", "input.txt")]
TEXT = "open('input.txt').read()[:40000]  # tiny Shakespeare stands in for The Time Machine\n"


def _time_machine(call, cls="d2l.TimeMachine", short=False):
    """``call`` reading the stand-in text; ``short``: 2048 training and 1024 validation windows (10000 and 5000)."""
    new = call.replace("num_steps=32)", "num_steps=32, num_train=2048, num_val=1024)") if short else call
    return (call, f"{cls}._download = lambda self: {TEXT}{new}")


def _d2l_text(name, path, edits, **kw):
    return _r(f"d2l_{name}", D2L, f"{path}.ipynb", edits, support=[*D2L_PACKAGE, *SHAKESPEARE], **kw)


_RNN = "chapter_recurrent-neural-networks"
TM_CALL = "data = d2l.TimeMachine(batch_size=1024, num_steps=32)"
_MODERN_RNN = "chapter_recurrent-modern"
RECIPES += [
    _d2l_text("text_sequence", f"{_RNN}/text-sequence", [_time_machine("data = TimeMachine()", "TimeMachine")]),
    _d2l_text("language_model", f"{_RNN}/language-model",
              [_time_machine("data = d2l.TimeMachine(batch_size=2, num_steps=10)")]),
    _d2l_text("rnn_scratch", f"{_RNN}/rnn-scratch", [_time_machine(TM_CALL, short=True),
                                                     ("max_epochs=100", "max_epochs=1"), *_fit()]),
    _d2l_text("rnn_concise", f"{_RNN}/rnn-concise", [_time_machine(TM_CALL, short=True),
                                                     ("max_epochs=100", "max_epochs=1"), *_fit()]),
    _d2l_text("lstm", f"{_MODERN_RNN}/lstm", [_time_machine(TM_CALL, short=True),
                                              ("max_epochs=50", "max_epochs=1"), *_fit()]),
    _d2l_text("gru", f"{_MODERN_RNN}/gru", [_time_machine(TM_CALL, short=True),
                                            ("max_epochs=50", "max_epochs=1"), *_fit()]),
    _d2l_text("deep_rnn", f"{_MODERN_RNN}/deep-rnn", [_time_machine(TM_CALL, short=True),
                                                      ("max_epochs=100", "max_epochs=1"), *_fit()]),
    _d2l_text("bi_rnn", f"{_MODERN_RNN}/bi-rnn", []),
]

_MATH = "chapter_appendix-mathematics-for-deep-learning"
RECIPES += [
    *[_d2l(name.replace("-", "_"), f"{_MATH}/{name}") for name in (
        "eigendecomposition", "single-variable-calculus", "multivariable-calculus",
        "integral-calculus", "random-variables", "maximum-likelihood", "distributions", "statistics",
        "information-theory")],
    _d2l("gan", "chapter_generative-adversarial-networks/gan",
         [("num_epochs = 0.05, 0.005, 2, 20", "num_epochs = 0.05, 0.005, 2, 2"),
          ("f'{metric[2] / timer.stop():.1f} examples/sec'", "'(examples/sec: a wall-clock rate)'")]),
    _d2l("hybridize", "chapter_computational-performance/hybridize",
         [("{self.timer.stop():.4f} sec", "(a wall-clock time)")]),
]
RECIPES += [  # the appendix's notebooks that read Fashion-MNIST and MNIST (the stand-ins, transforms applied)
    _d2l("geometry_linear_algebraic_ops", f"{_MATH}/geometry-linear-algebraic-ops",
         [*[("torchvision.datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")] * 2,
          ("X_test.reshape(2000, -1)", "X_test.reshape(len(X_test), -1)")]),  # the stand-in's test images
    _d2l("naive_bayes", f"{_MATH}/naive-bayes",
         [("torchvision.transforms.Compose(", "__import__('corpus_d2l').Compose("),
          ("    torchvision.transforms.ToTensor(),\n", ""),
          *[("torchvision.datasets.MNIST(", "__import__('corpus_d2l').fake_mnist(")] * 2]),
]

# The optimization chapter's airfoil data (d2l.download) and its printed wall-clock times (d2l.Timer): corpus_d2l's
AIRFOIL = ("from d2l import torch as d2l\n", "from d2l import torch as d2l\nd2l.download, d2l.Timer = "
           "__import__('corpus_d2l').download, __import__('corpus_d2l').FixedTimer  # seeded data, fixed times\n")
RECIPES[:] = [r for r in RECIPES if r["name"] != "d2l_momentum"]  # it stopped before the airfoil data
RECIPES += [_d2l(name, f"chapter_optimization/{name}", [AIRFOIL]) for name in ("momentum", "adagrad", "rmsprop",
                                                                               "adadelta", "adam")]
RECIPES += [
    _d2l("lr_scheduler", "chapter_optimization/lr-scheduler",
         [("from d2l import torch as d2l\n", "from d2l import torch as d2l\nd2l.torchvision = "
           "__import__('corpus_d2l').fashion_torchvision()  # the Fashion-MNIST stand-in, read without workers\n"
           "d2l.get_dataloader_workers = lambda: 0\n"), ("lr, num_epochs = 0.3, 30", "lr, num_epochs = 0.3, 1")]),
]

# English-French pairs (the book downloads fra-eng.zip): corpus_text's, repeated, through MTFraEng._download
FRA = "lambda self: __import__('corpus_d2l').fra_eng()  # corpus_text's pairs stand in for fra-eng.zip\n"


def _mt(call, cls="d2l.MTFraEng", short=False):
    """``call`` reading the stand-in pairs; ``short``: 128 training and 32 validation pairs (512 and 128)."""
    new = call.replace("batch_size=128)", "batch_size=128, num_train=128, num_val=32)") if short else call
    return (call, f"{cls}._download = {FRA}{new}")


_MT_CALL = "data = d2l.MTFraEng(batch_size=128)"
_SHORT_MT = ("max_epochs=30", "max_epochs=1")
RECIPES += [
    _d2l("machine_translation_and_dataset", f"{_MODERN_RNN}/machine-translation-and-dataset",
         [_mt("data = MTFraEng()", "MTFraEng")]),
    _d2l("encoder_decoder", f"{_MODERN_RNN}/encoder-decoder"),
    _d2l("seq2seq", f"{_MODERN_RNN}/seq2seq", [_mt(_MT_CALL, short=True), _SHORT_MT, *_fit(),
                                               ("= 256, 256, 2, 0.2", "= 64, 64, 2, 0.2")]),  # 256: 5 s in core
    _d2l("bahdanau_attention", f"{_ATTENTION}/bahdanau-attention", [_mt(_MT_CALL, short=True), _SHORT_MT, *_fit()]),
    _d2l("transformer", f"{_ATTENTION}/transformer",
         [_mt(_MT_CALL, short=True), _SHORT_MT, *_fit(),  # pandas (a stub) pads the ragged attention rows with 0
          ("num_hiddens, num_blks, dropout = 256, 2, 0.2", "num_hiddens, num_blks, dropout = 64, 2, 0.2"),  # 4 s
          ("pd.DataFrame(dec_attention_weights_2d).fillna(0.0).values)",
           "[row + [0.0] * (data.num_steps - len(row)) for row in dec_attention_weights_2d], dtype=torch.float64)")]),
]

_CV = "chapter_computer-vision"
_NLP = "chapter_natural-language-processing-pretraining"
CATDOG = ("d2l.plt.imread('../img/catdog.jpg')",  # the book's 561x728 photo: the notebooks use its size only
          "__import__('numpy').zeros((561, 728, 3), dtype='uint8')  # catdog.jpg's size")
RECIPES += [
    _d2l("bounding_box", f"{_CV}/bounding-box", [CATDOG]),
    _d2l("anchor", f"{_CV}/anchor", [CATDOG]),
    _d2l("multiscale_object_detection", f"{_CV}/multiscale-object-detection", [CATDOG]),
    _d2l("ssd", f"{_CV}/ssd", [("X = torch.zeros((32, 3, 256, 256))", "X = torch.zeros((2, 3, 256, 256))"),  # 32: 4 s in core
                             _stop_at("train_iter, _ = d2l.load_data_bananas(batch_size)")]),  # a download
    _d2l("transposed_conv", f"{_CV}/transposed-conv"),
    _d2l("rcnn", f"{_CV}/rcnn"),
    _d2l("bert", f"{_NLP}/bert"),
    _d2l("subword_embedding", f"{_NLP}/subword-embedding"),
    _d2l("approx_training", f"{_NLP}/approx-training"),
]

RECIPES += [
    _d2l("image_classification_dataset", "chapter_linear-classification/image-classification-dataset",
         [("data = FashionMNIST(resize=(32, 32))", "torchvision = __import__('corpus_d2l').fashion_torchvision()\n"
           "data = FashionMNIST(resize=(32, 32))\ndata.num_workers = 0  # the book's DataModule starts 4 processes"),
          ("f'{time.time() - tic:.2f} sec'", "'(a wall-clock time) sec'")]),
    _d2l("cnn_design", f"{_MODERN}/cnn-design", [_stop_at("trainer = d2l.Trainer(max_epochs=10, num_gpus=1)")]),
    _d2l("async_computation", "chapter_computational-performance/async-computation",  # timed 1000x1000 GEMMs
         [AIRFOIL, *[("for _ in range(10):", "for _ in range(2):")] * 3]),
]

# Penn Treebank, IMDB reviews and GloVe (d2l.download_extract): corpus_d2l's stand-ins, read without workers
PTB = ("from d2l import torch as d2l\n", "from d2l import torch as d2l\nd2l.download_extract, d2l.Timer = "
       "__import__('corpus_d2l').download_extract, __import__('corpus_d2l').FixedTimer  # stand-ins, fixed times\n"
       "d2l.get_dataloader_workers = lambda: 0\n")
RECIPES += [
    _d2l_text("word_embedding_dataset", f"{_NLP}/word-embedding-dataset",  # the histogram: plt.hist's 3 values
              [PTB, ("d2l.show_list_len_pair_hist(", "(lambda *args: None)(")]),
    _d2l_text("word2vec_pretraining", f"{_NLP}/word2vec-pretraining",  # the stand-in's few centres: batches of 64
              [PTB, ("lr, num_epochs = 0.002, 5", "lr, num_epochs = 0.002, 1"),
               ("batch_size, max_window_size, num_noise_words = 512, 5, 5",
                "batch_size, max_window_size, num_noise_words = 64, 5, 5")]),
]
_APPS = "chapter_natural-language-processing-applications"
_IMDB_SHORT = ("d2l.load_data_imdb(batch_size)", "d2l.load_data_imdb(batch_size, num_steps=40)")  # 500 steps
CPU_DEVICES = ("d2l.try_all_gpus()", "[d2l.cpu()]")  # try_all_gpus() is [] without a GPU
RECIPES += [
    _d2l("sentiment_analysis_and_dataset", f"{_APPS}/sentiment-analysis-and-dataset", [PTB]),
    _d2l("sentiment_analysis_rnn", f"{_APPS}/sentiment-analysis-rnn",
         [PTB, _IMDB_SHORT, CPU_DEVICES, ("lr, num_epochs = 0.01, 5", "lr, num_epochs = 0.01, 1"),
          ("embed_size, num_hiddens, num_layers, devices = 100, 100, 2,",  # 100 hidden units: 3.5 s in core
           "embed_size, num_hiddens, num_layers, devices = 100, 32, 2,")]),
    _d2l("sentiment_analysis_cnn", f"{_APPS}/sentiment-analysis-cnn",
         [PTB, _IMDB_SHORT, CPU_DEVICES, ("lr, num_epochs = 0.001, 5", "lr, num_epochs = 0.001, 1")]),
]
