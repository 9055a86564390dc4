"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Neuromatch Academy's Deep Learning course (corpus helper s30 NMA, 2026-12-07): the instructor notebooks (their
exercise cells filled in) of NeuromatchAcademy/course-content-dl at 566c388 (2026-04-29, "Merge pull request
#1027"; code BSD-3-Clause, text CC-BY-4.0). Each runs as Jupyter runs it (``keep_going``): a cell that fails prints
its error and the next one runs. ``corpus_nma.install()`` comes first: the videos', feedback gadgets' and
sliders' modules as stand-ins that draw nothing.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

NMA = ("NeuromatchAcademy/course-content-dl", "566c38870350401be9f50224d4178e66e2b172bc", "BSD-3-Clause")
INSTALL = ("# @title Tutorial slides\n", "__import__('corpus_nma').install()\n# @title Tutorial slides\n")


def _nma(name, folder, notebook, edits=(), **kw):
    return _r(f"nma_{name}", NMA, f"tutorials/{folder}/instructor/{notebook}.ipynb", [INSTALL, *edits],
              keep_going=True, **kw)


def _project(name, path, first, edits=(), **kw):
    """A project template notebook (``projects/``): ``install()`` goes before its ``first`` line."""
    return _r(f"nma_project_{name}", NMA, f"projects/{path}.ipynb",
              [(first, f"__import__('corpus_nma').install()\n{first}"), *edits], keep_going=True, **kw)


RESNET_CONVS = ("float32 conv2d summation order: torch runs the CIFAR ResNet-18's 3x3 convolutions through oneDNN, "
                "core through its im2col GEMM (a 64-to-64 3x3 conv on 32 images of 32x32 differs in the last bit of 91% "
                "of its outputs, and by the order in float64 too); two epochs of SGD through its 20 batch norms grow "
                "that to the report's 3rd-4th digit (conv1.weight's sum -0.7120179 core, -0.7136888 torch), while the "
                "printed losses and accuracies agree")
CIFAR_SMALL = "__import__('corpus_support').fake_cifar10_small("  # 32 training and 8 test images: ResNet-18 in core
NO_WORKERS = ("num_workers = multiprocessing.cpu_count()", "num_workers = 0  # the machine's cores, in the loaders")


DATASETS = "datasets = __import__('corpus_nma').DATASETS  # seeded stand-ins of the downloads\n"
IMAGE_FOLDER = ("from torchvision.datasets import ImageFolder\n",
                "ImageFolder = __import__('corpus_nma').FakeImageFolder  # the course's image sets as seeded noise\n")
TORCHVISION_DATASETS = ("import torchvision.datasets as datasets\n", DATASETS)

NOT_INSTALLED = [(f"{line}\n", "") for line in (  # imported for the word-embedding and BERT cells only
    "import fasttext", "from nltk.corpus import brown", "from sklearn.manifold import TSNE",
    "from sklearn.metrics.pairwise import cosine_similarity",
    "from transformers import AutoTokenizer, BertTokenizer, BertModel, BertForMaskedLM")]

SEABORN = ("import seaborn as sns\n", "sns = __import__('corpus_nma').Gadget()  # seaborn (not installed) draws\n")
TRANGE = "from corpus_nma import trange  # tqdm's stub has none\n"


def _trange(imports):
    """``from tqdm.notebook import <imports>`` (with ``trange``) with corpus_nma's ``trange``."""
    rest = ", ".join(name for name in imports.split(", ") if name != "trange")
    return (f"from tqdm.notebook import {imports}\n", f"from tqdm.notebook import {rest}\n{TRANGE}")


RECIPES += [
    _nma("w1d1_pytorch", "W1D1_BasicsAndPytorch", "W1D1_Tutorial1",
         [("from torchvision import datasets\n", DATASETS)] * 2 + [
          ("z = torch.empty(1, 1, 5)", "z = torch.zeros(1, 1, 5)  # empty's memory is arbitrary"),
          ("dim = 10000\n", "dim = 200\n"),  # two 10000x10000 products
          ("t_total += end - start", "t_total += 0  # a wall-clock time"),
          ('X_orig = data[["x0", "x1"]].to_numpy()', "X_orig = X  # pandas is a stub: the CSV it wrote, read back"),
          ('y_orig = data["y"].to_numpy()', "y_orig = y"),
          ("epochs = 15000", "epochs = 3000")]),
    _nma("w1d2_gradients_autograd", "W1D2_LinearDeepLearning", "W1D2_Tutorial1"),
    _nma("w1d2_deep_linear_nets", "W1D2_LinearDeepLearning", "W1D2_Tutorial3"),
    _nma("w1d3_mlp_biological", "W1D3_MultiLayerPerceptrons", "W1D3_Tutorial1"),
    _nma("w1d3_deep_mlps", "W1D3_MultiLayerPerceptrons", "W1D3_Tutorial2",
         [(IMAGE_FOLDER[0], "ImageFolder = __import__('corpus_nma').SmallImageFolder  # 600 seeded animal faces\n"),
          ("num_epochs=30, device=DEVICE)", "num_epochs=2, device=DEVICE)"),
          ("num_epochs=100, device=device)", "num_epochs=10, device=device)"),
          ("num_epochs=100, device=DEVICE)", "num_epochs=10, device=DEVICE)"),
          ("max_poly_degree = 50", "max_poly_degree = 10"), ("N = 10  # Number of trials", "N = 3  # Number of trials")]),
    _nma("w1d4_optimization", "W1D4_Optimization", "W1D4_Tutorial1",
         [TORCHVISION_DATASETS, ("[50000, 10000]", "[250, 50]")]),  # the stand-in has 300 training images
    _nma("w2d1_regularization1", "W2D1_Regularization", "W2D1_Tutorial1",
         [IMAGE_FOLDER, ("max_epochs = 10000", "max_epochs = 1000"), *[("'epochs': 200,", "'epochs': 5,")] * 4,
          ("print(f\"Time to memorize the dataset: {end_time - start_time}\")",
           "print(f\"Time to memorize the dataset: {0}\")  # a wall-clock time")]),
    _nma("w2d1_regularization2", "W2D1_Regularization", "W2D1_Tutorial2",
         [IMAGE_FOLDER, *[("max_epochs = 10000", "max_epochs = 1000")] * 2,
          *[(f"'epochs': {n},", "'epochs': 5,") for n in (150, 150, 150, 150, 200, 250, 20)]]),
    _nma("w2d2_convnets", "W2D2_ConvnetsAndDlThinking", "W2D2_Tutorial1", [TORCHVISION_DATASETS, _trange("tqdm, trange"), *[("validation_loader, 20)", "validation_loader, 3)")] * 3,
          ("import scipy.signal\n", "scipy = __import__('corpus_nma').SCIPY  # SciPy is not installed\n"),
          ("from scipy.signal import correlate2d\n", "from corpus_nma import correlate2d\n")]),
    _nma("w2d3_modern_convnets", "W2D3_ModernConvnets", "W2D3_Tutorial1",
         [IMAGE_FOLDER, ('state_dict = torch.hub.load_state_dict_from_url("https://osf.io/9dzeu/download")',
                         "raise ConnectionError('no download: the pretrained AlexNet cell fails as offline')")]),
    _nma("w2d4_vae", "W2D4_GenerativeModels", "W2D4_Tutorial1",
         [("from torchvision import datasets, transforms\n", "from torchvision import transforms\n" + DATASETS),
          ("from pytorch_pretrained_biggan import one_hot_from_names\n", ""),  # for its BigGAN cells only
          ("mnist = datasets.MNIST('./mnist/',", "mnist = datasets.MNIST('./mnist/', size=500,"),  # batches of 250
          ("cifar10 = datasets.CIFAR10('./cifar10/',", "cifar10 = datasets.CIFAR10('./cifar10/', size=500,"),
          ("def train_autoencoder(autoencoder, dataset, device, epochs=20,",
           "def train_autoencoder(autoencoder, dataset, device, epochs=3,"),
          ("def train_vae(vae, dataset, epochs=10,", "def train_vae(vae, dataset, epochs=3,"),
          _trange("tqdm, trange")],
         xfail="float32 conv2d summation order in the convolutional autoencoders (oneDNN in torch, core's im2col "
               "GEMM: their 3-epoch losses differ in the 7th digit) and torch.svd_lowrank of the 784x784 pixel "
               "covariance, whose QR and small SVD run in MKL's LAPACK in torch and NumPy's in core: one of the 20 "
               "components comes back with the other sign (the PCA code's sum -5.58 core, 1.60 torch; the "
               "reconstruction agrees to 7 digits)"),
    _nma("w2d4_diffusion", "W2D4_GenerativeModels", "W2D4_Tutorial2",
         [_trange("trange, tqdm"), SEABORN, ("from scipy.stats import multivariate_normal\n",
                                             "from corpus_nma import multivariate_normal  # SciPy's\n")],
         # matches torch since core._small_gemm follows MKL for 2 and 3 rows (80e9cad8): its Linear(50, 2)
         # weight gradient, grad_output.T (2 x 10000) @ hidden (10000 x 50), was the xfail's cause
         ),
    _nma("w2d4_diffusion_unet", "W2D4_GenerativeModels", "W2D4_Tutorial3",
         [("from torchvision.datasets import MNIST\n", "MNIST = __import__('corpus_nma').DATASETS.MNIST\n"),
          _trange("trange, tqdm"), ("n_epochs = 12", "n_epochs = 2"), ("n_epochs = 10", "n_epochs = 2"),
          *[("num_steps = 250", "num_steps = 20")] * 2, *[("sample_batch_size = 64", "sample_batch_size = 8")] * 2],
         xfail="float32 conv2d summation order: torch runs the score U-Net's convolutions through oneDNN, core through "
               "its im2col GEMM (a 3x3 conv differs in the last bit of most outputs, by the order in float64 too); "
               "the first epoch's average loss prints 6672.542969 (core) vs 6672.542480 (torch)"),
    _nma("w2d5_attention", "W2D5_AttentionAndTransformers", "W2D5_Tutorial1",
         [*NOT_INSTALLED, ("if not os.path.exists(fname):\n  print('Dataset is being downloading...')",
                           "if False:  # no download: corpus_nma's stand-in reviews\n  print('Dataset')"),
          ('DATASET = datasets.load_dataset("yelp_review_full",\n                                download_mode='
           '"reuse_dataset_if_exists",\n                                cache_dir=\'data/\')',
           "DATASET = __import__('corpus_nma').yelp_dataset()"),
          ("tokenizer = AutoTokenizer.from_pretrained('bert-base-cased', cache_dir='data/')\ntrain_loader, "
           "test_loader, max_len, vocab_size, num_classes = load_yelp_data(DATASET, tokenizer)",
           "train_loader, test_loader, max_len, vocab_size, num_classes = "
           "__import__('corpus_nma').yelp_loaders(DATASET)"),
          ("if DEVICE != 'cpu':\n  train_loss, test_loss = train(", "if True:  # on the CPU too (64 reviews)\n"
           "  train_loss, test_loss = train(")]),
    _nma("w3d1_time_series_nlp", "W3D1_TimeSeriesAndNaturalLanguageProcessing", "W3D1_Tutorial1",
         [("import fasttext\n", ""), ("from nltk.corpus import brown\n", ""),  # the word-embedding cells' only
          ("import tokenizers\n", "tokenizers = __import__('corpus_nma').TOKENIZERS  # Hugging Face's\n"),
          ('fname = "fasttext.simple.300d"\n\nprint(\'Downloading Started...\')\n# Downloading the file by sending the '
           "request to the URL\nr = requests.get(url, stream=True)\n\n# Writing the file to the local file system\n"
           "with open(fname, 'wb') as f:\n  f.write(r.content)",
           'fname = "fasttext.simple.300d"\n__import__(\'corpus_nma\').fasttext_vec(fname)  # wiki.simple.vec\'s stand-in'),
          ("  dataset = datasets.load_dataset(dataset_name)\n",
           "  dataset = __import__('corpus_nma').ag_news()  # AG News' stand-in\n"),
          ("time.time() - epoch_start_time,", "0,  # a wall-clock time")]),
    _project("data_augmentation", "ComputerVision/data_augmentation", "# @title Install dependencies\n",
             [("torchvision.datasets.CIFAR10(", CIFAR_SMALL)] * 2 + [
              NO_WORKERS, ("end_apochs = 15", "end_apochs = 2")], xfail=RESNET_CONVS),
    _project("transfer_learning", "ComputerVision/transfer_learning", "# imports\n",
             [("torchvision.datasets.CIFAR100(", CIFAR_SMALL)] * 2 + [("torchvision.datasets.CIFAR10(", CIFAR_SMALL)] * 2
             + [NO_WORKERS] * 2 + [("max_epochs = 15", "max_epochs = 2"), ("max_epochs_target = 10", "max_epochs_target = 2"),
                ("checkpointPath = '/content/checkpoint/pretrain.t7'",  # where its pretraining cell saved it
                 "checkpointPath = './checkpoint/pretrain.t7'")]),
    _project("example_dl_project", "modelingsteps/Example_Deep_Learning_Project", "# Imports\n",
             [("r = requests.get('https://osf.io/mnqb7/download')", "r = __import__('corpus_nma').movi_response()"),
              ("num_epochs = 500", "num_epochs = 20"), ("if (epoch + 1) % 100 == 0:", "if (epoch + 1) % 10 == 0:"),
              ("num_epochs = 500,", "num_epochs = 5,"),
              ("for repeat in range(6):", "for repeat in range(1):")],
             xfail="float32 conv1d summation order: torch runs the MoVi network's Conv1d(48, 56, 5, stride=2) on a "
                   "batch of 516 through oneDNN, core through its im2col GEMM; 348407 of the 520128 first-layer "
                   "outputs differ in the last bit at the first step (in float64 too, 1e-11 relative: the order, not "
                   "a formula), and 10 Adam epochs on the seeded noise grow that to a printed batch accuracy of "
                   "36.05% (core) vs 36.24% (torch), 20 to a loss of 1.4208 vs 1.4210"),
    _project("machine_translation", "NaturalLanguageProcessing/machine_translation", "# Imports\n",
             [("from sklearn.utils import shuffle\n", "from corpus_nma import shuffle  # scikit-learn's\n"),
              ("r = requests.get(zip_file_url)\nz = zipfile.ZipFile(io.BytesIO(r.content))\n__shown = (z.extractall())",
               "__shown = __import__('corpus_text').eng_fra_data()  # data.zip's eng-fra.txt: corpus_text's pairs")]),
]

# the end of each script (after the edits above): our report cell goes after it (corpus_nma.report)
LAST = {
    'w1d1_pytorch':
        ').interactive())\nif __shown is not None:\n    print(repr(__shown))',
    'w1d2_gradients_autograd':
        '__shown = (content_review(f"{feedback_prefix}_Tutorial_1_WrapUp_Video"))\n'
        'if __shown is not None:\n    print(repr(__shown))',
    'w1d2_deep_linear_nets':
        '__shown = (content_review(f"{feedback_prefix}_Linear_Regression_Discussion_Video'
        '"))\nif __shown is not None:\n    print(repr(__shown))',
    'w1d3_mlp_biological':
        '__shown = (content_review(f"{feedback_prefix}_Real_and_Artificial_neuron_similar'
        'ities_Bonus_Discussion"))\nif __shown is not None:\n    print(repr(__shown))',
    'w1d3_deep_mlps':
        '__shown = (plt.show())\nif __shown is not None:\n    print(repr(__shown))',
    'w1d4_optimization':
        "__shown = (print(f'Train Accuracy {100*train_accuracy:.3f}% / Test Accuracy {100"
        "*test_accuracy:.3f}%'))\nif __shown is not None:\n    print(repr(__shown))",
    'w2d1_regularization1':
        '__shown = (content_review(f"{feedback_prefix}_Early_Stopping_Generalization_Bonu'
        's_Discussion"))\nif __shown is not None:\n    print(repr(__shown))',
    'w2d1_regularization2':
        '__shown = (content_review(f"{feedback_prefix}_Adversarial_Attacks_Bonus_Video"))'
        '\nif __shown is not None:\n    print(repr(__shown))',
    'w2d2_convnets':
        '__shown = (content_review(f"{feedback_prefix}_Data_Augmentation_Bonus_Discussion'
        '"))\nif __shown is not None:\n    print(repr(__shown))',
    'w2d3_modern_convnets':
        '__shown = (content_review(f"{feedback_prefix}_Speed_and_accuracy_correlation_Exe'
        'rcise"))\nif __shown is not None:\n    print(repr(__shown))',
    'w2d4_vae':
        '__shown = (content_review(f"{feedback_prefix}_SOTA_VAEs_and_WrapUp_Video"))\n'
        'if __shown is not None:\n    print(repr(__shown))',
    'w2d4_diffusion':
        'plt.legend(handles=handles)\n__shown = (plt.show())\nif __shown is not None:\n'
        '    print(repr(__shown))',
    'w2d4_diffusion_unet':
        '__shown = (torch.cuda.empty_cache())\nif __shown is not None:\n'
        '    print(repr(__shown))',
    'w2d5_attention':
        '__shown = (content_review(f"{feedback_prefix}_Biases_of_using_these_models_in_ot'
        'her_fields_Discussion"))\nif __shown is not None:\n    print(repr(__shown))',
    'w3d1_time_series_nlp':
        '__shown = (print(f"This is a {ag_news_label[predict(ex_text_str)]} news"))\n'
        'if __shown is not None:\n    print(repr(__shown))',
    'project_data_augmentation':
        '__shown = (plt.show())\nif __shown is not None:\n    print(repr(__shown))',
    'project_transfer_learning':
        '__shown = (plt.show())\nif __shown is not None:\n    print(repr(__shown))',
    'project_example_dl_project':
        '  print(f"median performance: {(np.median(performances)):.2f}%")',
    'project_machine_translation':
        '                                      pairs[-i][0],\n'
        '                                      input_lang,\n'
        "                                      output_lang)))\n  print('*' * 40)",
}
REPORT = "\n\n# ---- next notebook cell ----\n\n__import__('corpus_nma').report(globals())\n"  # CELL_BREAK, our cell
for recipe in RECIPES:
    end = LAST[recipe["name"].removeprefix("nma_")]
    recipe["edits"].append((end, end + REPORT))
