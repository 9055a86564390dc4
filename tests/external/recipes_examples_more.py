"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

More of the big sources (2026-12-04, corpus helper C): dsgiitr's d2l-pytorch (an older PyTorch port of Dive into
Deep Learning, Jupyter notebooks with their own ``d2l`` package), the pytorch/examples directories not yet in the
corpus and pytorch/tutorials' remaining scripts.
"""

from __future__ import annotations

from recipe_kit import EXAMPLES, _r, _tut

RECIPES: list[dict] = []

DSGIITR = ("dsgiitr/d2l-pytorch", "e84da49a9ea4ba448f4aaf2d18ecd9edafaa2419", "Apache-2.0")
DSGIITR_PACKAGE = [(f"d2l/{f}.py", f"d2l/{f}.py") for f in (
    "__init__", "base", "figure", "model", "train", "ssd_utils", "data/__init__", "data/base", "data/fashion_mnist",
    "data/nmt")]


NO_CV2 = ("import d2l\n", "__import__('corpus_examples_more').no_cv2()  # d2l's ssd_utils imports OpenCV\nimport d2l\n")


def _dsg(name, path, edits=(), support=(), d2l=False):
    """A d2l-pytorch notebook, run as Jupyter runs it (a failing cell prints its error and the next one runs);
    ``d2l``: it imports the book's package (with a stand-in for the OpenCV it imports)."""
    edits = [NO_CV2, *edits] if d2l else list(edits)
    return _r(f"dsg_{name}", DSGIITR, f"{path}.ipynb", edits, support=[*DSGIITR_PACKAGE, *support], keep_going=True)


_CH4 = "Ch04_The_Preliminaries_A_Crashcourse/"
_CH5 = "Ch05_Linear_Neural_Networks/"
_CH6 = "Ch06_Multilayer_Perceptrons/"
_CH7 = "Ch07_Deep_Learning_Computation/"
_CH8 = "Ch08_Convolutional_Neural_Networks/"
_CH12 = "Ch12_Optimization_Algorithms/"
_CH10 = "Ch10_Recurrent_Neural_Networks/"
TIME_MACHINE = [("data/timemachine.txt", "../data/timemachine.txt")]  # the notebooks read '../data/...'
ZERO_TIMER = ("import d2l\n", "import d2l\nd2l.train.Timer = __import__('corpus_examples_more').ZeroTimer  # wall-clock\n")
SMALL_AIRFOIL = ("get_data_ch10(batch_size=10)", "get_data_ch10(batch_size=10, n=400)")  # 1500 rows took 6 s
FASHION = ("import d2l\n", "import d2l\n"
           "d2l.data.fashion_mnist.torchvision = __import__('corpus_d2l').fashion_torchvision()  # 300 + 100 images\n"
           "d2l.data.fashion_mnist.sys = __import__('types').SimpleNamespace(platform='win32')  # so no workers\n"
           "d2l.train.time = __import__('types').SimpleNamespace(time=lambda: 0.0)  # train_ch5 prints seconds\n")
CLOCK = ("import d2l\n", "import d2l\nd2l.train.time = __import__('types').SimpleNamespace(time=lambda: 0.0)  # seconds\n")


def _short_text(call, n=2000):
    """The first ``n`` characters of The Time Machine (its 10000 took minutes to train on)."""
    return (call, f"{call}\ncorpus_indices = corpus_indices[:{n}]")


HIDDEN_32 = ("num_inputs, num_hiddens, num_outputs = len(vocab), 256,", "num_inputs, num_hiddens, num_outputs = len(vocab), 32,")
CPU_DEFAULT = ("torch.set_default_tensor_type('torch.cuda.FloatTensor')",  # the notebooks ran on a GPU
               "torch.set_default_tensor_type('torch.FloatTensor')")


# (AlexNet's and VGG's notebooks are left out: their 224-pixel shape checks alone take 4 and 19 s in core)
STOP = "raise SystemExit  # the rest trains on Fashion-MNIST resized to 96 or 224 pixels: minutes\n"
MNIST_STAND_IN = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")  # 300 + 100 seeded images
AIRFOIL = [("data/airfoil_self_noise.dat", "../data/airfoil_self_noise.dat")]

RECIPES += [
    _dsg("autograd", _CH4 + "Automatic_Differentiation"),
    _dsg("data_manipulation", _CH4 + "Data_Manipulation",
         [("np.asscalar(x.norm())", "x.norm().item()"),  # np.asscalar was removed in NumPy 1.23
          ("torch.empty(2, 3)", "torch.zeros(2, 3)"),  # empty memory is arbitrary, as that of
          ("torch.FloatTensor(2, 3)", "torch.FloatTensor(2, 3).zero_()"),  # the legacy constructors
          ("torch.Tensor(2, 3)", "torch.Tensor(2, 3).zero_()"),
          ("print('id(z):', id(z))\nz[:] = x + y\n__shown = (print('id(z):', id(z)))",  # ids differ between runs
           "__before = id(z)\nz[:] = x + y\n__shown = (print('same id(z):', id(z) == __before))")]),
    _dsg("linear_algebra", _CH4 + "Linear_Algebra"),
    _dsg("probability", _CH4 + "Probability_and_Statistics"),
    _dsg("linreg_scratch", _CH5 + "Linear_Regression_Implementation_from_Scratch"),
    _r("dsg_linreg_concise", DSGIITR, _CH5 + "Concise_Implementation_of_Linear_Regression.ipynb",
       support=DSGIITR_PACKAGE, keep_going=True,
       xfail="Linear's GEMM rounds the last bit as NumPy's, not MKL's; the loss printed is a sum over 1000 residuals "
             "at the noise floor (~0.01 each), where one-ulp changes in the weights move it by 4e-5 after 3 epochs"),
    _dsg("numerical_stability", _CH6 + "Numerical_Stability_and_Initialization"),
    _dsg("model_selection", _CH6 + "Model_Selection_Underfitting_and_Overfitting",
         [("from scipy.special import factorial", "from corpus_examples_more import factorial  # scipy's")]),
    _dsg("weight_decay", _CH6 + "Weight_Decay", [("num_epochs, lr = 1, 100, 0.003", "num_epochs, lr = 1, 20, 0.003")], d2l=True),
    _dsg("custom_layers", _CH7 + "Custom_Layers"),
    _dsg("deferred_init", _CH7 + "Deferred_Initialization"),
    _dsg("file_io", _CH7 + "File_I_O"),
    _dsg("layers_and_blocks", _CH7 + "Layers_and_Blocks"),
    _dsg("parameter_management", _CH7 + "Parameter_Management"),
    _dsg("gpus", _CH7 + "GPUs"),
    _dsg("convolutions_for_images", _CH8 + "Convolutions_For_Images"),
    _dsg("multiple_channels", _CH8 + "Multiple_Input_and_Output_Channels", d2l=True),
    _dsg("padding_and_stride", _CH8 + "Padding_and_Stride"),
    _dsg("pooling", _CH8 + "Pooling"),
    _dsg("gradient_descent", _CH12 + "Gradient_Descent", d2l=True),
    _dsg("convexity", _CH12 + "Convexity", d2l=True),
    _dsg("momentum", _CH12 + "Momentum", [ZERO_TIMER, SMALL_AIRFOIL], support=AIRFOIL, d2l=True),
    _dsg("rmsprop", _CH12 + "RMSProp", [ZERO_TIMER, SMALL_AIRFOIL], support=AIRFOIL, d2l=True),
    _dsg("sgd", _CH12 + "Stochastic_Gradient_Descent", d2l=True),
    _dsg("opt_and_dl", _CH12 + "Optimization_And_Deep_Learning", d2l=True),
    _dsg("text_preprocessing", _CH10 + "Text_Preprocessing", support=TIME_MACHINE),
    _dsg("language_models", _CH10 + "Language_Models", support=TIME_MACHINE),
    _dsg("sequence_models", _CH10 + "Sequence_Models"),
    _dsg("rnn", _CH10 + "Recurrent_Neural_Networks"),
    _dsg("attention", "Ch11_Attention_Mechanism/Attention_Mechanism"),
    _dsg("minibatch_sgd", _CH12 + "Mini-batch_Stochastic_Gradient_Descent",
         [("%f sec per epoch' % (ls[-1], ts[-1]/num_epochs)", "%f' % (ls[-1], 0)"),  # a wall-clock time
          ("new_empty(", "new_zeros("),  # empty memory is arbitrary
          ("data[:1500, :-1]), torch.Tensor(data[:1500, -1])", "data[:300, :-1]), torch.Tensor(data[:300, -1])")], support=AIRFOIL, d2l=True),
]

GYM = ("import gymnasium as gym\n", "import corpus_gym as gym  # a stand-in: cart-pole's equations, seeded\n")
# gymnasium's CartPole-v1 registers reward_threshold=475.0; the stand-in has no spec
THRESHOLD = ("env.spec.reward_threshold", "475.0")
RL_ARGS = ("args = parser.parse_args()", "args = parser.parse_args(['--log-interval', '5'])")
RECIPES += [
    _r("examples_reinforce", EXAMPLES, "reinforcement_learning/reinforce.py",
       [GYM, RL_ARGS, THRESHOLD, ("for i_episode in count(1):", "for i_episode in range(1, 11):")]),
    _r("examples_actor_critic", EXAMPLES, "reinforcement_learning/actor_critic.py",
       [GYM, RL_ARGS, THRESHOLD, ("for i_episode in count(1):", "for i_episode in range(1, 21):")]),
    _dsg("softmax_scratch", _CH5 + "Implementation_of_Softmax_Regression_from_Scratch",
         [FASHION, ("num_epochs, lr = 5, 0.1", "num_epochs, lr = 2, 0.1")], d2l=True),
    _dsg("softmax_concise", _CH5 + "Concise_Implementation_of_Softmax_Regression",
         [FASHION, ("num_epochs = 10", "num_epochs = 2")], d2l=True),
    _dsg("mlp_scratch", _CH6 + "Implementation_of_Multilayer_Perceptron_from_Scratch",
         [FASHION, ("num_epochs, lr = 10, 0.5", "num_epochs, lr = 2, 0.5")], d2l=True),
    _dsg("mlp_concise", _CH6 + "Concise_Implementation_of_Multilayer_Perceptron",
         [FASHION, ("num_epochs, lr, batch_size = 10, 0.5, 256", "num_epochs, lr, batch_size = 2, 0.5, 256")], d2l=True),
    _dsg("dropout", _CH6 + "Dropout",
         [FASHION, ("num_epochs, lr, batch_size = 10, 0.5, 256", "num_epochs, lr, batch_size = 2, 0.5, 256")], d2l=True),
    _dsg("lenet", "Ch08_Convolutional_Neural_Networks/Convolutional_Neural_Networks(LeNet)",
         [FASHION, ("lr, num_epochs = 0.9, 5", "lr, num_epochs = 0.9, 2"), ("time.time() - start))", "0.0))")], d2l=True),
    _dsg("batch_norm", "Ch09_Modern_Convolutional_Networks/Batch_Normalization",
         [FASHION, *[("lr, num_epochs, batch_size, device = 1, 5, 256, d2l.try_gpu()",
                      "lr, num_epochs, batch_size, device = 1, 1, 256, d2l.try_gpu()")] * 2], d2l=True),
    _dsg("gru", _CH10 + "Gated_Recurrent_Units",
         [CLOCK, CPU_DEFAULT, _short_text("corpus_indices, vocab = load_data_time_machine()", 400), HIDDEN_32,
          ("num_epochs*5", "num_epochs"),
          ("num_epochs, num_steps, batch_size, lr, clipping_theta = 100, 35, 32, 1, 1",
           "num_epochs, num_steps, batch_size, lr, clipping_theta = 50, 10, 32, 1, 1")], support=TIME_MACHINE, d2l=True),
    _dsg("lstm", _CH10 + "Long_Short_Term_Memory",
         [CLOCK, CPU_DEFAULT, _short_text("corpus_indices, vocab = load_data_time_machine()", 400), HIDDEN_32,
          ("num_epochs*5", "num_epochs"),
          ("num_epochs, num_steps, batch_size, lr, clipping_theta = 100, 35, 32, 3, 1",
           "num_epochs, num_steps, batch_size, lr, clipping_theta = 50, 10, 32, 3, 1")], support=TIME_MACHINE, d2l=True),
    _dsg("deep_rnn", _CH10 + "Deep_Recurrent_Neural_Networks",
         [CLOCK, CPU_DEFAULT, _short_text("corpus_indices, vocab = load_data_time_machine()", 1200),
          ("num_hiddens, num_layers, num_outputs = len(vocab), 256, 2,", "num_hiddens, num_layers, num_outputs = len(vocab), 32, 2,"),
          ("num_epochs, num_steps, batch_size, lr, clipping_theta = 500,", "num_epochs, num_steps, batch_size, lr, clipping_theta = 50,")],
         support=TIME_MACHINE, d2l=True),
    _dsg("rnn_scratch", _CH10 + "Implementation_of_Recurrent_Neural_Networks_from_Scratch",
         [_short_text("corpus_indices, vocab = d2l.load_data_time_machine()", 600),
          ("num_inputs, num_hiddens, num_outputs = len(vocab), 512,", "num_inputs, num_hiddens, num_outputs = len(vocab), 64,"),
          ("num_epochs, num_steps, batch_size, lr, clipping_theta = 500, 64,",
           "num_epochs, num_steps, batch_size, lr, clipping_theta = 50, 16,"),
          ("time.time() - start))", "0.0))")],  # its seconds per 50 epochs
         support=TIME_MACHINE, d2l=True),
    *[_dsg(name, f"Ch09_Modern_Convolutional_Networks/{path}", [(load, STOP + load)], d2l=True) for name, path, load in [
        ("nin", "Network_in_Network(NiN)", "train_iter, test_iter = d2l.load_data_fashion_mnist(batch_size, resize=224)"),
        ("googlenet", "Networks_with_Parallel_Concatenations_(GoogLeNet)",
         "train_iter, test_iter = d2l.load_data_fashion_mnist(batch_size, resize=96)"),
        ("resnet", "Residual_Networks_(ResNet)", "train_iter, test_iter = d2l.load_data_fashion_mnist(batch_size, resize=96)"),
        ("densenet", "Densely_Connected_Networks_(DenseNet)",
         "train_iter, test_iter = d2l.load_data_fashion_mnist(batch_size, resize=96)")]],
    _dsg("naive_bayes", _CH4 + "Naive_Bayes_Classification", [MNIST_STAND_IN, MNIST_STAND_IN]),
    _dsg("machine_translation", _CH10 + "Machine_Translation_and_Data_Sets",
         [("import zipfile\n", "import zipfile\n__import__('corpus_examples_more').fra_zip('fra-eng.zip')  # !wget\n")],
         d2l=True),
    _dsg("seq2seq", _CH10 + "Sequence_to_Sequence",
         [("import d2l\n", "import d2l\nd2l.data.nmt.requests = __import__('corpus_examples_more').fra_requests()\n"),
          ("lr, num_epochs, ctx = 0.005, 300, d2l.try_gpu()", "lr, num_epochs, ctx = 0.005, 20, d2l.try_gpu()"),
          ("batch_size, num_examples, max_len = 64, 1e3, 10", "batch_size, num_examples, max_len = 64, 64, 10"),
          ("if epoch % 50 == 0:", "if epoch % 10 == 0:"),
          ("time.time()-tic))", "0.0))")], d2l=True),
]

RECIPES += [
    _r("tut_former_torchies_nn", _tut("28b582ec126672be1447079b4bfc1464477f7906"),
       "beginner_source/former_torchies/nn_tutorial.py",  # module forward and (legacy) backward hooks, an RNN cell
       [("loss.backward()\n", "loss.backward()\nprint(loss, rnn.i2h.weight.grad.norm())  # what it computed\n")]),
    _r("tut_former_torchies_autograd_old", _tut("7145910ad82091ac2922e51b217a6bbb6a9b9cfa"),
       "beginner_source/former_torchies/autograd_tutorial_old.py"),  # grad_fn reprs, retain_graph, no_grad
    _r("tut_forward_ad_draft", _tut("52e045ec9d1bbd95a4bdff311a0823f1a0920525"),
       "intermediate_source/forward_ad_tutorial.py"),  # the 2021 draft: dual tensors set as a Module's parameters
    _r("tut_linear_regression", _tut("b57bc73561d29a621c39d182dfb08cabe58ceb36"),
       "beginner_source/linear_regression_tutorial.py",
       [("    optimizer.step()\n", "    optimizer.step()\n    if epoch % 20 == 0:\n        print(epoch, loss.item())\n")]),
]
