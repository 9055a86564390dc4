"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Learner and course material not yet covered, fourth batch (2026-12-07, corpus helper s37 corpus37), prefix ``ln4_``:
- ``ln4_eat_*``: lyhue1991's 《20天吃掉那只Pytorch》 (eat_pytorch_in_20_days, Chinese, Apache-2.0): tensors, autograd,
  dynamic graphs, the low- and mid-level APIs, tensor structure and maths, ``nn.functional``/``nn.Module``,
  ``Dataset``/``DataLoader``, model layers and losses, cell by cell (its ``printbar`` clock fixed);
- ``ln4_lrs_*``: chinacpp's 学习率优化策略 scripts (2022): each of torch's 14 learning-rate schedulers stepped 100 times
  on an SGD optimizer, the whole list of learning rates printed in full where the scripts plot it;
- ``ln4_ctb_*``: Corley Tang's PyTorchBasic (2022), his code for a Chinese PyTorch course, section by section;
- ``ln4_gp_*``: Sangwoong Yoon's pytorch-minimal-gaussian-process (2023): GP regression and Laplace GP classification
  in float64 (Cholesky factors, triangular solves), hyperparameters fitted by SGD on the marginal likelihood; what
  its demos plot is printed;
- ``ln4_mo_*``: Jan Krepl's mildlyoverfitted mini-tutorials (MIT, 2024): Rosenbrock minimised by Adam, SGD and a custom
  ``Optimizer`` subclass under ``clip_grad_norm_``, a BatchNorm's buffers, forward hooks;
- ``ln4_pt_*``: Alex Torres' Portuguese Introdução ao PyTorch notebooks (MIT, 2019): tensors, data as tensors,
  ``Variable``, ``Dataset``/``DataLoader`` (MNIST: the seeded stand-in), linear regression, a first model;
- ``ln4_sb_*``: Shirish Bahirat's PyTorch study scripts (2022): autograd by hand and by ``backward``, gradient
  descent, linear, polynomial and logistic regression, softmax and cross-entropy, small networks and a GAN;
- ``ln4_nyu18_regression``: Yunfei Teng's PyTorch recitation for NYU's EL-9133 (Spring 2018): polynomial regression in
  2018's API (``loss.data[0]`` on a 0-dim loss, which torch now refuses: core refuses alike);
- ``ln4_dlfs_*``: BrenchCC's Deep-Learning-From-Scratch-PyTorch (Chinese, Apache-2.0, 2026): dimension operations with
  their strides and contiguity, SGD and AdamW written as ``Optimizer`` subclasses, batch/layer/RMS norms by hand
  against torch's, label smoothing and other regularisers, an LSTM's shapes; their ``logging`` lines sent to stdout
  without a clock;
- ``ln4_zzy_*``: ZZy979's pytorch-tutorial study code (Chinese, 2021): retyped beginner pages (a two-layer net, the
  blitz's LeNet) and Deep Learning Wizard's linear regression.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

EAT = ("lyhue1991/eat_pytorch_in_20_days", "29a448722cf4993f3a3df4c6416af81c2514af40", "Apache-2.0")
EAT_CLOCK = ("nowtime = datetime.datetime.now().strftime('%Y-%m-%d %H:%M:%S')", "nowtime = '<time>'")  # a clock


def _eat(name, path, edits=()):
    """One of the book's chapters, cell by cell as Jupyter runs it."""
    return _r(f"ln4_eat_{name}", EAT, path, list(edits), keep_going=True)


RECIPES += [
    _eat("2_1_tensors", "2-1,张量数据结构.ipynb",  # an uninitialised IntTensor(1): torch prints its allocator's leftovers
         [("i = torch.IntTensor(1)", "i = torch.zeros(1, dtype=torch.int32)")]),
    _eat("2_2_autograd", "2-2,自动微分机制.ipynb"),
    _eat("2_3_dynamic_graph", "2-3,动态计算图.ipynb"),
    _eat("3_1_low_level_api", "3-1,低阶API示范.ipynb",
         [EAT_CLOCK, ("train_model(model,epochs = 200)", "train_model(model,epochs = 20)"),
          ("train_model(model,epochs = 100)", "train_model(model,epochs = 10)")]),
    _eat("3_2_mid_level_api", "3-2,中阶API示范.ipynb", [EAT_CLOCK, *[("epochs = 50)", "epochs = 10)")] * 2]),
    _eat("4_1_tensor_structure", "4-1,张量的结构操作.ipynb"),
    _eat("4_2_tensor_maths", "4-2,张量的数学运算.ipynb"),
    _eat("4_3_functional_module", "4-3,nn.functional和nn.Module.ipynb"),
    _eat("5_1_dataset_dataloader", "5-1,Dataset和DataLoader.ipynb"),
    _eat("5_2_layers", "5-2,模型层.ipynb"),
    _eat("5_3_losses", "5-3,损失函数.ipynb"),
    _eat("6_1_build_models", "6-1,构建模型的3种方法.ipynb"),
]

LRS = ("chinacpp/my-code", "ed5c34febc30c35cf567aa50d4effe8665ff910e", "none stated")
LRS_PRINT = ("    plt.plot(range(", "    print(learning_rates)\n    plt.plot(range(")  # (the plot shows the whole list)
RECIPES += [
    _r(f"ln4_lrs_{n:02d}_{name.lower()}", LRS, f"学习率优化策略/{n:02d}-{name}.py",
       [LRS_PRINT if name != "ConstantLR" else  # (it prints each rate to 5 decimals and plots nothing)
        ("print('%.5f' % scheduler.get_last_lr()[0])", "print('%.5f' % scheduler.get_last_lr()[0], scheduler.get_last_lr())")])
    for n, name in enumerate(("LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR",
                              "ExponentialLR", "CosineAnnealingLR", "ChainedScheduler", "SequentialLR",
                              "ReduceLROnPlateau", "CyclicLR", "OneCycleLR", "CosineAnnealingWarmRestarts"), 1)
]

# corleytd/PyTorchBasic: Corley Tang's retyping of a Chinese PyTorch course (2022); its lessons pick one section with
# ``flag = N`` (or switch sections on with ``flag = True``): each section is its own recipe here, or every section on
CTB = ("corleytd/PyTorchBasic", "d1331182e7f23c36bda13172710a1d974e719e96", "none stated")
CTB_TOOLS = [(f"tools/{m}.py", f"tools/{m}.py") for m in ("__init__", "common_tools")]
CTB_MODELS = [(f"models/{m}.py", f"models/{m}.py") for m in ("__init__", "lenet")]


def _ctb(name, path, edits=(), *, flag=None, support=()):
    """One lesson (``codes/<path>``) once, or, with ``flag=(chosen, n)``, once per section: its ``flag = chosen``
    line set to each of 0..n-1."""
    support = [*CTB_TOOLS, *support]
    if flag is None:
        return [_r(f"ln4_ctb_{name}", CTB, f"codes/{path}", list(edits), support=support)]
    return [_r(f"ln4_ctb_{name}_{k}", CTB, f"codes/{path}", [(f"\nflag = {flag[0]}\n", f"\nflag = {k}\n"), *edits],
               support=support) for k in range(flag[1])]


ALL_ON = ("\nflag = False\n", "\nflag = True\n")
PLOTTED_LRS = ("plt.plot(epochs, lrs,", "print(lrs); plt.plot(epochs,lrs,")  # (each section plots its rates)
RECIPES += [
    *_ctb("auto_grad", "1_basic/auto_grad.py", [ALL_ON] * 6 + [("print(id(a), a)", "print(a)")] * 4),
    *_ctb("computational_graph", "1_basic/computational_graph.py"),
    *_ctb("hello_pytorch", "1_basic/hello_pytorch.py"),
    *_ctb("linear_regression", "1_basic/linear_regression.py"),
    *_ctb("logistic_regression", "1_basic/logistic_regression.py"),
    *_ctb("tensor_create", "1_basic/tensor_create.py", [ALL_ON] * 6 + [
        ("print(id(arr), id(t.data))", "print(type(arr), type(t.data))")] * 2 + [
        ("print(id(arr.data), id(t.data))", "print(type(arr.data), type(t.data))"),
        ("print(id(t), id(out_t), id(t) == id(out_t))", "print(id(t) == id(out_t))")]),
    *_ctb("tensor_operation", "1_basic/tensor_operation.py", [ALL_ON] * 9 + [
        ("print(id(t.data), id(t_res.data))", "print(t.data_ptr() == t_res.data_ptr())")]),
    *_ctb("module_containers", "3_modules/module_containers.py"),
    *_ctb("gradient_vanish_explode", "4_lr_loss_optim/gradient_valish_explode.py", flag=(1, 2)),
    *_ctb("learning_rate", "4_lr_loss_optim/learning_rate.py", flag=(2, 3)),
    *_ctb("loss_function", "4_lr_loss_optim/loss_function.py", flag=(14, 15)),
    *_ctb("lr_decay_scheduler", "4_lr_loss_optim/lr_decay_scheduler.py", [PLOTTED_LRS] * 4 + [
        ("        scheduler.step(loss)\n", "        scheduler.step(loss)\n        print(epoch, optimizer.param_groups[0]['lr'])\n"),
        ("plt.plot(epochs, [lr[0] for lr in lrs],", "print(lrs); plt.plot(epochs, [lr[0] for lr in lrs],")], flag=(5, 6)),
    *_ctb("momentum", "4_lr_loss_optim/momentum.py", flag=(2, 3)),
    *_ctb("optimizer_methods", "4_lr_loss_optim/optimizer_methods.py", [
        ("{id(optimizer.param_groups[0][\"params\"][0])}", "{optimizer.param_groups[0][\"params\"][0] is weight}"),
        ("{id(weight)}", "{True}")], flag=(2, 3)),
    *_ctb("hook_methods", "5_visualize_and_hook/hook_methods.py", flag=(2, 3)),
    *_ctb("bn_and_weight_init", "6_regularization/bn_and_weight_init.py", flag=(4, 5)),
    *_ctb("bn_in_123_dim", "6_regularization/bn_in_123_dim.py", flag=(1, 3)),
    *_ctb("dropout_in_torch", "6_regularization/dropout_in_torch.py"),
    *_ctb("norm_layers", "6_regularization/norm_layers.py", flag=(4, 5)),
    *[_r(f"ln4_ctb_model_save_load_{k}", CTB, "codes/7_utilities/model_save_load.py",
         [("\nflag = 3\n", f"\nflag = {k}\n"), ("if flag == 0:", f"if flag in (0, {k}):"),  # (section 0 saves)
          ("'output/model.pkl'", "'model.pkl'"), ("'output/state_dict.pkl'", "'state_dict.pkl'")],  # (no output/)
         support=[*CTB_TOOLS, *CTB_MODELS]) for k in range(4)],
]

GP = ("swyoon/pytorch-minimal-gaussian-process", "4cf44e69bafb38c3275a03ba63570f247deb6531", "none stated")
GP_REPORT = [("fig, axs = plt.subplots(ncols=4, figsize=(16,4))",  # (what the demos plot)
              "print(l_loss, torch.stack(l_length), torch.stack(l_amp))\nfig, axs = plt.subplots(ncols=4, figsize=(16, 4))"),
             ("plt.title('Before hyperparameter optimization')", "print(mu, std); plt.title('Before')"),
             ("plt.title('After hyperparameter optimization')", "print(mu, std); plt.title('After')")]
GPC_REPORT = [(GP_REPORT[0][0], GP_REPORT[0][1]), ("plt.suptitle('Before hyperparameter optimization')",
                                                   "print(mu, std, pi); plt.suptitle('Before')"),
              ("plt.suptitle('After hyperparameter optimization')", "print(mu, std, pi); plt.suptitle('After')")]
# NOTE: the data are float32, so the kernel matrices are too: they are torch's bit for bit, their Cholesky factors not
# (LAPACK's spotrf: MKL's blocked order in torch; 4067 of 10000 elements of the first demo's factor a bit apart)
GP_CHOLESKY = ("float32 Cholesky factors in another summation order (MKL's spotrf in torch): the kernel matrix is "
               "torch's bit for bit, its factor differs in the last bit in 4067 of 10000 elements, so the printed "
               "means differ in the 7th digit (-0.0631789 vs -0.06317886)")
RECIPES += [
    _r("ln4_gp_demo_gpr", GP, "demo_gpr.ipynb", GP_REPORT, support=[("gp.py", "gp.py")], keep_going=True,
       xfail=GP_CHOLESKY),
    _r("ln4_gp_demo_binary_gpc", GP, "demo_binary_gpc.ipynb", [("device = 'cuda:1'", "device = 'cpu'"), *GPC_REPORT * 2],
       support=[("binary_laplace_gpc.py", "binary_laplace_gpc.py")], keep_going=True, xfail=GP_CHOLESKY),
]

MO = ("jankrepl/mildlyoverfitted", "22f0ecc67cef14267ee91ff2e4df6bf9f6d65bc2", "MIT")
RECIPES += [
    _r("ln4_mo_custom_optimizer", MO, "mini_tutorials/custom_optimizer_in_pytorch/src.py",
       # (it animates the paths; its WeirdDescent's np.random.choice over a list of tensors calls numpy() on a leaf
       # that requires grad and raises alike in both runs, before the script's own print)
       [("    path_weird = run_optimization(", "    print(path_adam[::100], path_sgd[::100])\n    path_weird = run_optimization(")],
       support=[("mini_tutorials/custom_optimizer_in_pytorch/custom.py", "custom.py")]),
    _r("ln4_mo_buffers_in_torch", MO, "mini_tutorials/haiku_basics/buffers_in_torch.py"),
    _r("ln4_mo_forward_hooks", MO, "mini_tutorials/visualizing_activations_with_forward_hooks/src.py",
       [("    y = net(x)\n    handle_1.remove()\n    y = net(x)", "    y = net(x)\n    handle_1.remove()\n    y = net(x)\n    print(y)")]),
]

PT = ("alexst07/pytorch-intro", "274f570910c53f10b91c1a68d03525e963032389", "MIT")
RECIPES += [
    _r(f"ln4_pt_{name.lower()}", PT, f"{name}.ipynb", edits, keep_going=True) for name, edits in (
        ("Tensores", []), ("data", []), ("Variaveis", []), ("Linear", []), ("simple_model", []),
        ("loading_data", [("dset.MNIST(", "__import__('corpus_support').fake_mnist(")] * 2))
]

SB = ("shirishbahirat/pytorch", "5625182aeea134f77a60fb29185919b2ec4a382b", "none stated")
SB_FILES = """loss poly tx grad quad auto_grad pytorch_lin lin_regession linear_regression te log_regession ta tb tc td tensor
tm la bc torch_grad tg logistic torch_grad_class tz ty cross_entrophy linreg bd be lin_reg gra grad_opti lin-reg
neural_operator to softmax grad_model pinnn pytorch_basic lin-reg-nn auto_encod gan_t pytrch_dl""".split()
SB_NAMES = {"lin-reg": "lin_reg_2", "lin-reg-nn": "lin_reg_nn"}  # (lin_reg.py is another script)
SB_EDITS = {"gan_t": [("num_epochs = 5000", "num_epochs = 50"),  # (its GAN in 50 lines)
                      ("print_interval = 100", "print_interval = 10")],
            "logistic": [("range(10000)", "range(1000)")],  # (each prints its loss at every step)
            **{f: [("range(5000)", "range(500)")] for f in ("neural_operator", "to", "pinnn")}}
RECIPES += [_r(f"ln4_sb_{SB_NAMES.get(f, f)}", SB, f"{f}.py", SB_EDITS.get(f, ())) for f in SB_FILES]

NYU18 = ("yunfei-teng/PyTorch-Tutorial-Spring-2018", "49ecdf9869ecaa31975929116af723125937c1b8", "none stated")
RECIPES += [_r("ln4_nyu18_regression", NYU18, "recitation1/regression/regression.py")]

DLFS = ("BrenchCC/Deep-Learning-From-Scratch-PyTorch", "484f0664af24010f83297a1e2fe405152cceb1ad", "Apache-2.0")
DLFS_LOG = [("format = '%(asctime)s - %(name)s - %(levelname)s - %(message)s'",  # (a clock, on stderr)
             "format = '%(name)s - %(levelname)s - %(message)s'"),
            ("handlers = [logging.StreamHandler()]", "handlers = [logging.StreamHandler(sys.stdout)], force = True")]
RECIPES += [_r(f"ln4_dlfs_{name}", DLFS, path, DLFS_LOG) for name, path in (
    ("dim_transform", "chapter_01_tensor_autograd/dim_transform_torch.py"),
    ("optimizers", "chapter_03_optimization_regularization/optimizers.py"),
    ("normalization", "chapter_03_optimization_regularization/normalization.py"),
    ("regularization", "chapter_03_optimization_regularization/regularization.py"))]
DLFS_UTILS = [(f"utils/{m}.py", f"utils/{m}.py") for m in ("__init__", "data_presets", "device", "file_io_util",
                                                             "logging_util", "model_summary", "seed", "timer", "train_loop")]
RECIPES += [_r("ln4_dlfs_lstm_easy_demo", DLFS, "chapter_06_rnn_lstm_seq/examples/easy_demo.py", support=DLFS_UTILS)]

ZZY = ("ZZy979/pytorch-tutorial", "61d33441b15521bc7f0fc83244594c672af8de9e", "none stated")
RECIPES += [_r(f"ln4_zzy_{name}", ZZY, path) for name, path in (
    ("two_layer_net", "beginner/two_layer_net.py"), ("neural_networks", "beginner/neural_networks_tutorial.py"),
    ("dlwizard_linear_regression", "dlwizard/linear_regression.py"))]
