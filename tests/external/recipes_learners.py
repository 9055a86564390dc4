"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Learner material not yet covered (2026-12-07, corpus helper s34 CORPUS), prefix ``ln_``:
- ``ln_tudui_*``: 小土堆 (xiaotudui)'s PyTorch beginner course, its ``src`` scripts (convolution, pooling,
  activations, losses, ``Sequential``, optimizers, saving and loading, the CIFAR-10 training loop) on the corpus's
  seeded CIFAR-10 stand-in;
- ``ln_bpesquet_*``: Baptiste Pesquet's pytorch-tutorial (ENSC, 2025): its fundamentals, linear and logistic
  regression, MLP and CNN chapters as they run standalone;
- ``ln_dgai_*``: Mark Liu's "Learn Generative AI with PyTorch" (Manning, 2024): tensors and a Fashion-MNIST
  classifier, a word-level LSTM, GPT-2's parts and a small GPT trained on text (the-verdict.txt stands in for the
  novels), cell by cell;
- ``ln_lmbook_*``: Andriy Burkov's "The Hundred-Page Language Models Book" (2025): an embedding as a linear layer.
"""

from __future__ import annotations

from recipe_kit import _r

# traced on this machine (first_diff.py, and each shape's conv2d replayed in both libraries: most outputs differ in
# their last bit already in the forward); non-strict (test_corpus.CPU_DEPENDENT), as recipes_courses5's CONV rows
ZEN3 = "on the AMD EPYC Zen 3 (AVX2) of 2026-12-07, "
CONV = ZEN3 + ("torch's CPU convolution (oneDNN's AVX2 kernels) adds in an order core's im2col products do not "
               "reproduce; the first differing op is ")

RECIPES: list[dict] = []

TUDUI = ("xiaotudui/pytorch-tutorial", "7aad2f43f7cdcdb645dab19ec180d104027054bd", "none stated")
CIFAR = ("torchvision.datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")
WRITER = ("from torch.utils.tensorboard import SummaryWriter",  # torch's run has no tensorboard package
          "from corpus_support import SilentWriter as SummaryWriter")


def _tudui(name, edits=(), **kw):
    """xiaotudui's ``src/<name>.py``."""
    return _r(f"ln_tudui_{name.replace('-', '_')}", TUDUI, f"src/{name}.py", edits, **kw)


RECIPES += [
    _tudui("nn_conv"),
    _tudui("nn_conv2d", [CIFAR, WRITER]),
    _tudui("nn_linear", [CIFAR]),
    _tudui("nn_loss"),
    _tudui("nn_loss_network", [CIFAR, ('    print("ok")', '    print("ok", result_loss)')]),
    _tudui("nn_maxpool", [CIFAR, WRITER, ('    output = tudui(imgs)\n', '    output = tudui(imgs)\n'
                                                                      '    print(output.shape, output.sum())\n')]),
    _tudui("nn_module"),
    _tudui("nn_optim", [CIFAR, ("range(20)", "range(2)"), ("batch_size=1)", "batch_size=4)")]),
    _tudui("nn_relu", [CIFAR, WRITER, ('    output = tudui(imgs)\n', '    output = tudui(imgs)\n'
                                                                   '    print(output.shape, output.mean())\n')]),
    _tudui("nn_seq", [WRITER]),
    _tudui("model"),
    _tudui("model_save", [("vgg16 = torchvision.models.vgg16(pretrained=False)",
                           "vgg16 = __import__('corpus_courses5').tiny_resnet()  # torchvision's models are a stub")]),
    # train-cpu.py never imports torch (it raises NameError at its optimizer): train.py is its fixed twin
    _tudui("train", [CIFAR, CIFAR, WRITER, ("epoch = 10", "epoch = 2"), ("% 100 == 0", "% 2 == 0")],
           support=[("src/model.py", "model.py")]),
    _tudui("train_gpu_1", [CIFAR, CIFAR, WRITER, ("epoch = 10", "epoch = 2"), ("% 100 == 0", "% 2 == 0")]),
    _tudui("train_gpu_2", [CIFAR, CIFAR, WRITER, ("epoch = 10", "epoch = 2"), ("% 100 == 0", "% 2 == 0")]),
    _tudui("dataloader", [CIFAR, WRITER, ("        step = step + 1", "        print(epoch, step, imgs.sum(), targets)\n"
                                                                    "        step = step + 1")]),
]

BPQ = ("bpesquet/pytorch-tutorial", "452e1b3a92a68d980d5e22cec00a59f49a36152a", "MIT")
SNS = ("import seaborn as sns", "sns = __import__('matplotlib')  # the runner's plotting stub")


def _bpq(name, edits=(), **kw):
    """``pytorch_tutorial/<name>/test_<name>.py`` run standalone (its ``__main__`` block; plots draw nothing)."""
    return _r(f"ln_bpesquet_{name}", BPQ, f"pytorch_tutorial/{name}/test_{name}.py", edits, **kw)


RECIPES += [
    _bpq("fundamentals", [("datasets.MNIST(", "__import__('corpus_support').fake_mnist(size=320, "),
                          ("models.resnet18(weights=\"ResNet18_Weights.DEFAULT\")",
                           "__import__('corpus_courses5').tiny_resnet()  # torchvision's models are a stub"),
                          ("resnet = models.resnet18()", "resnet = __import__('corpus_courses5').tiny_resnet()"),
                          ('DATA_DIR = MODEL_DIR = "./.output"', 'DATA_DIR = MODEL_DIR = "."')]),
    _bpq("linear_regression", [SNS]),
    _bpq("logistic_regression", [SNS]),
    _bpq("multilayer_perceptron", [SNS, ("n_epochs = 50", "n_epochs = 20")]),
    _bpq("convolutional_neural_network", [*[("datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(")] * 2,
                                          ("n_epochs = 10", "n_epochs = 2")]),
]

DGAI = ("markhliu/DGAI", "23700d3c924b194b591b6316bb12738193c8e38c", "MIT")
RASBT_VERDICT = ("rasbt/LLMs-from-scratch", "28c65cdfbc3338e2e040016eea4b7fdf556e4d57",
                 "ch02/01_main-chapter-code/the-verdict.txt")
FASHION_1000 = ("torchvision.datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist(size=1000, ")
# the-verdict.txt stands in for Anna Karenina: the prompts name its words
ANNA = [('word_to_int["anna"]', 'word_to_int["jack"]'), *[("'Anna and the prince'", "'Jack and the picture'")] * 3,
        *[("'Anna and the nurse'", "'Jack and the portrait'")] * 2,
        *[('prompt="I \' m not going to see"', 'prompt="I had always thought"')] * 3]


def _dgai(name, path, edits=(), **kw):
    """Learn Generative AI with PyTorch's ``<path>.ipynb``, each cell run as Jupyter runs it."""
    return _r(f"ln_dgai_{name}", DGAI, f"{path}.ipynb", edits, keep_going=True, **kw)


RECIPES += [
    _dgai("ch02_pytorch", "ch02DeepLearningPyTorch",
          [*[FASHION_1000] * 4, ("for i in range(50):", "for i in range(3):"), *[("[50000,10000]", "[800,200]")] * 2,
           *[("for i in range(1,101):", "for i in range(1,4):")] * 2]),
    _dgai("ch08_rnn", "ch08TextGenerationRNNs",
          [("for epoch in range(50):", "for epoch in range(2):"),
           ("        if x.shape[0]==batch_size:", "        if i == 4: break  # a few batches\n"
                                                 "        if x.shape[0]==batch_size:"),
           ("(i+1)%1000==0", "(i+1)%2==0"), ("def sample(model, prompt, length=200):",
                                              "def sample(model, prompt, length=40):"), *ANNA],
          support=[(*RASBT_VERDICT, "files/anna.txt")]),
    _dgai("ch12_gpt", "ch12TrainGPTfromScratch",
          [("for i in range(len(text)):", "for i in range(len(text) - 1):  # the stand-in ends with a quote"),
           ("for i in range(1,41):", "for i in range(1,3):"),
           ("        x,y=x.to(device),y.to(device)", "        if idx == 3: break  # a few batches\n"
                                                   "        x,y=x.to(device),y.to(device)"),
           ("    if i%10==0:", "    if True:"),
           *[("'files/GPTe20.pth'", "'files/GPTe1.pth'")] * 2, *[("'files/GPTe40.pth'", "'files/GPTe2.pth'")] * 2],
          support=[(*RASBT_VERDICT, f"files/{name}.txt") for name in ("OldManAndSea", "ToWhomTheBellTolls",
                                                                       "FarewellToArms")]),
]

RECIPES += [  # GPT-2 XL's parts at a small size; its BPE files and the Hub's weights are downloads (those cells fail)
    _dgai("ch11_gpt2", "ch11BuildGPT2fromScratch",
          [("self.n_layer = 48", "self.n_layer = 2"), ("self.n_head = 25", "self.n_head = 4"),
           ("self.n_embd = 1600", "self.n_embd = 64"), ("self.block_size = 1024", "self.block_size = 64")]),
]

LMBOOK = ("aburkov/theLMbook", "aa598f2ada44a71e22d7e50394f2c41f55d5f76f", "none stated")
RECIPES += [_r("ln_lmbook_embedding_vs_linear", LMBOOK, "embedding_vs_linear.py")]  # The Hundred-Page LM Book

# Umar Jamil's from-scratch repositories (hkproj), driven by corpus_learners: each recipe's script is the file itself,
# whose first line hands over to the driver, which imports the repository's files from beside it
HANDOVER = "import torch\nif __name__ == '__main__':  # the driver imports this file's copy beside it\n" \
           "    __import__('corpus_learners').{}()\n    raise SystemExit\n"


def _hk(name, repo, commit, path, driver, files, licence="MIT", **kw):
    """``path`` of hkproj/``repo`` run by ``corpus_learners.<driver>`` beside ``files`` (repository path, name)."""
    return _r(f"ln_hk_{name}", (f"hkproj/{repo}", commit, licence), path,
              [("import torch\n", HANDOVER.format(driver))], support=files, **kw)


LLAMA = "067f8a37fe36ac8b52dca9cc6f2a2e8d6aa372d6"
HKT = "3beddd2604bfa5e0fbd53f52361bd887dc027a8c"
SD = "6e6900078372af15eb1b13e73068cd563784f377"
DDPM = "5eba43f779bf4db0eddb2497f79f01703c7ec8cb"
SD_FILES = [(f"sd/{m}.py", f"{m}.py") for m in ("attention", "clip", "decoder", "encoder", "diffusion", "ddpm",
                                                "pipeline")]
RECIPES += [
    _hk("llama", "pytorch-llama", LLAMA, "model.py", "llama", [("model.py", "model.py")]),
    _hk("transformer", "pytorch-transformer", HKT, "model.py", "transformer", [("model.py", "model.py")],
        licence="none stated"),
    _hk("sd_attention", "pytorch-stable-diffusion", SD, "sd/attention.py", "sd_attention", SD_FILES),
    _hk("sd_clip", "pytorch-stable-diffusion", SD, "sd/clip.py", "sd_clip", SD_FILES),
    _hk("sd_vae", "pytorch-stable-diffusion", SD, "sd/decoder.py", "sd_vae", SD_FILES,
        xfail=CONV + "the residual block's conv2d, 64 3x3 filters over 2x32x6x6 (decoder.py:70)"),
    _hk("sd_unet_parts", "pytorch-stable-diffusion", SD, "sd/diffusion.py", "sd_unet_parts", SD_FILES,
        xfail=CONV + "the residual block's conv2d, 64 3x3 filters over 2x32x4x4 (its first loss differs)"),
    _hk("sd_pipeline", "pytorch-stable-diffusion", SD, "sd/pipeline.py", "sd_pipeline", SD_FILES),
    _hk("paligemma", "pytorch-paligemma", "34e1d98d39966dd20645822a2115b4c61d389a02", "modeling_gemma.py", "paligemma",
        [(f"{m}.py", f"{m}.py") for m in ("modeling_gemma", "modeling_siglip")], licence="none stated"),
    _hk("ddpm_unet", "pytorch-ddpm", DDPM, "model.py", "ddpm_unet",
        [("model.py", "model.py"), ("modules.py", "modules.py"), *__import__("recipes_courses5").EINOPS_PACKAGE],
        licence="none stated", xfail=CONV + "the U-Net's init_conv, 8 7x7 filters over 3x1x16x16 (modules.py:244)"),
]

# Learn Generative AI with PyTorch's utils package, driven by corpus_learners (its notebooks train them on downloads)
DGAI_UTILS = [(f"utils/{m}.py", f"utils/{m}.py") for m in ("__init__", "ch06util", "ch09util", "ch14util", "ch15util",
                                                            "unet_util")]


def _dgai_util(name, module, driver, xfail=None):
    """``utils/<module>.py`` run by ``corpus_learners.<driver>`` beside the utils package (and einops)."""
    return _r(f"ln_dgai_{name}", DGAI, f"utils/{module}.py", [("import torch\n", HANDOVER.format(driver))],
              support=[*DGAI_UTILS, *__import__("recipes_courses5").EINOPS_PACKAGE], xfail=xfail)


RECIPES += [
    _dgai_util("util_transformer", "ch09util", "dgai_transformer"),
    _dgai_util("util_diffusion", "unet_util", "dgai_diffusion",
               CONV + "in the U-Net's backward (its losses print equal; its convolutions' gradients differ)"),
    _dgai_util("util_cyclegan", "ch06util", "dgai_cyclegan",
               CONV + "the generator's first conv2d, 8 7x7 filters over a reflect-padded 2x3x32x32"),
    _dgai_util("util_music", "ch14util", "dgai_music"),
]

# Umar Jamil's notebooks (hkproj): LoRA through parametrizations, SVD, quantization, cell by cell on the MNIST stand-in
MNIST_DS = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
LORA = ("hkproj/pytorch-lora", "a2bdeadabd4ffcaf99b61d31579b7c8abe3f1af4", "none stated")
RETRAIN = ("if Path(MODEL_FILENAME).exists():", "if False:  # each run trains (the other library's run saved the file)")
QUANT = ("hkproj/quantization-notes", "8d6d5675a6530776468eec4ec7cdbcc4065122ee", "none stated")
RECIPES += [
    _r("ln_hk_lora", LORA, "lora.ipynb", [MNIST_DS] * 3, keep_going=True),
    _r("ln_hk_svd", LORA, "svd.ipynb", keep_going=True),
    _r("ln_hk_quant_from_scratch", QUANT, "quantization_from_scratch.ipynb", keep_going=True),
    _r("ln_hk_quant_minmax_percentile", QUANT, "quantization_compare_minmax_percentile.ipynb", keep_going=True),
    _r("ln_hk_quant_post_training", QUANT, "post_training_quantization.ipynb", [*[MNIST_DS] * 2, RETRAIN],
       keep_going=True),
    _r("ln_hk_quant_aware_training", QUANT, "quantization_aware_training.ipynb", [MNIST_DS] * 2, keep_going=True),
]

CPU_DEPENDENT: dict = {r["name"]: None for r in RECIPES if r["xfail"] and r["xfail"].startswith(ZEN3)}
