"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

sentence-transformers' own package on core (2026-12-06, corpus helper s27 SBERT): UKPLab/sentence-transformers at
its v5.1.2 release (Apache-2.0) on transformers' v4.57.6 package (``recipes_hf.HF_PACKAGE``, the Hub's
``serialization`` package with it), fetched beside each script and loaded in both runs (``runner._fetched_packages``
and ``runner._real_transformers``). Each driver script is one of the library's modules run as the module it is
(``__package__`` set after its ``from __future__`` line) with a call to a driver in ``corpus_sbert.py`` before its
first definition: tiny random-initialised BERT, DistilBERT and MPNet checkpoints saved into a temporary folder with a
small vocabulary, ``models.Transformer`` + ``Pooling``/``Dense``/``Normalize``, ``encode``'s options,
similarities, semantic search, paraphrase mining, community detection, its losses through three hand-written AdamW
steps each, ``CrossEncoder`` and ``SparseEncoder``, save/load, its evaluators. The models attend with transformers'
``eager`` attention; the ``sbert_sdpa_*`` scripts take transformers' default (``F.scaled_dot_product_attention``).
Five of its own test modules run through pytest (``corpus_pruning.run_pytest``). What it imports and is not
installed (tqdm, SciPy's and scikit-learn's few functions, transformers' Trainer side, which is not in the corpus's
copy of 4.57.6) is ``fake_sbert_deps.py``.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_hf import HF, HF_PACKAGE

RECIPES: list[dict] = []

SBERT = ("UKPLab/sentence-transformers", "dfcbbd93056c6292ee6a245c0740683a270df0b1", "Apache-2.0")  # v5.1.2
SBERT_FILES = """LoggingHandler SentenceTransformer __init__ backend/__init__ backend/load backend/optimize backend/quantize
backend/utils cross_encoder/CrossEncoder cross_encoder/__init__ cross_encoder/data_collator cross_encoder/evaluation/__init__
cross_encoder/evaluation/classification cross_encoder/evaluation/correlation cross_encoder/evaluation/deprecated
cross_encoder/evaluation/nano_beir cross_encoder/evaluation/reranking cross_encoder/fit_mixin
cross_encoder/losses/BinaryCrossEntropyLoss cross_encoder/losses/CachedMultipleNegativesRankingLoss
cross_encoder/losses/CrossEntropyLoss cross_encoder/losses/LambdaLoss cross_encoder/losses/ListMLELoss
cross_encoder/losses/ListNetLoss cross_encoder/losses/MSELoss cross_encoder/losses/MarginMSELoss
cross_encoder/losses/MultipleNegativesRankingLoss cross_encoder/losses/PListMLELoss cross_encoder/losses/RankNetLoss
cross_encoder/losses/__init__ cross_encoder/model_card cross_encoder/trainer cross_encoder/training_args
cross_encoder/util data_collator datasets/DenoisingAutoEncoderDataset datasets/NoDuplicatesDataLoader
datasets/ParallelSentencesDataset datasets/SentenceLabelDataset datasets/SentencesDataset datasets/__init__
evaluation/BinaryClassificationEvaluator evaluation/EmbeddingSimilarityEvaluator evaluation/InformationRetrievalEvaluator
evaluation/LabelAccuracyEvaluator evaluation/MSEEvaluator evaluation/MSEEvaluatorFromDataFrame
evaluation/NanoBEIREvaluator evaluation/ParaphraseMiningEvaluator evaluation/RerankingEvaluator
evaluation/SentenceEvaluator evaluation/SequentialEvaluator evaluation/SimilarityFunction
evaluation/TranslationEvaluator evaluation/TripletEvaluator evaluation/__init__ fit_mixin losses/AdaptiveLayerLoss
losses/AnglELoss losses/BatchAllTripletLoss losses/BatchHardSoftMarginTripletLoss losses/BatchHardTripletLoss
losses/BatchSemiHardTripletLoss losses/CachedGISTEmbedLoss losses/CachedMultipleNegativesRankingLoss
losses/CachedMultipleNegativesSymmetricRankingLoss losses/CoSENTLoss losses/ContrastiveLoss
losses/ContrastiveTensionLoss losses/CosineSimilarityLoss losses/DenoisingAutoEncoderLoss losses/DistillKLDivLoss
losses/GISTEmbedLoss losses/MSELoss losses/MarginMSELoss losses/Matryoshka2dLoss losses/MatryoshkaLoss
losses/MegaBatchMarginLoss losses/MultipleNegativesRankingLoss losses/MultipleNegativesSymmetricRankingLoss
losses/OnlineContrastiveLoss losses/SoftmaxLoss losses/TripletLoss losses/__init__ model_card model_card_templates
models/BoW models/CLIPModel models/CNN models/Dense models/Dropout models/InputModule models/LSTM models/LayerNorm
models/Module models/Normalize models/Pooling models/Router models/StaticEmbedding models/Transformer
models/WeightedLayerPooling models/WordEmbeddings models/WordWeights models/__init__ models/tokenizer/PhraseTokenizer
models/tokenizer/WhitespaceTokenizer models/tokenizer/WordTokenizer models/tokenizer/__init__ peft_mixin quantization
readers/InputExample readers/LabelSentenceReader readers/NLIDataReader readers/PairedFilesReader readers/STSDataReader
readers/TripletReader readers/__init__ sampler similarity_functions sparse_encoder/SparseEncoder
sparse_encoder/__init__ sparse_encoder/callbacks/__init__ sparse_encoder/callbacks/splade_callbacks
sparse_encoder/data_collator sparse_encoder/evaluation/ReciprocalRankFusionEvaluator
sparse_encoder/evaluation/SparseBinaryClassificationEvaluator sparse_encoder/evaluation/SparseEmbeddingSimilarityEvaluator
sparse_encoder/evaluation/SparseInformationRetrievalEvaluator sparse_encoder/evaluation/SparseMSEEvaluator
sparse_encoder/evaluation/SparseNanoBEIREvaluator sparse_encoder/evaluation/SparseRerankingEvaluator
sparse_encoder/evaluation/SparseTranslationEvaluator sparse_encoder/evaluation/SparseTripletEvaluator
sparse_encoder/evaluation/__init__ sparse_encoder/losses/CSRLoss sparse_encoder/losses/FlopsLoss
sparse_encoder/losses/SparseAnglELoss sparse_encoder/losses/SparseCoSENTLoss sparse_encoder/losses/SparseCosineSimilarityLoss
sparse_encoder/losses/SparseDistillKLDivLoss sparse_encoder/losses/SparseMSELoss sparse_encoder/losses/SparseMarginMSELoss
sparse_encoder/losses/SparseMultipleNegativesRankingLoss sparse_encoder/losses/SparseTripletLoss
sparse_encoder/losses/SpladeLoss sparse_encoder/losses/__init__ sparse_encoder/model_card
sparse_encoder/models/MLMTransformer sparse_encoder/models/SparseAutoEncoder sparse_encoder/models/SparseStaticEmbedding
sparse_encoder/models/SpladePooling sparse_encoder/models/__init__ sparse_encoder/search_engines sparse_encoder/trainer
sparse_encoder/training_args trainer training_args util/__init__ util/decorators util/distributed util/environment
util/file_io util/hard_negatives util/misc util/retrieval util/similarity util/tensor""".split()
SBERT_PACKAGE = [*((*HF[:2], *entry) if len(entry) == 2 else entry for entry in HF_PACKAGE),
                 *((f"sentence_transformers/{name}.py", f"sentence_transformers/{name}.py") for name in SBERT_FILES),
                 *((f"sentence_transformers/{name}", f"sentence_transformers/{name}")  # (read by the model cards)
                   for name in ("model_card_template.md", "cross_encoder/model_card_template.md",
                                "sparse_encoder/model_card_template.md"))]
DRIVERS = "__import__('corpus_sbert')"
FUTURE = "from __future__ import annotations\n"


def _sb(name, module, call, anchor, *, xfail=None, sdpa=False):
    """sentence_transformers/MODULE.py run as its module (``__package__`` set after its ``__future__`` import),
    ``corpus_sbert.CALL()`` inserted before ``anchor`` (its first definition, after its imports)."""
    package = ".".join(["sentence_transformers", *module.split("/")[:-1]])
    calls = f"{DRIVERS}.use_sdpa()\n{DRIVERS}.{call}()" if sdpa else f"{DRIVERS}.{call}()"
    return _r(f"sbert_{name}", SBERT, f"sentence_transformers/{module}.py",
              [(FUTURE, f"{FUTURE}__package__ = {package!r}  # run as the package's module\n"),
               (anchor, f"{calls}\n\n\n{anchor}")], support=SBERT_PACKAGE, xfail=xfail)


def _sb_test(name, path, *args, xfail=None):
    """tests/PATH, one of sentence-transformers' own test modules, run by pytest in the script's process
    (``corpus_pruning.run_pytest``: pytest imports the file as a module and the script stops there); ``args``:
    pytest's, a ``-k`` leaving out tests that load a model from the Hub (they raise ``OfflineModeIsEnabled``)."""
    run = (f"if __name__ == '__main__':  # the module run by pytest, which imports it again\n"
           f"    __import__('corpus_pruning').run_pytest(__file__, *{args!r})\n    raise SystemExit\n")
    return _r(f"sbert_test_{name}", SBERT, f"tests/{path}", [(FUTURE, FUTURE + run)], support=SBERT_PACKAGE,
              xfail=xfail)


def _sb_example(name, path, load, stand_in="pretrained_stand_in"):
    """examples/PATH, one of its application examples, with the pretrained model it downloads (``load``) replaced
    by a seeded tiny one from ``corpus_sbert`` (its sentences are the example's own)."""
    return _r(f"sbert_example_{name}", SBERT, f"examples/{path}", [(load, f"{DRIVERS}.{stand_in}()")],
              support=SBERT_PACKAGE)


POOLING = "\nclass Pooling(Module):"
RECIPES += [
    _sb("encode_pooling", "models/Pooling", "encode_pooling", POOLING),
    _sb("encode_options", "quantization", "encode_options", "\ndef semantic_search_faiss("),
    _sb("similarities", "util/similarity", "similarities", "\ndef pytorch_cos_sim("),
    _sb("search_mining", "util/retrieval", "search_mining", "\ndef paraphrase_mining("),
    _sb("losses_mnrl", "losses/MultipleNegativesRankingLoss", "losses_mnrl",
        "\nclass MultipleNegativesRankingLoss(nn.Module):"),
    _sb("losses_cached", "losses/CachedMultipleNegativesRankingLoss", "losses_cached", "\nclass RandContext:"),
    _sb("losses_cosine", "losses/CoSENTLoss", "losses_cosine", "\nclass CoSENTLoss(nn.Module):"),
    _sb("losses_contrastive", "losses/ContrastiveLoss", "losses_contrastive", "\nclass SiameseDistanceMetric(Enum):"),
    _sb("losses_batch_triplet", "losses/BatchHardTripletLoss", "losses_batch_triplet",
        "\nclass BatchHardTripletLossDistanceFunction:"),
    _sb("losses_distillation", "losses/MSELoss", "losses_distillation", "\nclass MSELoss(nn.Module):"),
    _sb("losses_matryoshka", "losses/MatryoshkaLoss", "losses_matryoshka", "\ndef shrink("),
    _sb("losses_gist", "losses/GISTEmbedLoss", "losses_gist", "\nclass GISTEmbedLoss(nn.Module):"),
    _sb("backbones", "models/Transformer", "backbones", "\ndef _save_pretrained_wrapper("),
    _sb("word_embeddings", "models/WordEmbeddings", "word_embeddings", "\nclass WordEmbeddings(Module):"),
    _sb("save_load", "models/Module", "save_load", "\nclass Module(ABC, torch.nn.Module):"),
    _sb("cross_encoder", "cross_encoder/CrossEncoder", "cross_encoder", "\ndef _save_pretrained_wrapper("),
    _sb("cross_encoder_losses", "cross_encoder/losses/ListNetLoss", "cross_encoder_losses",
        "\nclass ListNetLoss(nn.Module):"),
    _sb("sparse_encoder", "sparse_encoder/SparseEncoder", "sparse_encoder",
        "\nclass SparseEncoder(SentenceTransformer):"),
    _sb("sparse_losses", "sparse_encoder/losses/SpladeLoss", "sparse_losses", "\nclass SpladeLoss(nn.Module):"),
    _sb("evaluators", "evaluation/SentenceEvaluator", "evaluators", "\nclass SentenceEvaluator:"),
    _sb("cross_encoder_evaluators", "cross_encoder/evaluation/reranking", "cross_encoder_evaluators",
        "\nclass CrossEncoderRerankingEvaluator(SentenceEvaluator):"),
    _sb("util_tensor", "util/tensor", "util_tensor", "\ndef _convert_to_tensor("),
    _sb("dense_config", "models/Dense", "dense_config", "\nclass Dense(Module):",
        xfail="core's classes name their module core's (type(nn.Tanh()).__module__ is 'core.nn.modules.activation'):"
              " sentence_transformers.util.fullname prints 'core.nn.modules.activation.Tanh' where torch prints "
              "'torch.nn.modules.activation.Tanh', and Dense saves that name in its config (a model saved under core "
              "names core's classes; the comparison's normalisation covers only quoted names)"),
    _sb("sdpa_encode", "models/Pooling", "encode_pooling", POOLING, sdpa=True),
    _sb("sdpa_losses", "losses/AnglELoss", "losses_cosine", "\nclass AnglELoss(losses.CoSENTLoss):", sdpa=True),
    _sb_example("computing_embeddings", "sentence_transformer/applications/computing-embeddings/computing_embeddings.py",
                'SentenceTransformer("all-MiniLM-L6-v2")'),
    _sb_example("semantic_search", "sentence_transformer/applications/semantic-search/semantic_search.py",
                'SentenceTransformer("all-MiniLM-L6-v2")'),
    _sb_example("cross_encoder_usage", "cross_encoder/applications/cross-encoder_usage.py",
                'CrossEncoder("cross-encoder/stsb-distilroberta-base")', "cross_encoder_stand_in"),
    _sb_test("similarity", "util/test_similarity.py", "-k",  # (500 x 100000 dense: a timing test)
             "not test_pairwise_cos_sim and not test_performance_with_large_vectors"),
    _sb_test("retrieval", "util/test_retrieval.py", "-k", "not test_paraphrase_mining"),
    _sb_test("tensor", "util/test_tensor.py"),
    _sb_test("binary_classification_evaluator", "evaluation/test_binary_classification_evaluator.py"),
    _sb_test("import", "util/test_import.py"),
]
