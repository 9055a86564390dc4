"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

University courses' notebooks: Marc Lelarge's "Deep Learning Do It Yourself" (dataflowr/notebooks) and
Sebastian Raschka's STAT 453 (rasbt/stat453-deep-learning-ss21).
"""

from __future__ import annotations

from recipe_kit import _r

MNIST = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
ELAPSED = ("(time.time() - start_time)/60", "0")  # a wall-clock time, printed in minutes

RECIPES: list[dict] = []

GAN_LOSSES = ("plt.plot(loss_D_epoch)\n", "print(loss_D_epoch[-1], loss_G_epoch[-1])\nplt.plot(loss_D_epoch);\n")
DFR = ("dataflowr/notebooks", "043dff0f792a5ae67005ba147f7b9dd5fc66e2a1", "Apache-2.0")
RECIPES += [
    _r("dfr_02a_basics", DFR, "Module2/02a_basics.ipynb", [("torch.empty(3,5)", "torch.zeros(3,5)")],
       keep_going=True),  # empty's memory is arbitrary; CIFAR10 stays a stub (its cells fail alike)
    _r("dfr_02b_linear_reg", DFR, "Module2/02b_linear_reg.ipynb", keep_going=True),
    _r("dfr_02_backprop_sol", DFR, "Module2/sol/02_backprop_sol.ipynb", keep_going=True),
    _r("dfr_04_gradient_descent_sol", DFR, "Module4/sol/04_gradient_descent_optimization_algorithms_sol.ipynb",
       keep_going=True),
    _r("dfr_10_gan_double_moon_sol", DFR, "Module10/sol/10_GAN_double_moon_sol.ipynb",
       [("n_samples=2000", "n_samples=200"), ("nb_epochs = 500", "nb_epochs = 5"), ("nb_epochs = 500", "nb_epochs = 5"),
        ("n_samples=2000", "n_samples=200"), ("nb_epochs = 1000", "nb_epochs = 5"),
        ("nb_epochs = 1000", "nb_epochs = 5"), *[GAN_LOSSES] * 4], keep_going=True),
    _r("dfr_11_packing_sequences", DFR, "Module11/11_Tutorial_packing_sequences.ipynb", keep_going=True),
    _r("dfr_15a_dropout_intro", DFR, "Module15/15a_dropout_intro.ipynb", keep_going=True),
    _r("dfr_16_batchnorm_eval", DFR, "Module16/16_simple_batchnorm_eval.ipynb", keep_going=True),
    _r("dfr_09_normalizing_flows_sol", DFR, "Module9/Normalizing_flows_sol.ipynb",
       [("from pylab import", "from matplotlib.pylab import"), ("range(5001)", "range(61)"), ("t % 500 == 0", "t % 20 == 0"),
        ("np.linspace(-1.5, 2.5, 500)", "np.linspace(-1.5, 2.5, 20)"), ("np.linspace(-1.0, 1.5, 500)", "np.linspace(-1.0, 1.5, 20)"),
        ("p = np.exp(flow.log_prob(torch.from_numpy(xgrid)).detach().numpy())",
         "p = np.exp(flow.log_prob(torch.from_numpy(xgrid)).detach().numpy())\nprint(round(float(p.sum()), 1))")], keep_going=True),
    _r("dfr_12_gpt_hist_sol", DFR, "Module12/GPT_hist_sol.ipynb",
       [("import seaborn as sns", "import matplotlib as sns"),  # plots only
        ("seq_train = 30", "seq_train = 12"),  # 455 training sequences instead of 5456
        ("train_model(gptmini,train_loader,size_train,15,optimizer)", "train_model(gptmini,train_loader,size_train,5,optimizer)"),
        *[("train_model(gptmini,train_loader,len_train,15,optimizer)",
           "train_model(gptmini,train_loader,len_train,2,optimizer)")] * 3], keep_going=True),
]

STAT453 = ("rasbt/stat453-deep-learning-ss21", "2202699c5fd38af398e2682f289a0868b1b91f0e", "MIT")
RECIPES += [
    _r("stat453_perceptron_pytorch", STAT453, "L03/code/perceptron-pytorch.ipynb", [("astype(np.int)", "astype(int)")],
       support=[("L03/code/perceptron_toydata.txt", "perceptron_toydata.txt")], keep_going=True),
    _r("stat453_pytorch_autograd", STAT453, "L06/code/pytorch-autograd.ipynb", keep_going=True),
    _r("stat453_cross_entropy", STAT453, "L08/code/cross-entropy-pytorch.ipynb", keep_going=True),
    _r("stat453_logistic_regression", STAT453, "L08/code/logistic-regression.ipynb",
       support=[("L08/code/data/toydata.txt", "data/toydata.txt")], keep_going=True),
    _r("stat453_l2_log_reg", STAT453, "L10/code/L2-log-reg.ipynb",
       support=[("L10/code/data/toydata.txt", "data/toydata.txt")], keep_going=True),
    _r("stat453_cross_correlation", STAT453, "L13/code/notes/cross-correlation.ipynb", keep_going=True),
    _r("stat453_softmax_regression_mnist", STAT453, "L08/code/softmax-regression-mnist.ipynb",
       [MNIST, MNIST, ELAPSED, ("num_epochs = 25", "num_epochs = 2")], keep_going=True),
    _r("stat453_mlp_softmax", STAT453, "L09/code/mlp-pytorch_softmax-crossentr.ipynb",
       [MNIST, MNIST, ELAPSED, ELAPSED, ("NUM_EPOCHS = 100", "NUM_EPOCHS = 2")], keep_going=True),
]
