"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Small third-party libraries written against torch's public API (2026-12-05, corpus helper J): optimizer packages
(jettify's torch_optimizer, lucidrains' Lion, facebookresearch's MADGRAD, davda54's SAM, lessw2020's Ranger,
Luolc's AdaBound), schedulers (ildoonet's gradual warmup, katsura-jp's cosine annealing with warmup), a model
summary (sksq96's torchsummary), a focal loss, SSIM and an exponential moving average of parameters. Each recipe
fetches the library's module as its script and appends a call to a driver in ``corpus_libraries.py`` (our text),
which trains a tiny seeded model with it and prints losses, learning rates, reprs, ``state`` and ``state_dict``.
Where the repository has its own demo (the warmup scheduler's ``run.py``, SSIM's ``max_ssim.py``), that is the script.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

DRIVERS = "__import__('corpus_libraries')"


def _then(tail, call):
    """Append ``call`` (a driver call) after ``tail``, the module's last lines."""
    return (tail, f"{tail}\n\n\n{call}\n")


TORCH_OPTIMIZER = ("jettify/pytorch-optimizer", "19c3e41952b94f2d60db06e559ee9a1433b25e53", "Apache-2.0")
RETURN = "\n\n        return loss"


def _to(module, make, tail, *, driver="optimizer", options="", **kw):
    """torch_optimizer/MODULE.py (its ``types`` module beside it in a namespace package) driven with ``make``."""
    edits = [("from .types import", "from torch_optimizer.types import"),
             _then(tail, f"{DRIVERS}.{driver}(lambda p: {make}{options})")]
    return _r(f"lib_torch_optimizer_{module}", TORCH_OPTIMIZER, f"torch_optimizer/{module}.py", edits,
              support=[("torch_optimizer/types.py", "torch_optimizer/types.py")], **kw)


RECIPES += [
    _to("a2grad", "A2GradExp(p, beta=2, lips=5)",
        '                state["alpha_k"] = alpha_k_1\n                state["step"] += 1' + RETURN),
    _to("accsgd", "AccSGD(p, lr=0.1)", "                p.data.add_(buf, alpha=1.0 - zeta)" + RETURN),
    _to("adabelief", "AdaBelief(p, lr=0.01)", '                        p.data.add_(-group["lr"], exp_avg)' + RETURN),
    _to("adabound", "AdaBound(p, lr=0.01)", "                p.data.add_(-step_size)\n        return loss"),
    _to("adafactor", "Adafactor(p)", "                p.data.add_(-update)" + RETURN),
    _to("adahessian", "Adahessian(p, lr=0.1, seed=0)",
        '                + group["weight_decay"] * p.data\n            )' + RETURN, options=", create_graph=True"),
    _to("adamod", "AdaMod(p, lr=0.01)", "                p.data.add_(-step_size)" + RETURN),
    _to("adamp", "AdamP(p, lr=0.01)", "                p.data.add_(perturb, alpha=-step_size)" + RETURN),
    _to("aggmo", "AggMo(p, lr=0.05)", '                    p.data.sub_(buf, alpha=group["lr"] / total_mom)\n        return loss'),
    _to("apollo", "Apollo(p, lr=0.01, warmup=3)", "                p.data.add_(d_p, alpha=-curr_lr)" + RETURN),
    _to("diffgrad", "DiffGrad(p, lr=0.01)", "                p.data.addcdiv_(exp_avg1, denom, value=-step_size)" + RETURN),
    _to("lamb", "Lamb(p, lr=0.02, weight_decay=0.01)",
        "                p.data.add_(adam_step, alpha=-step_size * trust_ratio)" + RETURN),
    _to("lars", "LARS(p, lr=0.1, momentum=0.9)", '                p.add_(d_p, alpha=-group["lr"])' + RETURN),
    _to("lion", "Lion(p, lr=0.003, weight_decay=0.01)",
        "                exp_avg.mul_(beta2).add_(grad, alpha=1 - beta2)" + RETURN),
    _to("lookahead", "Lookahead(torch.optim.Adam(p, lr=0.02), k=3, alpha=0.5)", "        return format_string"),
    _to("madgrad", "MADGRAD(p, lr=0.01, momentum=0.9)", '            group["k"] = group["k"] + 1\n        return loss'),
    _to("novograd", "NovoGrad(p, lr=0.05, grad_averaging=True)",
        '                p.data.add_(exp_avg, alpha=-group["lr"])' + RETURN),
    _to("pid", "PID(p, lr=0.05, momentum=0.9, integral=2.0, derivative=5.0)",
        '                p.data.add_(d_p, alpha=-group["lr"])\n        return loss'),
    _to("qhadam", "QHAdam(p, lr=0.01)", "                p.data.addcdiv_(avg_grad, avg_grad_rms, value=-lr)" + RETURN),
    _to("qhm", "QHM(p, lr=0.1)", "                p.data.add_(d_p, alpha=-lr * (1.0 - nu))" + RETURN),
    _to("radam", "RAdam(p, lr=0.01)", "                p.data.copy_(p_data_fp32)" + RETURN),
    _to("sgdp", "SGDP(p, lr=0.1, momentum=0.9, nesterov=True)", '                p.data.add_(d_p, alpha=-group["lr"])' + RETURN),
    _to("sgdw", "SGDW(p, lr=0.1, momentum=0.9, weight_decay=0.01)",
        '                    p.data.add_(weight_decay, alpha=-group["lr"])\n        return loss'),
    _to("shampoo", "Shampoo(p, lr=0.05, momentum=0.5, epsilon=1.0, update_freq=2)",
        '                p.data.add_(grad, alpha=-group["lr"])' + RETURN),
    _to("swats", "SWATS(p, lr=0.01)", '                        group["lr"] = corrected_exp_avg.item()\n        return loss'),
    _to("yogi", "Yogi(p, lr=0.05)", "                p.data.addcdiv_(exp_avg, denom, value=-step_size)" + RETURN),
]

LION = ("lucidrains/lion-pytorch", "6a74fdc0ba572ab5683dc0270c66c20ecbc02d09", "MIT")
MADGRAD = ("facebookresearch/madgrad", "0d858b919a703ebee0a5feb674b7f710d02db09e", "MIT")
SAM = ("davda54/sam", "3c3afdbd71cff2462ec91c734b3d1170bd0f3707", "MIT")
RANGER = ("lessw2020/Ranger-Deep-Learning-Optimizer", "c82a30460684c7301086d84185a1927b1c256afa", "Apache-2.0")
ADABOUND = ("Luolc/AdaBound", "2e928c3007a2fc44af0e4c97e343e1fed6986e44", "Apache-2.0")
WARMUP = ("ildoonet/pytorch-gradual-warmup-lr", "7021d63a49106e22c79b40564a7d39930e7b0f53", "MIT")
COSINE = ("katsura-jp/pytorch-cosine-annealing-with-warmup", "12d03c07553aedd3d9e9155e2b3e31ce8c64081a", "MIT")
SUMMARY = ("sksq96/pytorch-summary", "345d898d84507b848e92dab4629e03405e19afce", "MIT")
FOCAL = ("AdeelH/pytorch-multi-class-focal-loss", "2477bf68ac61d2d2e5e044c63f70b156073c5ffd", "MIT")
SSIM = ("Po-Hsun-Su/pytorch-ssim", "3add4532d3f633316cba235da1c69e90f0dfb952", "MIT")
EMA = ("fadel/pytorch_ema", "d661859ad4206217afb274be709837d19218b3f8", "MIT")


def _opt(name, source, path, tail, *calls, **kw):
    return _r(f"lib_{name}", source, path, [_then(tail, "\n".join(f"{DRIVERS}.{c}" for c in calls))], **kw)


RANGER_TAIL = "                    p.data.copy_(slow_p)" + RETURN
RECIPES += [
    _opt("lion_pytorch", LION, "lion_pytorch/lion_pytorch.py", "                )" + RETURN,
         "optimizer(lambda p: Lion(p, lr=0.003, weight_decay=0.01))",
         "optimizer(lambda p: Lion(p, lr=0.003, betas=(0.95, 0.98), decoupled_weight_decay=True), groups=True)"),
    _opt("madgrad", MADGRAD, "madgrad/madgrad.py", "        self.state['k'] += 1\n        return loss",
         "optimizer(lambda p: MADGRAD(p, lr=0.01))", "optimizer(lambda p: MADGRAD(p, lr=0.01, momentum=0, weight_decay=0.01, decouple_decay=True))"),
    _opt("mirror_madgrad", MADGRAD, "madgrad/mirror_madgrad.py", "        self.state['k'] += 1\n        return loss",
         "optimizer(lambda p: MirrorMADGRAD(p, lr=0.01))"),
    _opt("sam", SAM, "sam.py", "        self.base_optimizer.param_groups = self.param_groups", "sam(SAM)", "sam(SAM, adaptive=True)"),
    _opt("ranger", RANGER, "ranger/ranger.py", RANGER_TAIL, "optimizer(lambda p: Ranger(p, lr=0.01, k=3))"),
    _opt("ranger2020", RANGER, "ranger/ranger2020.py", RANGER_TAIL,
         "optimizer(lambda p: Ranger(p, lr=0.01, k=3, use_gc=True, gc_conv_only=False))"),
    _opt("ranger913a", RANGER, "ranger/ranger913A.py",
         "                    p.data.copy_(slow_p)  #copy interpolated weights to RAdam param tensor" + RETURN,
         "optimizer(lambda p: RangerVA(p, lr=0.01, k=3))"),
    _opt("rangerqh", RANGER, "ranger/rangerqh.py",
         '        return {"lr": params.alpha, "nus": (params.nu1, params.nu2), "betas": (params.beta1, params.beta2)}',
         "optimizer(lambda p: RangerQH(p, lr=0.01, k=3))"),
    _opt("adabound", ADABOUND, "adabound/adabound.py", "                    p.data.add_(-step_size)" + RETURN,
         "optimizer(lambda p: AdaBound(p, lr=0.01, final_lr=0.1))",
         "optimizer(lambda p: AdaBoundW(p, lr=0.01, final_lr=0.1, weight_decay=0.01, amsbound=True))"),
    _opt("cosine_annealing_warmup", COSINE, "cosine_annealing_warmup/scheduler.py", "            param_group['lr'] = lr",
         "scheduler(lambda o: CosineAnnealingWarmupRestarts(o, first_cycle_steps=5, cycle_mult=2.0, max_lr=0.1, "
         "min_lr=0.001, warmup_steps=2, gamma=0.5), epochs=16)"),
    _opt("gradual_warmup", WARMUP, "warmup_scheduler/scheduler.py", "            self.step_ReduceLROnPlateau(metrics, epoch)",
         "scheduler(lambda o: GradualWarmupScheduler(o, multiplier=2, total_epoch=4, "
         "after_scheduler=torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=8)))",
         "scheduler(lambda o: GradualWarmupScheduler(o, multiplier=1, total_epoch=3))",
         "scheduler(lambda o: GradualWarmupScheduler(o, multiplier=2, total_epoch=3, "
         "after_scheduler=torch.optim.lr_scheduler.ReduceLROnPlateau(o, patience=1)), metric=True)"),
    _opt("torchsummary", SUMMARY, "torchsummary/torchsummary.py", "    return summary_str, (total_params, trainable_params)",
         "summary(summary, summary_string)",
         support=[("torchsummary/tests/test_models/test_model.py", "test_model.py")]),
    _opt("focal_loss", FOCAL, "focal_loss.py", "        ignore_index=ignore_index)\n    return fl", "focal(FocalLoss, focal_loss)"),
    _opt("torch_ema", EMA, "torch_ema/ema.py", '                "parameters in the saved state."\n            )',
         "ema(ExponentialMovingAverage)"),
]

RECIPES += [
    _r("lib_gradual_warmup_run", WARMUP, "warmup_scheduler/run.py",
       [("if __name__ == '__main__':\n", "if __name__ == '__main__':\n    torch.manual_seed(0)\n")],
       support=[("warmup_scheduler/__init__.py", "warmup_scheduler/__init__.py"),
                ("warmup_scheduler/scheduler.py", "warmup_scheduler/scheduler.py")]),
    _r("lib_max_ssim", SSIM, "max_ssim.py",
       [("import cv2\n", ""),  # the image file: a seeded random 3x32x32 image instead
        ('npImg1 = cv2.imread("einstein.png")', "torch.manual_seed(0)\nnpImg1 = (np.random.rand(32, 32, 3) * 255).astype(np.uint8)"),
        ("pytorch_ssim.ssim(img1, img2).data[0]", "pytorch_ssim.ssim(img1, img2).item()"),  # 0-d since PyTorch 0.4
        ("while ssim_value < 0.95:", "for _ in range(15):"), ("ssim_out.data[0]", "ssim_out.item()")],
       support=[("pytorch_ssim/__init__.py", "pytorch_ssim/__init__.py")]),
]

TORCHINFO = ("TylerYep/torchinfo", "5c4164f1e2e185ce33c597dbe00535bf8ed2b930", "MIT")
TORCHINFO_MODULES = ("enums", "formatting", "layer_info", "model_statistics")

RECIPES += [
    _r("lib_torchinfo", TORCHINFO, "torchinfo/torchinfo.py",
       [*((f"from .{m} import", f"from torchinfo.{m} import") for m in TORCHINFO_MODULES),
        _then("    global _cached_forward_pass\n    _cached_forward_pass = {}", f"{DRIVERS}.torchinfo(summary)")],
       support=[(f"torchinfo/{m}.py", f"torchinfo/{m}.py") for m in TORCHINFO_MODULES]),
]

THOP = ("Lyken17/pytorch-OpCounter", "43c064afb71383501e41eaef9e8c8407265cf77f", "MIT")

RECIPES += [
    _r("lib_thop", THOP, "thop/profile.py",
       [("from .utils import", "from thop.utils import"),
        _then("        return total_ops, total_params, ret_dict\n    return total_ops, total_params",
              f"from thop.utils import clever_format\n{DRIVERS}.thop(profile, clever_format)")],
       support=[(f"thop/{m}.py", f"thop/{m}.py")
                for m in ("utils", "rnn_hooks", "vision/__init__", "vision/basic_hooks", "vision/calc_func")]),
]

WARMUP_LIB = ("Tony-Y/pytorch_warmup", "ed598d3aefc232aeec7f342e039e06c2e0056251", "MIT")

RECIPES += [
    _r("lib_pytorch_warmup", WARMUP_LIB, "pytorch_warmup/__init__.py",
       [*((f"from .{m} import", f"from pytorch_warmup.{m} import") for m in ("base", "untuned", "radam")),
        _then("    'get_offset',\n]", f"{DRIVERS}.warmup(__import__('types').SimpleNamespace(**globals()))")],
       support=[(f"pytorch_warmup/{m}.py", f"pytorch_warmup/{m}.py") for m in ("base", "untuned", "radam")]),
]

GEOTORCH = ("lezcano/geotorch", "43fc0d68c0daf58e0d974b318e291fc933353543", "MIT")
GEOTORCH_PACKAGE = [(f"geotorch/{m}.py", f"geotorch/{m}.py") for m in (
    "__init__ almostorthogonal constraints exceptions fixedrank glp grassmannian hurwitz lowrank product psd pssd "
    "pssdfixedrank pssdlowrank reals skew sl so sphere stiefel symmetric utils").split()]

RECIPES += [
    _r("lib_geotorch_eigenvalue", GEOTORCH, "examples/eigenvalue.py",
       [("import geotorch\n", "import geotorch\n\ntorch.manual_seed(0)\n"), ("N = 1000", "N = 40"),
        ("while (eigenvalue - max_eigenvalue).abs() > 1e-3:", "while (eigenvalue - max_eigenvalue).abs() > 1e-3 and i < 25:")],
       support=GEOTORCH_PACKAGE),
    _r("lib_geotorch_copying_problem", GEOTORCH, "examples/copying_problem.py",
       [("import geotorch\n", "import geotorch\n\ntorch.manual_seed(0)\n"), ("batch_size = 128", "batch_size = 8"),
        ("hidden_size = 190", "hidden_size = 16"), ("iterations = 4000", "iterations = 4"), ("L = 1000", "L = 12"),
        ('device = torch.device("cuda")', 'device = torch.device("cpu")')],
       support=GEOTORCH_PACKAGE),
    _r("lib_geotorch_constraints", GEOTORCH, "geotorch/__init__.py",
       [("from .constraints import (", "from geotorch.constraints import ("),
        *((f"from .{m} import", f"from geotorch.{m} import") for m in (
            "product reals skew symmetric so sphere stiefel grassmannian almostorthogonal lowrank fixedrank glp sl "
            "psd pssd pssdfixedrank pssdlowrank hurwitz utils").split()),
        _then('__version__ = "0.4.0"', f"{DRIVERS}.geotorch(__import__('geotorch'))")],
       support=GEOTORCH_PACKAGE),
]

EMA_PYTORCH = ("lucidrains/ema-pytorch", "72d498dc544bd43f7ebe963cc8533021dde44f88", "MIT")
RADAM = ("LiyuanLucasLiu/RAdam", "d9fd30a337894c4003768561d45e8730dbd41333", "Apache-2.0")
ADAMP = ("clovaai/AdamP", "7f6f0383ff6ad3839d5c7f79f1db0a44c5a12fdb", "MIT")

RECIPES += [
    _opt("ema_pytorch", EMA_PYTORCH, "ema_pytorch/ema_pytorch.py",
         "    def __call__(self, *args, **kwargs):\n        return self.ema_model(*args, **kwargs)", "ema_pytorch(EMA)"),
]

RECIPES += [
    _opt("radam_liyuan", RADAM, "radam/radam.py",
         "                p_data_fp32.addcdiv_(-step_size, exp_avg, denom)\n\n                p.data.copy_(p_data_fp32)\n\n"
         "        return loss",
         "optimizer(lambda p: RAdam(p, lr=0.01, weight_decay=0.01))",
         "optimizer(lambda p: PlainRAdam(p, lr=0.01, degenerated_to_sgd=True), groups=True)",
         "optimizer(lambda p: AdamW(p, lr=0.01, weight_decay=0.01, warmup=4))"),
]

PYTORCH_LOSS = ("CoinCheung/pytorch-loss", "67d015844e4597c3ff6895fc831cd22ac7d59299", "MIT")


def _loss(name, path, cpp_import, kind, calls, edits=()):
    """CoinCheung's PATH up to its C++ extension's import, where the driver runs ``calls`` and the script stops."""
    run = f"{DRIVERS}.criteria({kind!r}, {calls})\nraise SystemExit"
    if cpp_import.startswith("class "):  # the stop before a class: the class line stays (the file must parse)
        run = f"{run}\n{cpp_import}"
    return _r(f"lib_pytorch_loss_{name}", PYTORCH_LOSS, path, [*edits, (cpp_import, run)])


RECIPES += [
    _loss("label_smooth", "label_smooth.py", "import lsr_cpp", "softmax",
          "('V1', LabelSmoothSoftmaxCEV1(0.1, ignore_index=255)), ('V2', LabelSmoothSoftmaxCEV2(0.1, ignore_index=255)), "
          "('V1 sum', LabelSmoothSoftmaxCEV1(0.2, reduction='sum', ignore_index=255))"),
    _loss("focal_loss", "focal_loss.py", "import focal_cpp", "sigmoid",
          "('V1', FocalLossV1()), ('V2', FocalLossV2()), ('V1 none', FocalLossV1(0.5, 1.5, reduction='none'))"),
    _loss("large_margin_softmax", "large_margin_softmax.py", "import large_margin_cpp", "softmax",
          "('V1', LargeMarginSoftmaxV1()), ('V2', LargeMarginSoftmaxV2())"),
    _loss("swish", "swish.py", "import swish_cpp", "activation", "('V1', SwishV1()), ('V2', SwishV2())"),
    _loss("taylor_softmax", "taylor_softmax.py", "class LogTaylorSoftmaxV3(nn.Module):", "activation",
          "('V1', TaylorSoftmaxV1(dim=1, n=2)), ('V1 n=4', TaylorSoftmaxV1(dim=1, n=4)), ('log V1', LogTaylorSoftmaxV1())",
          edits=[("import taylor_softmax_cpp\n", "")]),  # its V3 classes call the extension, the V1s do not
]

SCHEDULE_FREE = ("facebookresearch/schedule_free", "70785b53e778d0e872c0bbb75ff4ee54ee10c291", "Apache-2.0")
SOPHIA = ("Liuhong99/Sophia", "a7e157229b71d58cf995d32854f1be15c265b350", "MIT")

RECIPES += [
    _opt("schedulefree_adamw", SCHEDULE_FREE, "schedulefree/adamw_schedulefree.py",
         "            group['k'] = k+1\n        return loss",
         "schedule_free(lambda p: AdamWScheduleFree(p, lr=0.02, warmup_steps=3, weight_decay=0.01))",
         "schedule_free(lambda p: AdamWScheduleFree(p, lr=0.02, foreach=False, r=1.0, weight_lr_power=1.0))"),
    _opt("schedulefree_sgd", SCHEDULE_FREE, "schedulefree/sgd_schedulefree.py",
         "            group['k'] = k+1\n        return loss",
         "schedule_free(lambda p: SGDScheduleFree(p, lr=0.5, warmup_steps=2, weight_decay=0.01))"),
    _opt("schedulefree_radam", SCHEDULE_FREE, "schedulefree/radam_schedulefree.py",
         '            group["k"] = k + 1\n        return loss',
         "schedule_free(lambda p: RAdamScheduleFree(p, lr=0.02))",
         "schedule_free(lambda p: RAdamScheduleFree(p, lr=0.02, foreach=False, silent_sgd_phase=False))"),
    _opt("sophia", SOPHIA, "sophia.py",
         "            step_size_neg = - lr \n            \n"
         "            ratio = (exp_avg.abs() / (rho * bs * hess + 1e-15)).clamp(None,1)\n"
         "            param.addcmul_(exp_avg.sign(), ratio, value=step_size_neg)", "sophia(SophiaG)"),
]

KOZISTR = ("kozistr/pytorch_optimizer", "7a076d2f8f09735e82f9ec1d2d389ec2526bbdbb", "Apache-2.0")
KOZISTR_SUPPORT = [(f"pytorch_optimizer/{m}.py", f"pytorch_optimizer/{m}.py") for m in (
    "base/exception", "base/optimizer", "base/type", "optimizer/foreach_utils", "optimizer/gradient_centralization",
    "optimizer/utils", "optimizer/shampoo_utils")]
# the packages' own __init__ import every optimizer: the empty base/__init__.py stands in for all three
KOZISTR_SUPPORT += [("pytorch_optimizer/base/__init__.py", f"pytorch_optimizer/{m}__init__.py")
                    for m in ("", "base/", "optimizer/")]


def _ko(module, tail, *makes):
    """kozistr's pytorch_optimizer/optimizer/MODULE.py (its BaseOptimizer beside it) driven with each ``make``."""
    calls = "\n".join(f"{DRIVERS}.optimizer(lambda p: {make})" for make in makes)
    return _r(f"lib_kozistr_{module}", KOZISTR, f"pytorch_optimizer/optimizer/{module}.py", [_then(tail, calls)],
              support=KOZISTR_SUPPORT)


KO_RETURN = "\n\n        return loss"
RECIPES += [
    _ko("adan", "                self._step_per_param(group, clip_global_grad_norm)" + KO_RETURN,
        "Adan(p, lr=0.02, weight_decay=0.02)", "Adan(p, lr=0.02, max_grad_norm=0.5, use_gc=True, foreach=True)"),
    _ko("adopt", "                self._step_per_param(group)" + KO_RETURN, "ADOPT(p, lr=0.02)",
        "ADOPT(p, lr=0.02, weight_decay=0.01, weight_decouple=True, foreach=True)"),
    _ko("ademamix", "                p.add_(update, alpha=-group['lr'])" + KO_RETURN,
        "AdEMAMix(p, lr=0.02, t_alpha_beta3=5)", "SimplifiedAdEMAMix(p, lr=0.02)"),
    _ko("prodigy", "                    p.add_(update, alpha=-d_lr)" + KO_RETURN, "Prodigy(p, lr=1.0)",
        "Prodigy(p, lr=1.0, bias_correction=True, safeguard_warmup=True, weight_decay=0.01)"),
    _ko("laprop", "                    fixed_decay=group['fixed_decay'],\n                )" + KO_RETURN,
        "LaProp(p, lr=0.02)", "LaProp(p, lr=0.02, centered=True, amsgrad=True)"),
    _ko("grams", "                p.add_(update, alpha=-group['lr'])" + KO_RETURN, "Grams(p, lr=0.02)"),
    _ko("mars", "                state['last_grad'] = torch.view_as_complex(grad) if torch.is_complex(state['last_grad'])"
        " else grad" + KO_RETURN, "MARS(p, lr=0.02)", "MARS(p, lr=0.02, optimize_1d=True, mars_type='lion')"),
    _ko("lion", "                self._step_per_param(group)" + KO_RETURN, "Lion(p, lr=0.003, weight_decay=0.01)",
        "Lion(p, lr=0.003, use_gc=True, r=0.95, adanorm=True, foreach=True)"),
    _ko("adabelief", "                self._step_per_param(group, step_size, n_sma)" + KO_RETURN,
        "AdaBelief(p, lr=0.02, rectify=True)", "AdaBelief(p, lr=0.02, amsgrad=True, ams_bound=True, foreach=True)"),
    _ko("kate", "                b.sqrt_()" + KO_RETURN, "Kate(p, lr=0.02)"),
]


def _ko_sched(module, tail, *calls, support=()):
    return _r(f"lib_kozistr_{module}", KOZISTR, f"pytorch_optimizer/lr_scheduler/{module}.py",
              [_then(tail, "\n".join(f"{DRIVERS}.{c}" for c in calls))], support=list(support))


LAMBDA_TAIL = "\n\n    return LambdaLR(optimizer, lr_scheduler, last_epoch)"
RECIPES += [
    _ko_sched("rex", "        self.last_lr = [value]\n\n        return value",
              "scheduler(lambda o: REXScheduler(o, total_steps=10, max_lr=0.1, min_lr=0.001))"),
    _ko_sched("wsd", "        cooldown_type=cooldown_type,\n    )" + LAMBDA_TAIL,
              *(f"scheduler(lambda o: get_wsd_schedule(o, 3, 4, 5, min_lr_ratio=0.1, cooldown_type={kind!r}))"
                for kind in ("cosine", "1-sqrt", "1-square", "linear"))),
    _ko_sched("chebyshev", "    lr_scheduler = partial(get_chebyshev_lr_lambda, num_epochs=num_epochs, is_warmup=is_warmup)"
              + LAMBDA_TAIL, "scheduler(lambda o: get_chebyshev_schedule(o, num_epochs=12))",
              "scheduler(lambda o: get_chebyshev_schedule(o, num_epochs=12, is_warmup=True))"),
    _ko_sched("linear_warmup", "        return self.min_lr + (self.max_lr - self.min_lr) * (self.step_t - self.warmup_steps)"
              " ** self.poly_order",
              *(f"lr_steps(lambda o: {cls}(o, t_max=12, max_lr=0.1, min_lr=0.001, init_lr=0.01, warmup_steps=3))"
                for cls in ("LinearScheduler", "CosineScheduler", "PolyScheduler")),
              support=[*((f"pytorch_optimizer/base/{m}.py", f"pytorch_optimizer/base/{m}.py")
                         for m in ("exception", "scheduler")),
                       *(("pytorch_optimizer/base/__init__.py", f"pytorch_optimizer/{m}__init__.py") for m in ("", "base/"))]),
]

LOVASZ = ("bermanmaxim/LovaszSoftmax", "7d48792d35a04d3167de488dd00daabbccd8334b", "MIT")

RECIPES += [
    _opt("lovasz_losses", LOVASZ, "pytorch/lovasz_losses.py", "    if n == 1:\n        return acc\n    return acc / n",
         "lovasz(__import__('types').SimpleNamespace(**globals()))"),
]

SQUEEZE = ("ai-med/squeeze_and_excitation", "acdd26e7e3956b8e3d3b32663a784ebd64c844dd", "MIT")

RECIPES += [
    _opt("squeeze_excitation", SQUEEZE, "squeeze_and_excitation/squeeze_and_excitation.py",
         "    SSE = 'SSE'\n    CSSE = 'CSSE'",
         "squeeze_excitation({'cSE': ChannelSELayer, 'sSE': SpatialSELayer, 'csSE': ChannelSpatialSELayer}, (2, 3, 6, 5))"),
    _opt("squeeze_excitation_3d", SQUEEZE, "squeeze_and_excitation/squeeze_and_excitation_3D.py",
         "    CSSE3D = 'CSSE3D'\n    PE = 'PE'",
         "squeeze_excitation({'cSE': ChannelSELayer3D, 'sSE': SpatialSELayer3D, 'csSE': ChannelSpatialSELayer3D, "
         "'PE': ProjectExciteLayer}, (2, 3, 4, 5, 3))"),
]
