"""pytorch/tutorials' recipes (func, Introduction to PyTorch, the beginner path, NLP, intermediate) and
Deep Learning with PyTorch's notebooks (``recipe_kit``).
"""

from __future__ import annotations

from recipe_kit import FASHION, NO_WORKERS, SEED, _r, _tut

RECIPES: list[dict] = []

# pytorch/tutorials: the torch.func tutorials and the "Introduction to PyTorch" video series (beginner_source/introyt)
CPU = ("device = 'cuda'", "device = 'cpu'")
TIMER = ("from torch.utils.benchmark import Timer", "from corpus_support import FixedTimer as Timer  # timings vary")
RECIPES += [
    _r("tut_func_jacobians_hessians", _tut("14f19bbffcff42ee752897e57b4b96e4972d302f"),
       "intermediate_source/jacobians_hessians.py",  # the 32x512 Hessian three ways (jacrev of jacrev: ~8 s): smaller
       [TIMER, ("Din = 512\nDout = 32", "Din = 4\nDout = 8")]),
    _r("tut_func_per_sample_grads", _tut("0bb46a4a7c3e4a4d185372221fecb5754f68fcca"),
       "intermediate_source/per_sample_grads.py",
       [CPU, TIMER, ("batch_size = 64", "batch_size = 16"), ("torch.randint(10, (64,)", "torch.randint(10, (16,)")]),
    _r("tut_func_ensembling", _tut("1dc22dff39bc8f6c862783393b70ca1e1b8ed516"),
       "intermediate_source/ensembling.py", [CPU, TIMER]),
    _r("tut_introyt_autograd", _tut("199e9530f4b72f57ba2dc222e1fd18db3efc49ed"),
       "beginner_source/introyt/autogradyt_tutorial.py",
       [("print(prf.key_averages().table(sort_by='self_cpu_time_total'))",  # timings vary
         "prf.key_averages().table(sort_by='self_cpu_time_total')")]),
    _r("tut_introyt_tensors", _tut("3664438a88e1df751350abc330c23e277a3a406b"),
       "beginner_source/introyt/tensors_deeper_tutorial.py",  # empty's memory is arbitrary: zeros
       [("x = torch.empty(3, 4)", "x = torch.zeros(3, 4)"), ("x = torch.empty(2, 2, 3)", "x = torch.zeros(2, 2, 3)"),
        ("empty_like_x = torch.empty_like(x)", "empty_like_x = torch.zeros_like(x)")]),
    _r("tut_introyt_intro", _tut("01b641c131a52233af46567f54bd451ad8474530"),
       "beginner_source/introyt/introyt1_tutorial.py",  # the first CIFAR10( is in a comment
       [("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")] * 4
       + [("num_workers=2", "num_workers=0")] * 3
       + [("if i % 2000 == 1999:", "if i % 25 == 24:"), ("running_loss / 2000", "running_loss / 25")]),
    _r("tut_introyt_training", _tut("0ac2837909020020424e9d71fea433db9d6f5e13"), "beginner_source/introyt/trainingyt.py",
       [("torchvision.datasets.FashionMNIST(", "__import__('corpus_support').fake_mnist(")] * 2
       + [("num_workers=2", "num_workers=0")] * 2
       + [("dataiter.next()", "next(dataiter)"), ("EPOCHS = 5", "EPOCHS = 2"),  # 300 images: report every 25 batches
          ("if i % 1000 == 999:\n            last_loss = running_loss / 1000",
           "if i % 25 == 24:\n            last_loss = running_loss / 25")]),
    _r("tut_introyt_models", _tut("108cc1aa7d1eeab1ecea696fd418f1b1a0eaa6e3"),
       "beginner_source/introyt/modelsyt_tutorial.py"),
    _r("tut_func_forward_ad_usage", _tut("2d52ead6fdcf053698694bfe1c11cd88758f6f11"),
       "intermediate_source/forward_ad_usage.py",
       [("import functorch as ft", "raise SystemExit  # the rest uses the legacy functorch package\nimport functorch")]),
    _r("tut_func_neural_tangent_kernels", _tut("34272e8d6470967947c5798e1ef5b0e4710cc80b"),
       "intermediate_source/neural_tangent_kernels.py",  # 20 x 5 images of 32x32: 2 x 1 of 8x8 here
       [CPU, ("nn.Linear(21632, 10)", "nn.Linear(128, 10)"), ("torch.randn(20, 3, 32, 32,", "torch.randn(2, 3, 8, 8,"),
        ("torch.randn(5, 3, 32, 32,", "torch.randn(1, 3, 8, 8,")]),
    _r("tut_custom_function_double_backward", _tut("0ece40a1f1c8b0adb2c03fe2cb480762b96c09ee"),
       "intermediate_source/custom_function_double_backward_tutorial.py",
       [("import torchviz", "torchviz = __import__('corpus_support').FakeTorchviz()  # prints what it would draw")]),
    _r("tut_leaf_vs_nonleaf", _tut("166b89853d624f0e93fea056d01830e1a0246b1f"),
       "beginner_source/understanding_leaf_vs_nonleaf_tutorial.py"),
    _r("tut_visualizing_gradients", _tut("4577e7a71bde7a93bcb8b4f64a4482c6d18464bf"),
       "intermediate_source/visualizing_gradients_tutorial.py",
       [("fig, ax = plt.subplots()", "print(layer_idx_bn, avg_grads_bn)\nprint(layer_idx_nobn, avg_grads_nobn)\n"
                                     "fig, ax = plt.subplots()")]),
    _r("tut_autograd_saved_tensors_hooks", _tut("4a7bbb95617c3205bf25a5b37e262d577eb82847"),
       "intermediate_source/autograd_saved_tensors_hooks_tutorial.py"),
    _r("tut_custom_function_conv_bn", _tut("00e250bb5194997fb2c89f073c58d5e8c4cd1d2b"),
       "intermediate_source/custom_function_conv_bn_tutorial.py",  # on CPU: no peak-memory hook in torch's build
       [("datasets.MNIST(", "__import__('corpus_support').fake_mnist_small(")] * 2
       + [("    torch.cuda.reset_peak_memory_stats()\n", ""),
          ("X = torch.rand(10, 3, 7, 7,", "X = torch.rand(2, 3, 5, 5,")]),  # gradcheck took 2 s in torch
]

# pytorch/tutorials: the beginner path ("Learn the Basics", the 60-minute blitz, "Learning PyTorch with Examples",
# "What is torch.nn really?"); FashionMNIST is corpus_support's fake_fashion_mnist
BASICS = "beginner_source/basics/"
POLY_SHORT = ("for t in range(2000):", "for t in range(500):")
RECIPES += [
    _r("tut_basics_quickstart", _tut("afcd669d56554c2ef46f2da92edbfaf8c54043ec"), BASICS + "quickstart_tutorial.py",
       [SEED, FASHION, FASHION]),
    _r("tut_basics_tensorqs", _tut("7a5420a2093171a4560d25d4a19d95aa0ae6d8c7"), BASICS + "tensorqs_tutorial.py",
       [SEED]),
    _r("tut_basics_data", _tut("f3392fc931972547d1fb231693e5809667346a5e"), BASICS + "data_tutorial.py",
       [SEED, FASHION, FASHION]),
    _r("tut_basics_transforms", _tut("2aabe77e0363c41b8dbac414a53877cfe24f5a40"), BASICS + "transforms_tutorial.py",
       [SEED, FASHION, ("target_transform = Lambda(", "print(ds[0][1], ds[1][1])\ntarget_transform = Lambda(")]),
    _r("tut_basics_buildmodel", _tut("c53e7d4efc0e39e455c531d21ec7db28ba220214"), BASICS + "buildmodel_tutorial.py",
       [SEED]),
    _r("tut_basics_autogradqs", _tut("db77dcf6e3637924f43852c014f2af9978b0f891"), BASICS + "autogradqs_tutorial.py",
       [SEED]),
    _r("tut_basics_optimization", _tut("802d68671f544c32347a2f1e780b80fcc2d8c9e7"),
       BASICS + "optimization_tutorial.py", [SEED, FASHION, FASHION, ("epochs = 10", "epochs = 2")]),
    _r("tut_blitz_tensor", _tut("1dc0de7f777e3aac6c073db3f710f6f735923762"), "beginner_source/blitz/tensor_tutorial.py",
       [SEED, ("x = torch.empty(5, 3)", "x = torch.zeros(5, 3)  # empty's memory is arbitrary")]),
    _r("tut_blitz_autograd", _tut("56d1da96ef0e5acf5187d89c27d6ca6178170bc5"),
       "beginner_source/blitz/autograd_tutorial.py", [SEED]),
    _r("tut_blitz_neural_networks", _tut("7a017bba463ba73cfd9d48aabc7e05827a680906"),
       "beginner_source/blitz/neural_networks_tutorial.py", [SEED]),
    _r("tut_blitz_cifar10", _tut("c53e7d4efc0e39e455c531d21ec7db28ba220214"), "beginner_source/blitz/cifar10_tutorial.py",
       [SEED, ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("),
        ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10("), NO_WORKERS, NO_WORKERS,
        ("if i % 2000 == 1999:", "if i % 20 == 19:"), ("running_loss / 2000:", "running_loss / 20:")]),
    _r("tut_blitz_data_parallel", _tut("cc541c0ed7ae6569b782ee3ae18016c9fe9ded05"),
       "beginner_source/blitz/data_parallel_tutorial.py", [SEED]),
    # "Learning PyTorch with Examples": the third-order polynomial fitted to sin(x), 2000 steps cut to 500
    _r("tut_examples_polynomial_tensor", _tut("4fe88118795089fb1d5d4b1e91834ea6e31f67e4"),
       "beginner_source/examples_tensor/polynomial_tensor.py", [SEED, POLY_SHORT]),
    _r("tut_examples_polynomial_autograd", _tut("92f11a171bb3f3f6bbd8dfb102c59d67c2385032"),
       "beginner_source/examples_autograd/polynomial_autograd.py", [SEED, POLY_SHORT]),
    _r("tut_examples_polynomial_custom_function", _tut("c53e7d4efc0e39e455c531d21ec7db28ba220214"),
       "beginner_source/examples_autograd/polynomial_custom_function.py", [SEED, POLY_SHORT]),
    _r("tut_examples_polynomial_nn", _tut("90fb0068a1941e996b100fd9b4e05dbaa497076e"),
       "beginner_source/examples_nn/polynomial_nn.py", [SEED, POLY_SHORT]),
    _r("tut_examples_polynomial_optim", _tut("96efa19f4e1be1b64c5474c1f3ae18a47d98aa90"),
       "beginner_source/examples_nn/polynomial_optim.py", [SEED, POLY_SHORT]),
    _r("tut_examples_polynomial_module", _tut("c53e7d4efc0e39e455c531d21ec7db28ba220214"),
       "beginner_source/examples_nn/polynomial_module.py", [SEED, POLY_SHORT]),
    _r("tut_examples_dynamic_net", _tut("e13beed18d7cc24f9ed01746a6d03325ce622800"),  # a 2018 version: loss.data[0]
       "beginner_source/examples_nn/dynamic_net.py", [SEED]),
    _r("tut_nn_tutorial", _tut("764a8d6aed986f155098d91ea55a1f0c95b26dd8"), "beginner_source/nn_tutorial.py",
       [("if not (PATH / FILENAME).exists():", "if False:  # corpus_support's stand-in below needs no download"),
        ('with gzip.open((PATH / FILENAME).as_posix(), "rb") as f:\n'
         '        ((x_train, y_train), (x_valid, y_valid), _) = pickle.load(f, encoding="latin-1")',
         "((x_train, y_train), (x_valid, y_valid), _) = __import__('corpus_support').fake_mnist_pickle()"), SEED]),
    # "PyTorch for former Torch users" (2018): module hooks, the legacy register_backward_hook, index_add_
    _r("tut_former_torchies_tensor", _tut("4ba126213d3cfa9e10ecde3faaf3d93e9d9d02c1"),
       "beginner_source/former_torchies/tensor_tutorial.py", [SEED]),
    _r("tut_former_torchies_nnft", _tut("560afe606d62af26831dcf847c74da134fedb14a"),
       "beginner_source/former_torchies/nnft_tutorial.py", [SEED]),
    _r("tut_former_torchies_autograd", _tut("803c1b1273a47bc53bb6cd5f63eecfb897bbc856"),
       "beginner_source/former_torchies/autograd_tutorial.py", [SEED]),
    # a recipe the beginner path links to: printing a model's and an optimizer's state_dict
    _r("tut_recipe_what_is_state_dict", _tut("7c05b6bfde8f379c2bc9ec1f2af7acf21b25d8fa"),
       "recipes_source/recipes/what_is_state_dict.py", [SEED]),
]

# deep-learning-with-pytorch/dlwpt-code: "Deep Learning with PyTorch" (Stevens, Antiga, Viehmann), part 1's notebooks
DLWPT = ("deep-learning-with-pytorch/dlwpt-code", "d6c0210143daa133bbdeddaffc8993b1e17b5174", "none stated")
RECIPES += [
    _r("dlwpt_p1ch3_tensors", DLWPT, "p1ch3/1_tensors.ipynb",  # ids of two freed temporaries: chance in CPython
       [("id(points.storage()) == id(points_t.storage())",
         "points.storage().data_ptr() == points_t.storage().data_ptr()")]),
    _r("dlwpt_p1ch5_parameter_estimation", DLWPT, "p1ch5/1_parameter_estimation.ipynb"),
    _r("dlwpt_p1ch5_autograd", DLWPT, "p1ch5/2_autograd.ipynb"),
    _r("dlwpt_p1ch5_optimizers", DLWPT, "p1ch5/3_optimizers.ipynb"),
    _r("dlwpt_p1ch6_neural_networks", DLWPT, "p1ch6/1_neural_networks.ipynb",
       xfail="float32 GEMMs: PyTorch's sgemm and NumPy's round about half of a Linear layer's outputs one ulp apart; "
             "5000 epochs at lr 1e-3 amplify that to 0.05% of the training loss by epoch 2000"),
    _r("dlwpt_p1ch6_activation_functions", DLWPT, "p1ch6/2_activation_functions.ipynb"),
    _r("dlwpt_p1ch6_nn_module_subclassing", DLWPT, "p1ch6/3_nn_module_subclassing.ipynb"),
]
