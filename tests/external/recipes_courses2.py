"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

University courses' notebooks: Marc Lelarge's "Deep Learning Do It Yourself" (dataflowr/notebooks), Sebastian
Raschka's STAT 453 (rasbt/stat453-deep-learning-ss21) and Understanding Deep Learning's (udlbook/udlbook); their
stand-ins (STAT 453's MNIST loader, MNIST-1D) are in ``corpus_courses2.py``.
"""

from __future__ import annotations

from recipe_kit import MINGPT, MINGPT_PACKAGE, _r

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
       [("from pylab import", "from matplotlib.pylab import"), ("range(5001)", "range(61)"),
        ("t % 500 == 0", "t % 20 == 0"), ("np.linspace(-1.5, 2.5, 500)", "np.linspace(-1.5, 2.5, 20)"),
        ("np.linspace(-1.0, 1.5, 500)", "np.linspace(-1.0, 1.5, 20)"),
        ("p = np.exp(flow.log_prob(torch.from_numpy(xgrid)).detach().numpy())",
         "p = np.exp(flow.log_prob(torch.from_numpy(xgrid)).detach().numpy())\nprint(round(float(p.sum()), 1))")],
       keep_going=True),
    _r("dfr_12_gpt_hist_sol", DFR, "Module12/GPT_hist_sol.ipynb",
       [("import seaborn as sns", "import matplotlib as sns"),  # plots only
        ("seq_train = 30", "seq_train = 12"),  # 455 training sequences instead of 5456
        ("train_model(gptmini,train_loader,size_train,15,optimizer)",
         "train_model(gptmini,train_loader,size_train,5,optimizer)"),
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

# STAT 453's lectures 11-17 import their folder's helper modules: MNIST through corpus_courses2's stand-in loader
HELPERS = ["helper_evaluation.py", "helper_train.py", "helper_plotting.py", "helper_dataset.py"]
AE_HELPERS = ["helper_data.py", "helper_train.py", "helper_utils.py", "helper_plotting.py", "helper_evaluate.py"]
STANDIN = "__import__('corpus_courses2').stat453_helpers()\n"
NO_VERBOSE = (",\n                                                       verbose=True)", ")")  # gone from PyTorch 2.x


def _stat453(name, path, epochs, helpers=HELPERS, edits=()):
    folder, _, _ = path.rpartition("/")
    module = "helper_dataset" if "helper_dataset.py" in helpers else "helper_data"
    return _r(name, STAT453, path,
              [(f"from {module} import get_dataloaders_mnist", f"{STANDIN}from {module} import get_dataloaders_mnist"),
               (f"NUM_EPOCHS = {epochs}", "NUM_EPOCHS = 2"), *edits],
              support=[(f"{folder}/{h}", h) for h in helpers], keep_going=True)


RECIPES += [
    _stat453("stat453_batchnorm", "L11/code/batchnorm.ipynb", 50),
    _stat453("stat453_weight_kaiming", "L11/code/weight_kaiming.ipynb", 50),
    _stat453("stat453_weight_normal", "L11/code/weight_normal.ipynb", 50),
    _stat453("stat453_adam", "L12/code/adam.ipynb", 100),
    _stat453("stat453_adamw", "L12/code/adamW.ipynb", 100),
    _stat453("stat453_scheduler", "L12/code/scheduler.ipynb", 100, edits=[NO_VERBOSE]),
    _stat453("stat453_sgd_scheduler_momentum", "L12/code/sgd-scheduler-momentum.ipynb", 100, edits=[NO_VERBOSE]),
    _stat453("stat453_lenet5_mnist", "L13/code/1-lenet5-mnist.ipynb", 15,  # the stand-in's images stay 28x28
             edits=[("16*5*5", "16*4*4"), NO_VERBOSE]),  # (torchvision's Resize is a stub), so LeNet flattens 16x4x4
    _stat453("stat453_conv_autoencoder", "L16/conv-autoencoder_mnist.ipynb", 20, AE_HELPERS),
    _stat453("stat453_vae_mnist", "L17/1_VAE_mnist_sigmoid_mse.ipynb", 50, AE_HELPERS,
             [(".to(z_mu.get_device())", ".to(z_mu.device)")]),  # get_device() is -1 on the CPU: .to(-1) raises
]

# udlbook/udlbook: Understanding Deep Learning's notebooks that use PyTorch (exercise versions: their TODOs stay as
# given); MNIST-1D is corpus_courses2's stand-in (the package is not installed and would read a downloaded pickle)
UDL = ("udlbook/udlbook", "a8fe82b5e155cb4f42415d2461ffa23224b1173b", "CC-BY-NC-ND-4.0")
TV_MNIST = ("torchvision.datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
MNIST1D = ("import mnist1d", "mnist1d = __import__('corpus_courses2').fake_mnist1d")


def _udl(name, path, edits=()):
    return _r(name, UDL, f"Notebooks/{path}", [MNIST1D, *edits], keep_going=True)


RECIPES += [
    _udl("udl_8_1_mnist1d_performance", "Chap08/8_1_MNIST_1D_Performance.ipynb", [("n_epoch = 50", "n_epoch = 3")]),
    _udl("udl_9_5_augmentation", "Chap09/9_5_Augmentation.ipynb",
         [("n_epoch = 50", "n_epoch = 2"), ("n_epoch = 50", "n_epoch = 2")]),
    _udl("udl_10_2_convolution_mnist1d", "Chap10/10_2_Convolution_for_MNIST_1D.ipynb",
         [("n_epoch = 100", "n_epoch = 2")]),
    _r("udl_11_2_residual_networks", UDL, "Notebooks/Chap11/11_2_Residual_Networks.ipynb",
       [MNIST1D, ("n_epoch = 100", "n_epoch = 2")], keep_going=True,
       xfail="one ReLU pre-activation of the second batch lies within float32 rounding of 0 (core's matmul, summing in "
             "another order, gives 0, torch's a positive number): one gradient entry flips, and SGD with momentum "
             "0.9 at lr 0.05 amplifies it to a 25% different loss by the end of the first epoch"),
    _udl("udl_11_3_batch_normalization", "Chap11/11_3_Batch_Normalization.ipynb"),
    _udl("udl_20_1_random_data", "Chap20/20_1_Random_Data.ipynb", [("n_epoch = 60", "n_epoch = 2")] * 3),
    _r("udl_10_3_2d_convolution", UDL, "Notebooks/Chap10/10_3_2D_Convolution.ipynb", keep_going=True),
    _r("udl_10_5_convolution_mnist", UDL, "Notebooks/Chap10/10_5_Convolution_For_MNIST.ipynb", [TV_MNIST, TV_MNIST],
       keep_going=True),
    _r("udl_20_4_adversarial_attacks", UDL, "Notebooks/Chap20/20_4_Adversarial_Attacks.ipynb", [TV_MNIST, TV_MNIST],
       keep_going=True),
]

TV_CIFAR10 = ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")
RECIPES += [
    _r("dfr_hw1_mlp_sol", DFR, "HW1/sol/hw1_mlp_sol.ipynb", [("range(10000)", "range(200)")] * 2, keep_going=True),
    _r("dfr_09_ae_noisy_ae_sol", DFR, "Module9/sol/09_AE_NoisyAE_sol.ipynb",
       [("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")] * 2
       + [("data_loader=train_loader, epochs=10,", "data_loader=train_loader, epochs=1,")]
       + [("data_loader=train_loader,epochs=10,", "data_loader=train_loader,epochs=1,")] * 5, keep_going=True),
    _r("dfr_18_ddpm_nano_sol", DFR, "Module18/ddpm_nano_sol.ipynb",
       [TV_MNIST, ("num_workers=10", "num_workers=0"), ("num_epochs = 50", "num_epochs = 1"),
        ("from tqdm.notebook import tqdm", "from tqdm import tqdm"),  # the runner's tqdm
        ("num_timesteps = 1000\nnetwork = MyTinyUNet()", "num_timesteps = 20\nnetwork = MyTinyUNet()"),
        ("if t==500:", "if t==10:"), ("generate_image(model, 100, 1, 32)", "generate_image(model, 8, 1, 32)")],
       keep_going=True),  # (training meets 28x28 stand-in images: torchvision's Pad is a stub; it fails alike)
    _r("dfr_05_mlp_cifar10_sol", DFR, "Module5/sol/MLP_CIFAR10.ipynb", [TV_CIFAR10] * 2, keep_going=True),
]

# dataflowr's LLM notebooks build on minGPT (its package from karpathy/minGPT, as the notebooks clone it)
MINGPT_FILES = [(MINGPT[0], MINGPT[1], *files) for files in MINGPT_PACKAGE]
MINGPT_ITERS = ("train_config.max_iters = 1000", "train_config.max_iters = 20")  # (the exercises' TODOs stay)
RECIPES += [
    _r("dfr_llm_kv_cache", DFR, "llm/KV_cache_empty.ipynb", [MINGPT_ITERS], support=MINGPT_FILES, keep_going=True),
    _r("dfr_llm_lora", DFR, "llm/Lora_empty.ipynb", [MINGPT_ITERS], support=MINGPT_FILES, keep_going=True),
]

RECIPES += [  # fra-eng pairs: corpus_text's (the PyTorch tutorial's download, 50 pairs)
    _r("dfr_12_seq2seq_attention_sol", DFR, "Module12/12_seq2seq_attention_solution.ipynb",
       [("from __future__ import unicode_literals, print_function, division\n", ""),  # mid-cell: a SyntaxError
        ("data_path = os.path.join(ROOT_DIR,'data/')", "data_path = ''\n__import__('corpus_text').eng_fra_data()"),
        *[("n_epochs = 50000", "n_epochs = 40"), ("print_every=2500", "print_every=10")] * 2], keep_going=True),
]

RECIPES += [
    _r("stat453_resnet_example", STAT453, "L14/2-resnet-example.ipynb",
       [MNIST, MNIST, ELAPSED, ELAPSED, ("num_epochs = 10", "num_epochs = 1")], keep_going=True),
    _r("stat453_fc_to_conv", STAT453, "L14/4-fc-to-conv.ipynb", keep_going=True),
]
