"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Small single-script repositories people learn from: graykode's nlp-tutorial (``nlpt_``: one model per script
on built-in toy sentences), Sung Kim's PyTorchZeroToAll lectures (``zta_``) and Aladdin Persson's
Machine-Learning-Collection (``alad_``). Each script is seeded and its training loop shortened (printing as
often, so the same number of lines shows).
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

NLPT = ("graykode/nlp-tutorial", "d05e31ec81d56d70c1db89b99ab07e948f7ebc11", "MIT")
NLPT_SEED = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")


def _epochs(total, short, every, every_short):
    """``range(total)`` → ``range(short)`` and the ``% every`` print every ``every_short`` epochs."""
    return [(f"range({total})", f"range({short})"), (f"% {every} == 0", f"% {every_short} == 0")]


# The transformers' full size (6 layers of 512) takes 10 s a run and Adam at lr 0.001 turns float32 rounding
# differences into different losses from the second step on: 2 layers of 64 show the same code paths
TRANSFORMER_SMALL = [("d_model = 512", "d_model = 64"), ("d_ff = 2048", "d_ff = 128"), ("n_layers = 6", "n_layers = 2")]

RECIPES += [
    _r("nlpt_nnlm", NLPT, "1-1.NNLM/NNLM.py", [NLPT_SEED, *_epochs(5000, 500, 1000, 100)]),
    _r("nlpt_word2vec", NLPT, "1-2.Word2Vec/Word2Vec-Skipgram(Softmax).py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\nnp.random.seed(0)\n"), *_epochs(5000, 500, 1000, 100),
        ("        plt.scatter(x, y)\n", "        print(label, '%.4f %.4f' % (x, y))\n")]),
    _r("nlpt_textcnn", NLPT, "2-1.TextCNN/TextCNN.py", [NLPT_SEED, *_epochs(5000, 500, 1000, 100)]),
    _r("nlpt_textrnn", NLPT, "3-1.TextRNN/TextRNN.py", [NLPT_SEED, *_epochs(5000, 500, 1000, 100)]),
    _r("nlpt_textlstm", NLPT, "3-2.TextLSTM/TextLSTM.py", [NLPT_SEED, *_epochs(1000, 200, 100, 20)]),
    _r("nlpt_bilstm", NLPT, "3-3.Bi-LSTM/Bi-LSTM.py", [NLPT_SEED, *_epochs(10000, 50, 1000, 10)]),
    _r("nlpt_seq2seq", NLPT, "4-1.Seq2Seq/Seq2Seq.py", [NLPT_SEED, *_epochs(5000, 200, 1000, 40)]),
    _r("nlpt_seq2seq_attention", NLPT, "4-2.Seq2Seq(Attention)/Seq2Seq(Attention).py",
       [NLPT_SEED, *_epochs(2000, 100, 400, 20)]),
    _r("nlpt_bilstm_attention", NLPT, "4-3.Bi-LSTM(Attention)/Bi-LSTM(Attention).py",
       [NLPT_SEED, *_epochs(5000, 200, 1000, 40)]),
    _r("nlpt_transformer", NLPT, "5-1.Transformer/Transformer.py", [NLPT_SEED, *TRANSFORMER_SMALL]),
    _r("nlpt_transformer_greedy", NLPT, "5-1.Transformer/Transformer(Greedy_decoder).py",
       [NLPT_SEED, *TRANSFORMER_SMALL]),
    _r("nlpt_bert", NLPT, "5-2.BERT/BERT.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\nseed(0)\n"), ("range(100)", "range(20)"),
        ("n_layers = 6", "n_layers = 2"), ("n_heads = 12", "n_heads = 4"), ("d_model = 768", "d_model = 64"),
        ("d_ff = 768 * 4", "d_ff = 64 * 4")]),
]

# hunkim/PyTorchZeroToAll: Sung Kim's lecture code (2017, partly updated since); ``x.data[0]`` of a 0-dim tensor (an
# IndexError now) becomes ``x.item()``, MNIST is corpus_support's stand-in, the epochs' timings are 0 s
ZTA = ("hunkim/PyTorchZeroToAll", "e5a260fac0b4ff1e2ec434fc6f0d962ac97fc289", "MIT")
ZTA_MNIST = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
ZTA_ONE_EPOCH = ("for epoch in range(1, 10):", "for epoch in range(1, 2):")
ZTA_ITEM = (".data[0]", ".item()")

RECIPES += [
    _r("zta_01_basics", ZTA, "01_basics.py"),
    _r("zta_02_manual_gradient", ZTA, "02_manual_gradient.py"),
    _r("zta_03_auto_gradient", ZTA, "03_auto_gradient.py"),
    _r("zta_05_linear_regression", ZTA, "05_linear_regression.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("range(500)", "range(100)")]),
    _r("zta_06_logistic_regression", ZTA, "06_logistic_regression.py",
       [("from torch import tensor\n", "from torch import tensor, manual_seed\nmanual_seed(0)\n"),
        ("range(1000)", "range(100)")]),
    _r("zta_09_01_softmax_loss", ZTA, "09_01_softmax_loss.py"),
    _r("zta_09_2_softmax_mnist", ZTA, "09_2_softmax_mnist.py",
       [("import time\n", "import time\nimport torch\ntorch.manual_seed(0)\n"), ZTA_MNIST, ZTA_MNIST,
        ("for epoch in range(1, 10):", "for epoch in range(1, 3):"),
        ("divmod(time.time() - epoch_start, 60)", "divmod(0, 60)"),  # wall-clock times
        ("divmod(time.time() - epoch_start, 60)", "divmod(0, 60)"), ("divmod(time.time() - since, 60)", "divmod(0, 60)")]),
    _r("zta_10_1_cnn_mnist", ZTA, "10_1_cnn_mnist.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ZTA_MNIST, ZTA_MNIST, ZTA_ONE_EPOCH]),
    _r("zta_11_1_toy_inception_mnist", ZTA, "11_1_toy_inception_mnist.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ZTA_MNIST, ZTA_MNIST, ZTA_ONE_EPOCH, ZTA_ITEM,
        ZTA_ITEM]),
    _r("zta_12_1_rnn_basics", ZTA, "12_1_rnn_basics.py", [("import torch\n", "import torch\ntorch.manual_seed(0)\n")]),
    _r("zta_12_2_hello_rnn", ZTA, "12_2_hello_rnn.py", [("range(100)", "range(20)")]),
    _r("zta_12_3_hello_rnn_seq", ZTA, "12_3_hello_rnn_seq.py", [("range(100)", "range(20)"), ZTA_ITEM]),
    _r("zta_12_4_hello_rnn_emb", ZTA, "12_4_hello_rnn_emb.py", [("range(100)", "range(20)")]),
]

# aladdinpersson/Machine-Learning-Collection (too large to clone: each file is pinned at the commit it was read at):
# the YouTube series' PyTorch basics; MNIST is corpus_support's stand-in, one epoch, seeded
def _alad(commit):
    return ("aladdinpersson/Machine-Learning-Collection", commit, "MIT")


ALAD_MNIST = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")
ALAD_MNIST_SMALL = ("datasets.MNIST(", "__import__('corpus_support').fake_mnist_small(")
ALAD_SEED = ("import torch\n", "import torch\ntorch.manual_seed(0)\n")
ALAD_BASICS = "ML/Pytorch/Basics/"

RECIPES += [
    _r("alad_tensorbasics", _alad("609b7511c82c3421459df79e2324c8ee5a5dbfc5"), ALAD_BASICS + "pytorch_tensorbasics.py",
       [ALAD_SEED]),
    _r("alad_simple_fullynet", _alad("1676e194239d32c3c454f06c48e3f66fe3956019"),
       ALAD_BASICS + "pytorch_simple_fullynet.py", [ALAD_SEED, ALAD_MNIST, ALAD_MNIST, ("num_epochs = 3", "num_epochs = 1")]),
    _r("alad_rnn_gru_lstm", _alad("28bd89ea9c07db15ebaa232328a53e03614b1c88"), ALAD_BASICS + "pytorch_rnn_gru_lstm.py",
       [ALAD_SEED, ALAD_MNIST_SMALL, ALAD_MNIST_SMALL, ("num_epochs = 2", "num_epochs = 1"),
        ("hidden_size = 256", "hidden_size = 32")]),
]

ALAD_2 = _alad("066299e9a8645836662ec43f785358ca195d65ad")
RECIPES += [
    _r("alad_lr_ratescheduler", ALAD_2, ALAD_BASICS + "pytorch_lr_ratescheduler.py",
       [ALAD_SEED, ALAD_MNIST, ("num_epochs = 100", "num_epochs = 9"),
        (", \n                                                       verbose=True)", ")")]),  # gone in torch 2.13
    _r("alad_init_weights", ALAD_2, ALAD_BASICS + "pytorch_init_weights.py",
       [("import torch.nn as nn", "import torch\ntorch.manual_seed(0)\nimport torch.nn as nn")]),
    _r("alad_loadsave", _alad("609b7511c82c3421459df79e2324c8ee5a5dbfc5"), ALAD_BASICS + "pytorch_loadsave.py",
       [("torchvision.models.vgg16(\n        weights=None\n    )",  # torchvision is a stub: a small CNN instead
         "nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.Linear(288, 10))"),
        ("    main()\n", "    main()\n    print(sorted(torch.load('my_checkpoint.pth.tar')['optimizer']['param_groups'][0].items()))\n")]),
    _r("alad_set_seeds", _alad("609b7511c82c3421459df79e2324c8ee5a5dbfc5"),
       ALAD_BASICS + "set_deterministic_behavior/pytorch_set_seeds.py",
       [("seed_everything()\n", "seed_everything()\nprint(torch.rand(3), np.random.rand(2), random.random())\n")]),
]

# The lectures' data files (gzipped, fetched as stored): Pima diabetes, names by country, tiny Shakespeare
ZTA_DIABETES = ("data/diabetes.csv.gz", "data/diabetes.csv.gz")
ZTA_NAMES = [("name_dataset.py", "name_dataset.py"), ("data/names_train.csv.gz", "data/names_train.csv.gz"),
             ("data/names_test.csv.gz", "data/names_test.csv.gz")]
ZTA_TEXT = [("text_loader.py", "text_loader.py"), ("data/shakespeare.txt.gz", "data/shakespeare.txt.gz")]
ZTA_NO_WORKERS = ("num_workers=2", "num_workers=0")
ZTA_NO_ELAPSED = ("    s = time.time() - since\n", "    s = 0  # the elapsed time differs between runs\n")

RECIPES += [
    _r("zta_07_diabets_logistic", ZTA, "07_diabets_logistic.py",
       [("import numpy as np\n", "import numpy as np\nimport torch\ntorch.manual_seed(0)\n")], support=[ZTA_DIABETES]),
    _r("zta_08_1_dataset_loader", ZTA, "08_1_dataset_loader.py",
       [("import numpy as np\n", "import numpy as np\nimport torch\ntorch.manual_seed(0)\n"), ZTA_NO_WORKERS,
        ("range(2)", "range(1)")],
       support=[ZTA_DIABETES]),
    _r("zta_08_2_dataset_loade_logistic", ZTA, "08_2_dataset_loade_logistic.py",
       [("import numpy as np\n", "import numpy as np\nimport torch\ntorch.manual_seed(0)\n"), ZTA_NO_WORKERS],
       support=[ZTA_DIABETES]),
    _r("zta_13_1_rnn_classification_basics", ZTA, "13_1_rnn_classification_basics.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n")], support=ZTA_NAMES),
    _r("zta_13_2_rnn_classification", ZTA, "13_2_rnn_classification.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("N_EPOCHS = 100", "N_EPOCHS = 1"), ZTA_NO_ELAPSED,
        ZTA_ITEM, ("in enumerate(train_loader, 1):", "in zip(range(1, 11), train_loader):"),  # 10 batches
        ("    for names, countries in test_loader:", "    for _, (names, countries) in zip(range(2), test_loader):")],
       support=ZTA_NAMES),
    _r("zta_13_3_char_rnn", ZTA, "13_3_char_rnn.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("n_epochs = 100", "n_epochs = 1"), ZTA_ITEM,
        ZTA_ITEM, ("in enumerate(train_loader):", "in zip(range(3), train_loader):")], support=ZTA_TEXT),
    _r("zta_13_4_pack_pad", ZTA, "13_4_pack_pad.py", [("import torch\n", "import torch\ntorch.manual_seed(0)\n")]),
]

ZTA_SEQ2SEQ = [*ZTA_TEXT, ("seq2seq_models.py", "seq2seq_models.py")]
RECIPES += [
    _r("zta_14_1_seq2seq", ZTA, "14_1_seq2seq.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("N_EPOCH = 100", "N_EPOCH = 1"), ZTA_NO_WORKERS,
        ZTA_ITEM, ("in enumerate(train_loader):", "in zip(range(3), train_loader):")], support=ZTA_SEQ2SEQ),
    _r("zta_14_2_seq2seq_att", ZTA, "14_2_seq2seq_att.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("N_EPOCH = 100", "N_EPOCH = 1"), ZTA_NO_WORKERS,
        ZTA_ITEM, ("in enumerate(train_loader):", "in zip(range(3), train_loader):")], support=ZTA_SEQ2SEQ),
]

RECIPES += [
    _r("alad_simple_cnn", _alad("157a5f458f272a513eb6b4a19d6613aec32dc21c"), ALAD_BASICS + "pytorch_simple_CNN.py",
       [ALAD_SEED, ALAD_MNIST, ALAD_MNIST, ("num_epochs = 5", "num_epochs = 1")]),
    _r("alad_std_mean", _alad("0b75c94981e89102c8eff00017981e45eacc242f"), ALAD_BASICS + "pytorch_std_mean.py",
       [ALAD_SEED, ("datasets.CIFAR10(", "__import__('corpus_support').fake_cifar10(")]),
    # without CUDA: its assert goes, the CNN is 8 and 16 channels wide (420 and 1000), and cuda.amp's GradScaler and
    # autocast run disabled (each warns so)
    _r("alad_mixed_precision", _alad("058742e581f158536825bf0c937b15012e6c5315"),
       ALAD_BASICS + "pytorch_mixed_precision_example.py",
       [ALAD_SEED, ("assert device == \"cuda\", \"GPU not available\"", "print(device == \"cuda\", device == \"cpu\")"),
        ("out_channels=420", "out_channels=8"), ("in_channels=420", "in_channels=8"),
        ("out_channels=1000", "out_channels=16"), ("nn.Linear(1000 * 7 * 7", "nn.Linear(16 * 7 * 7"), ALAD_MNIST,
        ALAD_MNIST, ("num_epochs = 5", "num_epochs = 1"),
        ("        scaler.update()\n", "        scaler.update()\n        print(loss.item(), scaler.get_scale(), scaler.is_enabled())\n")]),
]

ALAD_ADVANCED = "ML/Pytorch/more_advanced/"
RECIPES += [
    _r("alad_transformer_from_scratch", _alad("3b8992fe274f31df61464fc127cde9ffb34896e7"),
       ALAD_ADVANCED + "transformer_from_scratch/transformer_from_scratch.py",
       [ALAD_SEED, ("    print(out.shape)\n", "    print(out.shape)\n    print(out[:, :2, :4])\n")]),
    _r("alad_vae_model", _alad("609b7511c82c3421459df79e2324c8ee5a5dbfc5"), ALAD_ADVANCED + "VAE/model.py", [ALAD_SEED]),
    _r("alad_vae_train", _alad("609b7511c82c3421459df79e2324c8ee5a5dbfc5"), ALAD_ADVANCED + "VAE/train.py",
       [ALAD_SEED, ALAD_MNIST,  # the generated digits' pixel sums instead of their PNG files
        ('save_image(out, f"generated_{digit}_ex{example}.png")', "print(digit, example, out.sum().item())")],
       support=[(ALAD_ADVANCED + "VAE/model.py", "model.py")]),
]

# The CNN architectures from scratch: each builds its model and runs a random batch through it; 224x224 images are
# cut to what the model accepts at a fraction of the time (ResNet101's 4 at 224 take 10 s in core)
ALAD_CNN = "ML/Pytorch/CNN_architectures/"
RECIPES += [
    _r("alad_lenet5", _alad("609b7511c82c3421459df79e2324c8ee5a5dbfc5"), ALAD_CNN + "lenet5_pytorch.py",
       [ALAD_SEED, ("    print(out.shape)", "    print(out.shape)\n    print(out[:2])")]),
    _r("alad_vgg", _alad("28bd89ea9c07db15ebaa232328a53e03614b1c88"), ALAD_CNN + "pytorch_vgg_implementation.py",
       [ALAD_SEED, ("nn.Linear(512 * 7 * 7, 4096)", "nn.Linear(512 * 7 * 7, 1024)"),  # 120M parameters: 2.5 s in core
        ("nn.Linear(4096, 4096)", "nn.Linear(1024, 1024)"), ("nn.Linear(4096, num_classes)", "nn.Linear(1024, num_classes)")]),
    _r("alad_resnet", _alad("26a6b85bbcb1bd6f9a5149025e80b8584b9696f6"), ALAD_CNN + "pytorch_resnet.py",
       [ALAD_SEED, ("net(torch.randn(4, 3, 224, 224))", "net(torch.randn(2, 3, 32, 32))")]),
    _r("alad_inceptionet", _alad("1ba55b73824a4eb1c0c30c5afd59bfda6f715edc"), ALAD_CNN + "pytorch_inceptionet.py",
       [ALAD_SEED, ("x = torch.randn(3, 3, 224, 224)", "x = torch.randn(1, 3, 224, 224)"),
        ("    print(model(x)[2].shape)\n", "    print(model(x)[2].shape)\n    model.eval()\n    print(model(x)[0, :4])\n")]),
    _r("alad_efficientnet", _alad("2d876db44c7c62a764af75da36d9b03fdbdd1d53"), ALAD_CNN + "pytorch_efficientnet.py",
       [ALAD_SEED, ("x = torch.randn((num_examples, 3, res, res))", "x = torch.randn((num_examples, 3, 64, 64))"),
        ("    print(model(x).shape) # (num_examples, num_classes)\n",
         "    print(model(x).shape) # (num_examples, num_classes)\n    print(model(x))\n")]),
]

# The GANs: MNIST through the stand-ins (64x64 for the DCGAN, which Resize(64)s it), one epoch, losses printed at each
# epoch's first batch as the scripts do
ALAD_GANS = "ML/Pytorch/GANs/"
# core's writer would be fed the torchvision stub's make_grid images (torch's run has no tensorboard: a stub writer)
SILENT_WRITER = ("from torch.utils.tensorboard import SummaryWriter", "from corpus_support import SilentWriter as SummaryWriter")
DCGAN_MODEL = ("aladdinpersson/Machine-Learning-Collection", "95362d7a23de81bc4e7d200bbbcad02a5377f2ef",
               ALAD_GANS + "2. DCGAN/model.py", "model.py")
RECIPES += [
    _r("alad_fc_gan", _alad("65b8c8049560b19ace11ef754cb4dbe5aa415296"), ALAD_GANS + "1. SimpleGAN/fc_gan.py",
       [ALAD_SEED, ALAD_MNIST, ("num_epochs = 50", "num_epochs = 3"), SILENT_WRITER]),
    _r("alad_dcgan_model", _alad("95362d7a23de81bc4e7d200bbbcad02a5377f2ef"), ALAD_GANS + "2. DCGAN/model.py",
       [ALAD_SEED]),
    _r("alad_dcgan_train", _alad("609b7511c82c3421459df79e2324c8ee5a5dbfc5"), ALAD_GANS + "2. DCGAN/train.py",
       [ALAD_SEED, ("datasets.MNIST(", "__import__('corpus_repos').fake_mnist_64("), ("NUM_EPOCHS = 5", "NUM_EPOCHS = 2"),
        ("FEATURES_DISC = 64", "FEATURES_DISC = 8"), ("FEATURES_GEN = 64", "FEATURES_GEN = 8"), SILENT_WRITER],
       support=[DCGAN_MODEL]),
]

RECIPES += [  # the GAN architectures' own tests, on smaller random batches, with their outputs' values printed too
    _r("alad_cyclegan_generator", _alad("2a397b17e2153ad07210e924cffdae1fa4db9877"),
       ALAD_GANS + "CycleGAN/generator_model.py",
       [ALAD_SEED, ("img_size = 256", "img_size = 64"),
        ("    print(gen(x).shape)\n", "    print(gen(x).shape)\n    print(gen(x)[0, :, :2, :3])\n")]),
    _r("alad_cyclegan_discriminator", _alad("2a397b17e2153ad07210e924cffdae1fa4db9877"),
       ALAD_GANS + "CycleGAN/discriminator_model.py",
       [ALAD_SEED, ("torch.randn((5, 3, 256, 256))", "torch.randn((2, 3, 64, 64))"),
        ("    print(preds.shape)\n", "    print(preds.shape)\n    print(preds[:, 0, :2])\n")]),
    _r("alad_srgan_model", _alad("5033cbb56721539b7c41667d9f4ad5faaeedf5b1"), ALAD_GANS + "SRGAN/model.py",
       [ALAD_SEED, ("torch.randn((5, 3, low_resolution, low_resolution))", "torch.randn((2, 3, low_resolution, low_resolution))"),
        ("        print(disc_out.shape)\n", "        print(disc_out.shape)\n        print(gen_out[0, 0, :2, :4], disc_out)\n")]),
]

RECIPES += [  # YOLOv3 (Darknet-53): its test at 32x32 (416x416 takes minutes in core), the outputs' first values printed
    _r("alad_yolov3_model", _alad("4a6627a3bfb29c0cd24277f10dfab1c9d95d0f40"),
       "ML/Pytorch/object_detection/YOLOv3/model.py",
       [ALAD_SEED, ("IMAGE_SIZE = 416", "IMAGE_SIZE = 32"), ("torch.randn((2, 3, IMAGE_SIZE", "torch.randn((1, 3, IMAGE_SIZE"),
        ("(2, 3, IMAGE_SIZE//32", "(1, 3, IMAGE_SIZE//32"), ("(2, 3, IMAGE_SIZE//16", "(1, 3, IMAGE_SIZE//16"),
        ("(2, 3, IMAGE_SIZE//8", "(1, 3, IMAGE_SIZE//8"),
        ('    print("Success!")\n', '    print("Success!")\n    print([o[0, 0, 0, 0, :4] for o in out])\n')]),
]

RECIPES += [
    _r("alad_bidirectional_lstm", _alad("28bd89ea9c07db15ebaa232328a53e03614b1c88"),
       ALAD_BASICS + "pytorch_bidirectional_lstm.py",
       [ALAD_SEED, ALAD_MNIST_SMALL, ALAD_MNIST_SMALL, ("num_epochs = 2", "num_epochs = 1"),
        ("hidden_size = 256", "hidden_size = 32")]),
    # what it plots (its add_hparams metrics) printed; the writer is silent (torch's run has no tensorboard)
    _r("alad_tensorboard", _alad("2eabf603bafbedc36cabccb6644ae90843eb4138"), ALAD_BASICS + "pytorch_tensorboard_.py",
       [ALAD_SEED, ALAD_MNIST, SILENT_WRITER,
        ("            writer.add_hparams(", "            print(sum(accuracies)/len(accuracies), sum(losses)/len(losses))\n"
                                          "            writer.add_hparams(")]),
]
