"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

fast.ai's Practical Deep Learning part 2, "from the foundations" (fastai/course22p2): the early notebooks, on
corpus_support's seeded ``mnist.pkl.gz`` stand-in and (for the later ones) fake_hf_datasets' Fashion-MNIST, with
fake_fastcore as ``fastcore``; its ``miniai`` package is a support file. Then DTU's 02456 deep learning course
(DeepLearningDTU/02456-deep-learning-with-PyTorch), whose notebooks use PyTorch.
"""

from __future__ import annotations

from recipe_kit import _r

FAI = ("fastai/course22p2", "df9323235bc395b5c2f58a3d08b83761947b9b93", "Apache-2.0")
MNIST_PKL = [("if not path_gz.exists(): urlretrieve(MNIST_URL, path_gz)", ""),
             ("with gzip.open(path_gz, 'rb') as f: ((x_train, y_train), (x_valid, y_valid), _) = pickle.load(f, encoding='latin-1')",
              "((x_train, y_train), (x_valid, y_valid), _) = __import__('corpus_support').fake_mnist_pickle()")]
MNIST_PKL_READ = MNIST_PKL[1:]
NO_WORKERS = ("num_workers=4)", "num_workers=0)")
FIT1 = ("learn.fit(3)", "learn.fit(1)")
FEW_IMAGES = ("dsd = load_dataset(name)\n",  # 32 images per split, for models that are slow in core
              "dsd = load_dataset(name)\ndsd = type(dsd)({k: v.select(range(32)) for k, v in dsd.items()})\n")


def _miniai(*names):
    """The course's ``miniai`` package files a notebook imports (support files)."""
    return [("miniai/__init__.py", "miniai/__init__.py"), *((f"miniai/{n}.py", f"miniai/{n}.py") for n in names)]


RECIPES: list[dict] = [
    _r("fai_01_matmul", FAI, "nbs/01_matmul.ipynb",
       [*MNIST_PKL, ("if os.fork(): print(f'In parent: {rand()}')", "if True: print(f'In parent: {rand()}')"),
        ("if os.fork(): print(f'In parent: {torch.rand(1)}')", "if True: print(f'In parent: {torch.rand(1)}')")],
       keep_going=True),
    _r("fai_02_meanshift", FAI, "nbs/02_meanshift.ipynb", keep_going=True),
    _r("fai_03_backprop", FAI, "nbs/03_backprop.ipynb", MNIST_PKL_READ, keep_going=True),
    _r("fai_04_minibatch_training", FAI, "nbs/04_minibatch_training.ipynb",
       [*MNIST_PKL_READ, ("with mp.Pool(self.n_workers) as ex: yield from ex.map(", "yield from map("),
        ("num_workers=2)", "num_workers=0)"), ("num_workers=2)", "num_workers=0)")], keep_going=True),
    _r("fai_05_datasets", FAI, "nbs/05_datasets.ipynb", support=_miniai("training"), keep_going=True),
    _r("fai_07_convolutions", FAI, "nbs/07_convolutions.ipynb",
       [*MNIST_PKL_READ, ("fit(5, simple_cnn", "fit(2, simple_cnn"), ("fit(5, simple_cnn", "fit(2, simple_cnn")],
       support=_miniai("training", "datasets"), keep_going=True),
    _r("fai_08_autoencoder", FAI, "nbs/08_autoencoder.ipynb",
       [("fit(5, cnn", "fit(2, cnn"), ("fit(5, ae", "fit(2, ae"), ("fit(5, ae", "fit(2, ae")],
       support=_miniai("training", "datasets", "conv"), keep_going=True),
    _r("fai_09_learner", FAI, "nbs/09_learner.ipynb", [NO_WORKERS],
       support=_miniai("training", "datasets", "conv"), keep_going=True),
    _r("fai_10_activations", FAI, "nbs/10_activations.ipynb", [NO_WORKERS],
       support=_miniai("training", "datasets", "conv", "learner"), keep_going=True),
    _r("fai_11_initializing", FAI, "nbs/11_initializing.ipynb", [*[NO_WORKERS] * 3, FEW_IMAGES, *[FIT1] * 7, ("for i in range(10000):", "for i in range(1000):"),
        ("(mean/10000,sqr/10000)", "(mean/1000,sqr/1000)")],
       support=_miniai("training", "datasets", "conv", "learner", "activations"), keep_going=True),
    _r("fai_12_accel_sgd", FAI, "nbs/12_accel_sgd.ipynb", [NO_WORKERS, *[FIT1] * 6, ("lr,epochs = 6e-2,5", "lr,epochs = 6e-2,2")],
       support=_miniai("training", "datasets", "conv", "learner", "activations", "init"), keep_going=True),
    _r("fai_13_resnet", FAI, "nbs/13_resnet.ipynb",
       [NO_WORKERS, FEW_IMAGES, ("lr,epochs = 6e-2,5", "lr,epochs = 6e-2,1"), ("lr_find())", "lr_find(max_epochs=3))")],
       support=_miniai("training", "datasets", "conv", "learner", "activations", "init", "sgd"), keep_going=True),
]
