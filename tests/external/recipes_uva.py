"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

The UvA Deep Learning course's tutorial notebooks (phlippe/uvadlc_notebooks: PyTorch basics, activation functions,
Transformers, GNNs... their plain-torch parts; PyTorch Lightning is not installed, so its cells fail alike in both
runs) and Sean Robertson's Practical PyTorch (spro/practical-pytorch: char-RNN classification and generation,
seq2seq translation, 2017 notebooks whose old spellings get the current ones).
"""

from __future__ import annotations

from recipe_kit import NG, _r

RECIPES: list[dict] = []

UVA = ("phlippe/uvadlc_notebooks", "0da8037c7abc32f478ff6142acceb72dbcf088ee", "MIT")
NB = "docs/tutorial_notebooks/"
NO_SEABORN = ("import seaborn as sns", "import matplotlib as sns")  # plots only (seaborn is not installed)
TMP_CHECKPOINTS = "__import__('tempfile').mkdtemp()"  # a fresh folder per run: a saved model would skip training
NO_WORKERS = [("num_workers=4", "num_workers=0")] * 3  # the three loaders


def _uva(name, path, edits=(), **kw):
    return _r(name, UVA, NB + path, [NO_SEABORN, *edits], keep_going=True, **kw)


def _uva_tut(n, name, path, edits=(), **kw):
    """A numbered tutorial: its checkpoints in a fresh folder and no pretrained downloads (the cells then train)."""
    return _uva(name, f"tutorial{n}/{path}", [
        (f'CHECKPOINT_PATH = "../saved_models/tutorial{n}"', f"CHECKPOINT_PATH = {TMP_CHECKPOINTS}"),
        ("for file_name in pretrained_files:", "for file_name in []:"), *edits], **kw)


RECIPES += [
    _uva("uva_02_intro_pytorch", "tutorial2/Introduction_to_PyTorch.ipynb",
         [("x = torch.Tensor(2, 3, 4)", "x = torch.zeros(2, 3, 4)"),  # uninitialised memory
          ("x = torch.randn(5000, 5000)", "x = torch.randn(50, 50)"),
          ('print(f"CPU time: {(end_time - start_time):6.5f}s")', ""),  # a wall-clock time
          ("loss_module, num_epochs=100)", "loss_module, num_epochs=5)"),
          ("val_dataset, num_epochs=100,", "val_dataset, num_epochs=10,")]),
    _uva_tut(3, "uva_03_activation_functions", "Activation_Functions.ipynb",
         [("FashionMNIST(root=DATASET_PATH, train=True", "__import__('corpus_support').fake_fashion_mnist(root=DATASET_PATH, train=True"),
          ("[50000, 10000]", "[250, 50]"),
          ("FashionMNIST(root=DATASET_PATH, train=False", "__import__('corpus_support').fake_fashion_mnist(root=DATASET_PATH, train=False"),
          ("    net.zero_grad()\n\n    ## Plotting",
           "    net.zero_grad()\n    print({k: float(abs(v).mean()) for k, v in grads.items()})\n\n    ## Plotting"),
          ("max_epochs=50, patience=7, batch_size=256", "max_epochs=2, patience=7, batch_size=64"),
          ("    ## Plotting\n    columns = 4",
           "    print([float(a.std()) for a in activations.values()])\n    ## Plotting\n    columns = 4")]),
    _uva_tut(6, "uva_06_transformers", "Transformers_and_MHAttention.ipynb",
             [("data.DataLoader(dataset(50000)", "data.DataLoader(dataset(1280)"),
              ("data.DataLoader(dataset(1000)", "data.DataLoader(dataset(256)"),
              ("data.DataLoader(dataset(10000)", "data.DataLoader(dataset(256)"), ("max_epochs=10", "max_epochs=3"),
              ("attention_maps = reverse_model.get_attention_maps(inp_data)",
               "attention_maps = reverse_model.get_attention_maps(inp_data)\nprint(attention_maps[0][0, 0, :3])"),
              # the set-anomaly part runs an ImageNet-pretrained ResNet-34 over CIFAR-100
              ("# Loading the training dataset. \ntrain_set = CIFAR100(", "raise SystemExit\ntrain_set = CIFAR100(")]),
    _uva_tut(7, "uva_07_gnn_overview", "GNN_overview.ipynb"),
    _uva_tut(12, "uva_12_autoregressive", "Autoregressive_Image_Modeling.ipynb",
             [*NO_WORKERS,  # the stand-in's images pass the notebook's discretize (its ToTensor is a stub)
              ("train_dataset = MNIST(root=DATASET_PATH, train=True, transform=transform, download=True)",
               "train_dataset = [(discretize(x), y) for x, y in __import__('corpus_support').fake_mnist(size=24)]"),
              ("[50000, 10000]", "[16, 8]"),
              ("test_set = MNIST(root=DATASET_PATH, train=False, transform=transform, download=True)",
               "test_set = [(discretize(x), y) for x, y in __import__('corpus_support').fake_mnist(size=8, train=False)]"),
              *[("batch_size=128", "batch_size=8")] * 3, ("max_epochs=150", "max_epochs=1"),
              ("    img_grads = img.grad.abs()\n",
               "    img_grads = img.grad.abs()\n    print(img_grads.sum().item(), (img_grads > 0).sum().item())\n"),
              # PixelCNN samples pixel by pixel (784 forward passes per image)
              ("pl.seed_everything(1)\nsamples = model.sample(img_shape=(16,1,28,28))",
               "raise SystemExit\npl.seed_everything(1)\nsamples = model.sample(img_shape=(16,1,28,28))")]),
    _uva_tut(15, "uva_15_vision_transformer", "Vision_Transformer.ipynb",
             [*NO_WORKERS, ("train_dataset = CIFAR10(", "train_dataset = __import__('corpus_support').fake_cifar10("),
              ("val_dataset = CIFAR10(", "val_dataset = __import__('corpus_support').fake_cifar10("),
              ("[45000, 5000]", "[250, 50]"), ("[45000, 5000]", "[250, 50]"),
              ("test_set = CIFAR10(", "test_set = __import__('corpus_support').fake_cifar10("),
              ("batch_size=128", "batch_size=50"), ("max_epochs=180", "max_epochs=1"),
              ("'embed_dim': 256", "'embed_dim': 32"), ("'hidden_dim': 512", "'hidden_dim': 64"),
              ("'num_heads': 8", "'num_heads': 4"), ("'num_layers': 6", "'num_layers': 2")]),
    _uva_tut(9, "uva_09_autoencoder", "AE_CIFAR10.ipynb",
             [*NO_WORKERS, ("train_dataset = CIFAR10(", "train_dataset = __import__('corpus_support').fake_cifar10(size=80, "),
              ("[45000, 5000]", "[64, 16]"),
              ("test_set = CIFAR10(", "test_set = __import__('corpus_support').fake_cifar10(size=32, "),
              ("batch_size=256", "batch_size=32"),
              ('    plt.title(f"{title_prefix} Loss: {loss.item():4.2f}")',
               '    print(f"{title_prefix} Loss: {loss.item():4.2f}")'), ("max_epochs=500", "max_epochs=1"),
              ("val_scores = [model_dict[k][\"result\"][\"val\"][0][\"test_loss\"] for k in latent_dims]\n",
               "val_scores = [model_dict[k][\"result\"][\"val\"][0][\"test_loss\"] for k in latent_dims]\nprint(val_scores)\n"),
              ("    dist, indices = torch.sort(dist)\n", "    dist, indices = torch.sort(dist)\n    print(dist[:K])\n"),
              ("NUM_IMGS = len(test_set) ", "NUM_IMGS = 20"),  # the embeddings go to TensorBoard (a stub for torch),
              ("__shown = (writer.add_embedding(", "__shown = None; (writer.add_embedding("),  # not shown
              ("__shown = (writer.close())", "__shown = None\nwriter.close()")]),
    _uva_tut(5, "uva_05_inception_resnet_densenet", "Inception_ResNet_DenseNet.ipynb",
             [*NO_WORKERS, *[(f"{name} = CIFAR10(", f"{name} = __import__('corpus_support').fake_cifar10(size=16, ")
                for name in ("train_dataset", "train_dataset", "val_dataset", "test_set")],
              ("[45000, 5000]", "[8, 8]"), ("[45000, 5000]", "[8, 8]"), *[("batch_size=128", "batch_size=8")] * 3,
              ("max_epochs=180", "max_epochs=1")]),
    _uva_tut(8, "uva_08_deep_energy_models", "Deep_Energy_Models.ipynb",
             [("from mpl_toolkits.mplot3d.axes3d import Axes3D\n", ""),  # 3-d plots only (mplot3d is a stub)
              *NO_WORKERS[:2], ("train_set = MNIST(", "train_set = __import__('corpus_support').fake_mnist(size=16, "),
              ("test_set = MNIST(", "test_set = __import__('corpus_support').fake_mnist(size=16, "),
              ("batch_size=128", "batch_size=8"), ("batch_size=256", "batch_size=8"), ("max_epochs=60", "max_epochs=1"),
              ("GenerateCallback(batch_size=4, vis_steps=8, num_steps=256)",
               "GenerateCallback(batch_size=4, vis_steps=8, num_steps=32)"),
              ("imgs_per_step = imgs_per_step.cpu()\n", "imgs_per_step = imgs_per_step.cpu()\nprint(imgs_per_step[-1].mean(), "
               "imgs_per_step[-1].std())\n")]),
    _uva_tut(11, "uva_11_normalizing_flows", "NF_image_modeling.ipynb",
             [("train_dataset = MNIST(root=DATASET_PATH, train=True, transform=transform, download=True)",
               "train_dataset = [(discretize(x), y) for x, y in __import__('corpus_support').fake_mnist(size=24)]"),
              ("[50000, 10000]", "[16, 8]"),  # the stand-in's images pass the notebook's discretize (ToTensor is a stub)
              ("test_set = MNIST(root=DATASET_PATH, train=False, transform=transform, download=True)",
               "test_set = [(discretize(x), y) for x, y in __import__('corpus_support').fake_mnist(size=8, train=False)]"),
              *[("num_workers=4", "num_workers=0")] * 2, ("num_workers=8", "num_workers=0"),
              ("batch_size=128, shuffle=True", "batch_size=16, shuffle=True"), *[("batch_size=64", "batch_size=8")] * 2,
              ("max_epochs=200", "max_epochs=1"), ("duration = time.time() - start_time", "duration = 0.0"),
              ("def __init__(self, flows, import_samples=8):", "def __init__(self, flows, import_samples=1):"),
              ("    for i in range(8):\n        flow_layers += [CouplingLayer(",  # the simple flows: 2 coupling layers
               "    for i in range(2):\n        flow_layers += [CouplingLayer("),
              ('flow_dict["multiscale"]["model"], flow_dict["multiscale"]["result"] = train_flow(create_multiscale_flow()'
               ', model_name="MNISTFlow_multiscale")', ""),  # the multi-scale flow (12 coupling layers) is not trained
              # sampling and interpolating 28x28 images through the three flows took a minute in core, 20 s in torch
              ('pl.seed_everything(44)\nsamples = flow_dict["vardeq"]["model"].sample(',
               'raise SystemExit\npl.seed_everything(44)\nsamples = flow_dict["vardeq"]["model"].sample(')]),
    _r("uva_dl2_deep_probabilistic_2a", UVA, NB + "DL2/deep_probabilistic_models_II/tutorial_2a.ipynb",
       [("dataset = FashionMNIST(", "dataset = __import__('corpus_support').fake_fashion_mnist_64("),
        ("val_size = 1000", "val_size = 60"), *[("num_workers=2", "num_workers=0")] * 5,
        ("num_epochs=3,  # use more for better models", "num_epochs=1,")], keep_going=True),
    _r("uva_dl2_deep_probabilistic_2b", UVA, NB + "DL2/deep_probabilistic_models_II/tutorial_2b.ipynb",
       [("dataset = FashionMNIST(", "dataset = __import__('corpus_support').fake_fashion_mnist_64("),
        ("val_size = 1000", "val_size = 60"), *[("num_workers=2", "num_workers=0")] * 4,
        ("my_device = torch.device('cuda:0')", "my_device = torch.device('cpu')"),
        ("num_epochs=5,  # use more for better models", "num_epochs=1,")], keep_going=True),
    _r("uva_dl2_group_convolutions", UVA, NB + "DL2/Geometric_deep_learning/tutorial1_regular_group_convolutions_answered.ipynb",
       [('CHECKPOINT_PATH = "../../saved_models/DL2/GDL"', f"CHECKPOINT_PATH = {TMP_CHECKPOINTS}"),
        ("for file_name in files:", "for file_name in []:"),  # paprika.tiff (PIL is a stub)
        ("train_ds = torchvision.datasets.MNIST(", "train_ds = __import__('corpus_support').fake_mnist(size=64, "),
        ("test_ds = torchvision.datasets.MNIST(", "test_ds = __import__('corpus_support').fake_mnist(size=32, "),
        ("max_epochs=10", "max_epochs=1"),
        ("train_ds = torchvision.datasets.MNIST(", "train_ds = __import__('corpus_support').fake_mnist(size=200, "),
        ("digit = transforms.ToTensor()(digit)", "digit = digit  # the stand-in's image is a tensor already")],
       keep_going=True),
    _r("uva_dl2_sampling_introduction", UVA, NB + "DL2/sampling/introduction.ipynb",
       [("cuda=True", "cuda=False"), ("epochs = 10", "epochs = 2"),
        *[("datasets.MNIST(", "__import__('corpus_support').fake_mnist(")] * 2,
        ("OneHotCategorical(probs=probs.cuda())", "OneHotCategorical(probs=probs)"),
        ("samples = generate_samples()\n", "samples = generate_samples()\nprint(samples.mean(), samples.std())\n")],
       keep_going=True),
    _r("uva_dl2_sampling_subsets", UVA, NB + "DL2/sampling/subsets.ipynb",
       [("gpu = torch.device('cuda')", "gpu = torch.device('cpu')"),
        ("torch.tensor([EPSILON]).cuda()", "torch.tensor([EPSILON])"), ("device='cuda'", "device='cpu'"),
        ("datasets.MNIST(root='./data-mnist', download=True)",
         "__import__('corpus_support').fake_mnist(root='./data-mnist', download=True)"),
        ("[55000, 5000]", "[200, 100]"), ("NUM_EPOCHS = 20", "NUM_EPOCHS = 2"),
        ("trans = transforms.Compose(\n                [transforms.ToPILImage(), transforms.ToTensor()]\n            )",
         "trans = lambda x: x.float() / 255  # ToPILImage then ToTensor"),
        ("datasets.MNIST(root='./data-mnist', train=False,", "__import__('corpus_support').fake_mnist(root='./data-mnist', train=False,"),
        ("num_workers=4", "num_workers=0")], keep_going=True),
    _r("uva_guide3_debugging", UVA, NB + "guide3/Debugging_PyTorch.ipynb", keep_going=True),
]

SPRO = ("spro/practical-pytorch", "c520c52e68e945d88fff563dba1c028b6ec0197b", "MIT")
NAMES = [f"data/names/{n}.txt" for n in (
    "Arabic", "Chinese", "Czech", "Dutch", "English", "French", "German", "Greek", "Irish", "Italian", "Japanese",
    "Korean", "Polish", "Portuguese", "Russian", "Scottish", "Spanish", "Vietnamese")]
NAMES_SUPPORT = [(p, p) for p in NAMES]
SORTED_NAMES = ("glob.glob('../data/names/*.txt')", "sorted(glob.glob('data/names/*.txt'))")  # the repository's data
LOSS_ITEM = ("loss.data[0]", "loss.item()")  # indexing a 0-d tensor raises since PyTorch 0.4
NO_ELAPSED = ("    now = time.time()\n    s = now - since\n", "    s = 0  # the elapsed time differs between runs\n")

RECIPES += [
    _r("spro_char_rnn_classification", SPRO, "char-rnn-classification/char-rnn-classification.ipynb",
       [SORTED_NAMES, LOSS_ITEM, NO_ELAPSED, ("n_epochs = 100000", "n_epochs = 300"), ("print_every = 5000", "print_every = 50"),
        ("plot_every = 1000", "plot_every = 50"), ("n_confusion = 10000", "n_confusion = 100"),
        ("# Set up plot\n", "print(all_losses, confusion.diag())\n# Set up plot\n")],
       support=NAMES_SUPPORT, keep_going=True),
    _r("spro_conditional_char_rnn", SPRO, "conditional-char-rnn/conditional-char-rnn.ipynb",
       [SORTED_NAMES, LOSS_ITEM, ("loss += criterion(output, target_line_tensor[i])",
                                   "loss += criterion(output, target_line_tensor[i].unsqueeze(0))"),  # then 1-element
        ("    now = time.time()\n    s = now - t\n", "    s = 0  # the elapsed time\n"),
        ("n_epochs = 100000", "n_epochs = 200"), ("print_every = 5000", "print_every = 50"),
        ("plot_every = 500", "plot_every = 50"), ("plt.figure()\n", "print(all_losses)\nplt.figure()\n")],
       support=NAMES_SUPPORT, keep_going=True),
    _r("spro_char_rnn_generation", SPRO, "char-rnn-generation/char-rnn-generation.ipynb",
       [("import unidecode", "import types\nunidecode = types.SimpleNamespace(unidecode=str)  # the text is ASCII"),
        ("open('../data/shakespeare.txt')", "open('input.txt')"), ("chunk_len = 200", "chunk_len = 50"),
        ("loss += criterion(output, target[c])", "loss += criterion(output, target[c].unsqueeze(0))"), LOSS_ITEM,
        ("    s = time.time() - since\n", "    s = 0  # the elapsed time\n"), ("n_epochs = 2000", "n_epochs = 20"),
        ("print_every = 100", "print_every = 10"), ("plt.figure()\n", "print(all_losses)\nplt.figure()\n")],
       support=[(*NG[:2], "input.txt", "input.txt")], keep_going=True),
    _r("spro_seq2seq_translation", SPRO, "seq2seq-translation/seq2seq-translation.ipynb",
       [("USE_CUDA = True", "USE_CUDA = False"),
        ("    lines = open('../data/%s-%s.txt'",
         "    __import__('corpus_text').eng_fra_data()  # the tutorial's data.zip\n    lines = open('data/%s-%s.txt'"),
        ("energy = hidden.dot(energy)", "energy = hidden.view(-1).dot(energy.view(-1))"),  # dot flattened then
        ("ni = topi[0][0]", "ni = topi[0][0].item()"), LOSS_ITEM,  # indexing gave a number then
        ("hidden_size = 500", "hidden_size = 32"), ("n_epochs = 50000", "n_epochs = 40"),
        ("plot_every = 200", "plot_every = 10"), ("print_every = 1000", "print_every = 10"),
        ("    now = time.time()\n    s = now - since\n", "    s = 0  # the elapsed time\n"),
        ("__shown = (show_plot(plot_losses))", "print(plot_losses)\n__shown = (show_plot(plot_losses))"),
        ("ni = topi[0][0]\n", "ni = topi[0][0].item()\n")], keep_going=True),
]
