"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

torchattacks' own package on core (2026-12-06, corpus helper s23 TORCHATTACKS): Harry24k/adversarial-attacks-pytorch
at its v3.5.1 release (2023-10-20, MIT), ``torchattacks`` fetched beside each script and loaded from there in both
runs (``runner._fetched_packages``); ``fake_torchattacks_deps.py`` stands in for the little of SciPy it imports
(OnePixel's differential evolution, TIFGSM's and PIFGSM++'s Gaussian kernels). Two kinds of script:
- ``code_coverage/test_import.py`` (the package's import test) with calls to ``corpus_torchattacks.py``'s drivers
  appended: each attack on a small seeded CNN and six seeded 16x16 images labelled with its own predictions, in
  its default and targeted modes, printing the adversarial images, distances, logits and predictions; MultiAttack,
  LGV, the training-mode switches, normalisation and ``Attack.save``/``load``;
- ``code_coverage/test_atks.py``, the package's own test of every attack, run by pytest in the script's process
  (``corpus_pruning.run_pytest``, ``-s`` so its accuracy lines print) on the drivers' seeded model and five images in
  place of robustbench's pretrained model and CIFAR-10 (its only edits, with its wall-clock seconds dropped from
  the printed line), split by ``-k`` into groups of attacks.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

TATK = ("Harry24k/adversarial-attacks-pytorch", "936e86d6387ef5ca57e4114d83745cdf199b46cf", "MIT")
_MODULES = ("__init__ attack attacks/__init__ attacks/_differential_evolution attacks/apgd attacks/apgdt "
            "attacks/autoattack attacks/bim attacks/cw attacks/deepfool attacks/difgsm attacks/eaden attacks/eadl1 "
            "attacks/eotpgd attacks/fab attacks/ffgsm attacks/fgsm attacks/gn attacks/jitter attacks/jsma "
            "attacks/mifgsm attacks/nifgsm attacks/onepixel attacks/pgd attacks/pgdl2 attacks/pgdrs attacks/pgdrsl2 "
            "attacks/pifgsm attacks/pifgsmpp attacks/pixle attacks/rfgsm attacks/sinifgsm attacks/sparsefool "
            "attacks/spsa attacks/square attacks/tifgsm attacks/tpgd attacks/upgd attacks/vanila attacks/vmifgsm "
            "attacks/vnifgsm wrappers/__init__ wrappers/lgv wrappers/multiattack").split()
TATK_PACKAGE = [(f"torchattacks/{m}.py", f"torchattacks/{m}.py") for m in _MODULES]
IMPORT = "import torchattacks\n"


def _drive(name, *calls, xfail=None):
    """code_coverage/test_import.py with driver ``calls`` (on ``corpus_torchattacks as ca``) after its import."""
    body = "ca = __import__('corpus_torchattacks')\n" + "\n".join(f"ca.{c}" for c in calls) + "\n"
    return _r(f"tatk_{name}", TATK, "code_coverage/test_import.py", [(IMPORT, IMPORT + body)],
              support=TATK_PACKAGE, xfail=xfail)


def _a(name, **kw):
    """``attack(torchattacks, name, **kw)`` as a call's text."""
    return "attack(torchattacks, " + ", ".join([repr(name), *(f"{k}={v!r}" for k, v in kw.items())]) + ")"


T3 = ("random", "least", "label")
RECIPES += [
    _drive("fgsm", _a("VANILA"), _a("GN", std=0.05), _a("FGSM", targeted=T3), _a("FGSM", eps=4 / 255, normalize=True),
           _a("FFGSM", targeted=("random", "function")), _a("RFGSM", steps=4, targeted=("least",))),
    _drive("bim_pgd", _a("BIM", steps=4, targeted=("label",)), _a("BIM", steps=0),
           _a("PGD", steps=5, targeted=T3), _a("PGD", random_start=False, normalize=True),
           _a("EOTPGD", steps=4, eot_iter=2)),
    _drive("pgd_l2", _a("PGDL2", eps=0.5, alpha=0.1, steps=5, targeted=("random",)),
           _a("PGDL2", random_start=False, steps=3), _a("TPGD", steps=4),
           _a("UPGD", steps=4, loss="margin", targeted=("label",)), _a("UPGD", steps=3, loss="ce", eot_iter=2,
                                                                       random_start=True)),
    _drive("pgd_rs", _a("PGDRS", steps=3, noise_batch_size=4), _a("PGDRSL2", steps=3, noise_batch_size=4,
                                                                      targeted=("random",))),
    _drive("momentum", _a("MIFGSM", steps=4, targeted=("random",)), _a("NIFGSM", steps=4),
           _a("SINIFGSM", steps=3, m=3), _a("VMIFGSM", steps=3, N=3), _a("VNIFGSM", steps=3, N=3, targeted=("least",))),
    _drive("diverse", _a("DIFGSM", steps=4, diversity_prob=1.0, targeted=("random",)),
           _a("DIFGSM", steps=3, decay=1.0, random_start=True), _a("TIFGSM", steps=3, len_kernel=5, nsig=3, dtype="float32"),
           _a("TIFGSM", steps=3, kernel_name="uniform", len_kernel=3, dtype="float32"), _a("Jitter", steps=4, targeted=("label",))),
    _drive("pifgsm", _a("PIFGSM", num_iter_set=4, dtype="float32"),
           _a("PIFGSMPP", num_iter_set=4, targeted=("random",), dtype="float32")),
    _drive("cw", _a("CW", c=1, steps=20, lr=0.05, targeted=("random", "label")), _a("CW", kappa=0.5, steps=10)),
    _drive("ead", _a("EADL1", max_iterations=10, binary_search_steps=3, initial_const=0.1, targeted=("random",),
             dtype="float32"),
           _a("EADEN", max_iterations=10, binary_search_steps=3, initial_const=0.1, abort_early=False,
             dtype="float32")),
    _drive("deepfool", _a("DeepFool", steps=10, n=3), _a("SparseFool", steps=3, n=3, lam=2)),
    _drive("apgd", _a("APGD", steps=6, targeted=()), _a("APGD", norm="L2", eps=0.5, steps=5, loss="dlr"),
           _a("APGDT", steps=5, n_classes=10), _a("APGD", steps=4, n_restarts=2, eot_iter=2)),
    _drive("fab", _a("FAB", steps=5, n_restarts=1, dtype="float32"),
           _a("FAB", steps=3, multi_targeted=True, n_classes=4, dtype="float32")),
    _drive("fab_l2", _a("FAB", norm="L2", eps=0.5, steps=4, dtype="float32"),
           xfail="float32 sqrt: FAB's L2 step scales by sqrt((d3 ** 2).sum(1)) of its float32 projections, and torch's "
           "float32 sqrt is MKL's vector sqrt, not correctly rounded (on 17% of elements; core's is NumPy's, correctly "
           "rounded): the step's a0 differs in the last bit at step 2 and an image value prints 0.230926067 vs "
           "0.230926052"),
    _drive("square", _a("Square", n_queries=40), _a("Square", norm="L2", eps=0.5, n_queries=30, p_init=0.3)),
    _drive("autoattack", _a("AutoAttack", version="rand", n=4, seed=0), _a("AutoAttack", norm="L2", eps=0.5, n=3, seed=0)),
    _drive("spsa", _a("SPSA", eps=8 / 255, nb_iter=2, nb_sample=16, max_batch_size=8, n=3)),
    _drive("onepixel_jsma", _a("OnePixel", pixels=1, steps=3, popsize=4, n=3), _a("JSMA", theta=1.0, gamma=0.05, n=3,
                                                                                      targeted=("label",))),
    _drive("pixle", _a("Pixle", restarts=2, max_iterations=3, n=3),
           _a("Pixle", restarts=2, max_iterations=2, pixel_mapping="similarity", update_each_iteration=True, n=1)),
    _drive("wrappers", "multi(torchattacks)", "training_mode(torchattacks)", "save_load(torchattacks)",
           "lgv(torchattacks)"),
]

# The package's own test of every attack: pytest in the script's process; robustbench's pretrained model and CIFAR-10
# replaced by the drivers' seeded model and images, the printed wall-clock seconds dropped.
TEST_EDITS = [("from robustbench.utils import load_model  # nopep8\n"
               "from robustbench.utils import clean_accuracy  # nopep8\n"
               "from robustbench.data import load_cifar10  # nopep8\n",
               "from corpus_torchattacks import load_model, clean_accuracy, load_cifar10  # seeded stand-ins\n"),
              (" sec={3:2.2f}'.format(\n            atk_class, clean_acc, robust_acc, sec))",
               "'.format(\n            atk_class, clean_acc, robust_acc))"),
              (" sec={3:2.2f}'.format(\n                \"- targeted\", clean_acc, robust_acc, sec))",
               "'.format(\n                \"- targeted\", clean_acc, robust_acc))"),
              ("import sys\n", "import sys\nif __name__ == '__main__':  # the module run by pytest, which imports it "
               "again\n    __import__('corpus_pruning').run_pytest(__file__, '-s')\n    raise SystemExit\n")]
PARAMS = "if atk_class not in torchattacks.__wrapper__]"


SPSA_ARGS = "            kargs['max_batch_size'] = 5\n"
SQUARE_QUERIES = (SPSA_ARGS, SPSA_ARGS + "        if atk_class in ['Square']:  # 5000 queries take a minute of core's CPU\n"
                  "            kargs['n_queries'] = 200\n")


def _test(name, attacks, edits=(), xfail=None):
    """test_atks.py on the attacks named in ``attacks`` (its parametrisation over ``torchattacks.__all__`` kept to
    them, so each script runs in a few seconds)."""
    return _r(f"tatk_test_atks_{name}", TATK, "code_coverage/test_atks.py",
              [*TEST_EDITS, (PARAMS, PARAMS[:-1] + f" and atk_class in {attacks.split()!r}]"), *edits],
              support=TATK_PACKAGE, xfail=xfail)


RECIPES += [
    _test("linf", "VANILA GN FGSM BIM RFGSM PGD EOTPGD FFGSM TPGD MIFGSM UPGD"),
    _test("transfer", "DIFGSM TIFGSM Jitter NIFGSM SINIFGSM VMIFGSM VNIFGSM PIFGSM PIFGSMPP"),
    _test("l2", "CW PGDL2 PGDRS PGDRSL2 DeepFool SparseFool"),
    _test("apgd", "APGD APGDT"),
    _test("fab", "FAB"),
    _test("square", "Square", [SQUARE_QUERIES]),
    _test("autoattack", "AutoAttack"),
    _test("pixel", "OnePixel Pixle"),
    _test("jsma_spsa", "JSMA SPSA"),
    _test("ead", "EADL1 EADEN"),
]
