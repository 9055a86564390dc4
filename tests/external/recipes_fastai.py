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
]
