"""Drivers for sentence-transformers' own package (``recipes_sbert.py``; our text).

A recipe runs one of the library's modules as the module it is (the package and transformers' fetched beside it and
loaded in both runs by the runner) and calls a driver here, which imports the package itself. Models are built
without downloads: a tiny random-initialised BERT (or DistilBERT, MPNet) saved with ``save_pretrained`` into a
temporary folder with a small vocabulary, then ``models.Transformer(folder)`` and the library's other modules.
transformers' ``BertTokenizer`` file is not in the corpus's copy of 4.57.6, so the tokenizer is ``WordPiece``
below: a slow tokenizer on transformers' own ``PreTrainedTokenizer`` (lower-casing, whitespace and punctuation
split, greedy longest-match word pieces, ``[CLS] a [SEP] b [SEP]``), registered with ``AutoTokenizer`` as a user
registers their own. The drivers print embeddings, similarities, losses and gradients with ``repr`` of floats, so a
last-bit difference shows.
"""

from __future__ import annotations

import os
import string
import tempfile

import numpy as np
import torch

WORDS = ("the a an cat dog sat on mat bird flew over house car drove fast slow road tree green blue red "
         "man woman child played ball in park sun is shining rain falling city night day food tasty music loud "
         "quiet book read story old new river flows sea water cold hot coffee tea morning evening").split()
PIECES = ("##s ##ed ##ing ##er ##ly ##y un re".split())
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *string.punctuation, *WORDS, *PIECES]
SENTENCES = ["The cat sat on the mat.", "A dog played in the park!", "The bird flew over the house",
             "A man drove the red car fast.", "Rain is falling in the city at night", "The sun is shining today",
             "A child read an old story book.", "Coffee in the morning, tea in the evening.",
             "The river flows to the sea", "Loud music played in the park at night"]
TINY = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
            max_position_embeddings=64, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)


def _tokenizer_class():
    from transformers import PreTrainedTokenizer

    class WordPiece(PreTrainedTokenizer):
        """BERT's basic + word-piece tokenization on a fixed vocabulary (``vocab.txt`` in the model's folder)."""

        vocab_files_names = {"vocab_file": "vocab.txt"}
        model_input_names = ["input_ids", "token_type_ids", "attention_mask"]

        def __init__(self, vocab_file, **kwargs):
            with open(vocab_file, encoding="utf-8") as f:
                self.vocab = {t.rstrip("\n"): i for i, t in enumerate(f)}
            self.ids_to_tokens = {i: t for t, i in self.vocab.items()}
            for key, token in (("unk_token", "[UNK]"), ("sep_token", "[SEP]"), ("pad_token", "[PAD]"),
                               ("cls_token", "[CLS]"), ("mask_token", "[MASK]")):
                kwargs.setdefault(key, token)
            super().__init__(**kwargs)

        @property
        def vocab_size(self):
            return len(self.vocab)

        def get_vocab(self):
            return dict(self.vocab, **self.added_tokens_encoder)

        def _tokenize(self, text):
            words = []
            for word in text.lower().split():
                piece = ""
                for ch in word:
                    if ch in string.punctuation:
                        words += [piece, ch] if piece else [ch]
                        piece = ""
                    else:
                        piece += ch
                words += [piece] if piece else []
            tokens = []
            for word in words:
                start, found = 0, []
                while start < len(word):
                    end = len(word)
                    while end > start and (("##" if start else "") + word[start:end]) not in self.vocab:
                        end -= 1
                    if end == start:
                        found = ["[UNK]"]
                        break
                    found.append(("##" if start else "") + word[start:end])
                    start = end
                tokens += found
            return tokens

        def _convert_token_to_id(self, token):
            return self.vocab.get(token, self.vocab["[UNK]"])

        def _convert_id_to_token(self, index):
            return self.ids_to_tokens.get(index, "[UNK]")

        def convert_tokens_to_string(self, tokens):
            return " ".join(tokens).replace(" ##", "")

        def build_inputs_with_special_tokens(self, ids0, ids1=None):
            cls, sep = [self.cls_token_id], [self.sep_token_id]
            return cls + ids0 + sep + (ids1 + sep if ids1 is not None else [])

        def create_token_type_ids_from_sequences(self, ids0, ids1=None):
            return [0] * (len(ids0) + 2) + ([1] * (len(ids1) + 1) if ids1 is not None else [])

        def get_special_tokens_mask(self, ids0, ids1=None, already_has_special_tokens=False):
            if already_has_special_tokens:
                return super().get_special_tokens_mask(ids0, ids1, already_has_special_tokens=True)
            return [1] + [0] * len(ids0) + [1] + ([0] * len(ids1) + [1] if ids1 is not None else [])

        def save_vocabulary(self, save_directory, filename_prefix=None):
            path = os.path.join(save_directory, (filename_prefix + "-" if filename_prefix else "") + "vocab.txt")
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(t + "\n" for t, _ in sorted(self.vocab.items(), key=lambda kv: kv[1]))
            return (path,)

    return WordPiece


_REGISTERED = {}


def _register_tokenizer():
    """``AutoTokenizer.register`` of ``WordPiece`` for the configs the drivers build, once per import of
    transformers (the runner loads the package afresh for each script; this module stays imported)."""
    import transformers

    if _REGISTERED.get("transformers") is not transformers:
        from transformers import AutoTokenizer, BertConfig, DistilBertConfig, MPNetConfig

        cls = _tokenizer_class()
        for config in (BertConfig, DistilBertConfig, MPNetConfig):
            AutoTokenizer.register(config, slow_tokenizer_class=cls, exist_ok=True)
        _REGISTERED.update(cls=cls, transformers=transformers)
    return _REGISTERED["cls"]


def tiny_checkpoint(folder, kind="bert", head=None, seed=0, **overrides):
    """A tiny random-initialised ``kind`` model (``head``: "masked_lm", "sequence_classification") and its
    vocabulary saved into ``folder``; returns ``folder``."""
    import transformers

    cls = _register_tokenizer()
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "vocab.txt"), "w", encoding="utf-8") as f:
        f.writelines(t + "\n" for t in VOCAB)
    if kind == "bert":
        config = transformers.BertConfig(vocab_size=len(VOCAB), **{**TINY, **overrides})
    elif kind == "distilbert":
        config = transformers.DistilBertConfig(vocab_size=len(VOCAB), dim=32, n_layers=2, n_heads=2, hidden_dim=37,
                                               max_position_embeddings=64, dropout=0.0, attention_dropout=0.0,
                                               **overrides)
    else:
        config = transformers.MPNetConfig(vocab_size=len(VOCAB), **{**TINY, **overrides})
    name = {"bert": "Bert", "distilbert": "DistilBert", "mpnet": "MPNet"}[kind]
    suffix = {"masked_lm": "ForMaskedLM", "sequence_classification": "ForSequenceClassification"}.get(head, "Model")
    torch.manual_seed(seed)
    model = getattr(transformers, name + suffix)(config)
    model.save_pretrained(folder, safe_serialization=False)
    names = {"model_input_names": ["input_ids", "attention_mask"]} if kind == "distilbert" else {}  # (no token types)
    cls(os.path.join(folder, "vocab.txt"), **names).save_pretrained(folder)
    return folder


ATTENTION = {"attn_implementation": "eager"}  # transformers' own (``use_sdpa()``: F.scaled_dot_product_attention)


def use_sdpa():
    """The drivers' models attend through ``F.scaled_dot_product_attention`` (transformers' default) from now on."""
    ATTENTION["attn_implementation"] = "sdpa"


def tiny_model(folder, pooling="mean", normalize=False, dense=None, kind="bert", seed=0, **pool_kwargs):
    """``SentenceTransformer(modules=[Transformer, Pooling(pooling), Dense?, Normalize?])`` on ``tiny_checkpoint``."""
    from sentence_transformers import SentenceTransformer, models

    tiny_checkpoint(folder, kind, seed=seed)
    transformer = models.Transformer(folder, max_seq_length=32, model_args=dict(ATTENTION))
    modules = [transformer, models.Pooling(transformer.get_word_embedding_dimension(), pooling_mode=pooling,
                                           **pool_kwargs)]
    if dense:
        torch.manual_seed(seed + 1)
        modules.append(models.Dense(modules[-1].get_sentence_embedding_dimension(), dense,
                                    activation_function=torch.nn.Tanh()))
    if normalize:
        modules.append(models.Normalize())
    return SentenceTransformer(modules=modules, device="cpu")


def _show(name, value):
    if isinstance(value, torch.Tensor):
        value = value.detach()
        print(name, tuple(value.shape), value.dtype, value.tolist())
    elif isinstance(value, np.ndarray):
        print(name, value.shape, value.dtype, value.tolist())
    else:
        print(name, repr(value))


def _folder():
    return tempfile.mkdtemp(prefix="sbert_")


def encode_pooling():
    """``encode`` through each pooling mode of ``models.Pooling`` (mean, cls, max, mean_sqrt_len_tokens,
    weightedmean, lasttoken, and two modes concatenated) on a tiny BERT, batches of 3 (padded per batch)."""
    for mode in ("mean", "cls", "max", "mean_sqrt_len_tokens", "weightedmean", "lasttoken"):
        model = tiny_model(os.path.join(_folder(), mode), pooling=mode)
        print(mode, model)
        _show(mode, model.encode(SENTENCES[:7], batch_size=3, convert_to_tensor=True))
    model = tiny_model(os.path.join(_folder(), "both"), pooling="mean", pooling_mode_max_tokens=True)
    print(model[1].get_pooling_mode_str(), model.get_sentence_embedding_dimension())
    _show("mean+max", model.encode(SENTENCES[:4], batch_size=4))


def encode_options():
    """``encode``'s options: numpy/tensor/list outputs, ``normalize_embeddings``, each ``precision`` (int8, uint8,
    binary, ubinary: ``quantize_embeddings``), ``output_value="token_embeddings"`` and ``None``, prompts,
    ``truncate_dim``, a single string, a Dense + Normalize stack and ``encode_query``/``encode_document``."""
    from sentence_transformers.quantization import quantize_embeddings

    model = tiny_model(_folder())
    emb = model.encode(SENTENCES, batch_size=4)
    _show("numpy", emb)
    _show("tensor", model.encode(SENTENCES[:3], convert_to_tensor=True))
    print("list", [type(e).__name__ for e in model.encode(SENTENCES[:2], convert_to_numpy=False)])
    _show("normalized", model.encode(SENTENCES[:4], normalize_embeddings=True))
    for precision in ("int8", "uint8", "binary", "ubinary"):
        _show(precision, model.encode(SENTENCES[:4], precision=precision))
    _show("quantize ranges", quantize_embeddings(emb[:3], "int8", calibration_embeddings=emb))
    tokens = model.encode(SENTENCES[:2], output_value="token_embeddings")
    print("token_embeddings", [tuple(t.shape) for t in tokens])
    _show("token 0", tokens[0])
    everything = model.encode(SENTENCES[:2], output_value=None)
    print("output_value None", sorted(everything[0]))
    _show("single", model.encode("The cat sat"))
    _show("truncate_dim", model.encode(SENTENCES[:3], truncate_dim=8))
    model.prompts = {"query": "query: ", "doc": "passage: "}
    _show("prompt_name", model.encode(SENTENCES[:2], prompt_name="query"))
    _show("prompt", model.encode(SENTENCES[:2], prompt="search: "))
    _show("encode_query", model.encode_query(SENTENCES[:2]))
    _show("encode_document", model.encode_document(SENTENCES[:2]))
    stacked = tiny_model(_folder(), pooling="cls", dense=16, normalize=True)
    _show("dense+normalize", stacked.encode(SENTENCES[:5], batch_size=2, convert_to_tensor=True))
    print("dimension", stacked.get_sentence_embedding_dimension(), "max_seq_length", stacked.max_seq_length)
    print("tokenize", {k: v.tolist() for k, v in stacked.tokenize(SENTENCES[:2]).items()})


def similarities():
    """``model.similarity`` and ``similarity_pairwise`` with each ``SimilarityFunction``, and ``util``'s
    ``cos_sim``, ``dot_score``, ``manhattan_sim``, ``euclidean_sim``, their pairwise forms and
    ``normalize_embeddings`` on numpy, tensor and list inputs."""
    from sentence_transformers import SimilarityFunction, util

    model = tiny_model(_folder())
    a = model.encode(SENTENCES[:4], convert_to_tensor=True)
    b = model.encode(SENTENCES[4:9], convert_to_tensor=True)
    for fn in SimilarityFunction:
        model.similarity_fn_name = fn
        _show(f"similarity {fn.value}", model.similarity(a, b))
        _show(f"pairwise {fn.value}", model.similarity_pairwise(a, b[:4]))
    for name in ("cos_sim", "dot_score", "manhattan_sim", "euclidean_sim"):
        _show(name, getattr(util, name)(a, b))
        _show("pairwise_" + name, getattr(util, "pairwise_" + name)(a, b[:4]))
    _show("cos_sim numpy", util.cos_sim(a.numpy(), b.numpy()))
    _show("cos_sim 1-d", util.cos_sim(a[0], b[0]))
    _show("cos_sim list", util.cos_sim(a[0].tolist(), b[:2].tolist()))
    _show("normalize", util.normalize_embeddings(a))
    _show("pytorch_cos_sim", util.pytorch_cos_sim(a, a))


def search_mining():
    """``util.semantic_search`` (cosine and dot score, top_k, query and corpus chunks), ``paraphrase_mining``
    (``top_k``, ``max_pairs``, chunked), ``paraphrase_mining_embeddings``, ``community_detection`` with thresholds
    and sizes, and ``information_retrieval``-style ``semantic_search`` on normalised embeddings."""
    from sentence_transformers import util

    model = tiny_model(_folder(), normalize=True)
    corpus = SENTENCES + [s.upper() for s in SENTENCES[:4]] + ["the cat sat on the mat", "a dog in the park"]
    corpus_emb = model.encode(corpus, convert_to_tensor=True)
    queries = model.encode(["a cat on a mat", "music at night", "morning coffee"], convert_to_tensor=True)
    for kwargs in ({}, {"top_k": 3}, {"query_chunk_size": 2, "corpus_chunk_size": 5, "top_k": 4},
                   {"score_function": util.dot_score, "top_k": 2}):
        hits = util.semantic_search(queries, corpus_emb, **kwargs)
        print("semantic_search", sorted(kwargs), [[(h["corpus_id"], repr(h["score"])) for h in q] for q in hits])
    pairs = util.paraphrase_mining(model, corpus, top_k=2)
    print("paraphrase_mining", [(repr(s), i, j) for s, i, j in pairs])
    pairs = util.paraphrase_mining(model, corpus, query_chunk_size=3, corpus_chunk_size=4, max_pairs=8)
    print("paraphrase_mining chunked", [(repr(s), i, j) for s, i, j in pairs])
    pairs = util.paraphrase_mining_embeddings(corpus_emb, top_k=1)
    print("paraphrase_mining_embeddings", [(repr(s), i, j) for s, i, j in pairs])
    for threshold, size in ((0.9, 2), (0.75, 1), (0.5, 3)):
        print("community_detection", threshold, size,
              util.community_detection(corpus_emb, threshold=threshold, min_community_size=size))
    print("community batch", util.community_detection(corpus_emb, threshold=0.8, min_community_size=1, batch_size=3))


def _pairs(n, offset=0):
    return [(SENTENCES[(i + offset) % 10], SENTENCES[(i + offset + 1) % 10]) for i in range(n)]


def _features(model, columns):
    return [model.tokenize(list(column)) for column in columns]


def _train(name, model, loss, batches, steps=3, lr=1e-3, params=None):
    """``steps`` AdamW steps on ``loss(features, labels)`` over ``batches`` (a list of (columns, labels)),
    printing each loss with every digit and the gradients' and parameters' absolute sums."""
    opt = torch.optim.AdamW(params if params is not None else loss.parameters(), lr=lr)
    model.train()
    for step in range(steps):
        columns, labels = batches[step % len(batches)]
        opt.zero_grad()
        value = loss(_features(model, columns), labels)
        if isinstance(value, dict):  # (SpladeLoss: its parts by name, summed as the trainer sums them)
            print(name, step, {k: repr(v.item()) for k, v in value.items()})
            value = sum(value.values())
        value.backward()
        grads = [p.grad for p in loss.parameters() if p.grad is not None]
        gsum = sum(g.double().abs().sum().item() for g in grads)
        opt.step()
        print(name, step, "loss", repr(value.item()), "grad", repr(gsum))
    psum = sum(p.detach().double().abs().sum().item() for p in model.parameters())
    print(name, "params", repr(psum))
    model.eval()


def _float_labels(values):
    return torch.tensor(values, dtype=torch.float32)


def _ranking_columns():
    anchors = [a for a, _ in _pairs(4)]
    positives = [b for _, b in _pairs(4)]
    negatives = [SENTENCES[(i + 5) % 10] for i in range(4)]
    return anchors, positives, negatives


def losses_cached():
    """CachedMultipleNegativesRankingLoss and its symmetric form (mini-batches of 2: the embeddings computed without
    gradients, the loss's gradients cached, then each mini-batch's forward again under ``RandContext``'s saved RNG
    states with ``torch.autograd.backward``): three AdamW steps each from a fresh model."""
    from sentence_transformers import losses

    anchors, positives, negatives = _ranking_columns()
    cases = [("cached_mnrl", lambda m: losses.CachedMultipleNegativesRankingLoss(m, mini_batch_size=2),
              [anchors, positives, negatives]),
             ("cached_mnsrl", lambda m: losses.CachedMultipleNegativesSymmetricRankingLoss(m, mini_batch_size=2),
              [anchors, positives])]
    for name, make, columns in cases:
        model = tiny_model(os.path.join(_folder(), name))
        _train(name, model, make(model), [(columns, None)])


def losses_mnrl():
    """MultipleNegativesRankingLoss (pairs and hard-negative triplets, scale, cos/dot), its symmetric form and
    MegaBatchMarginLoss: three AdamW steps each from a fresh model."""
    from sentence_transformers import losses, util

    anchors = [a for a, _ in _pairs(4)]
    positives = [b for _, b in _pairs(4)]
    negatives = [SENTENCES[(i + 5) % 10] for i in range(4)]
    cases = [("mnrl", lambda m: losses.MultipleNegativesRankingLoss(m), [anchors, positives]),
             ("mnrl_triplets", lambda m: losses.MultipleNegativesRankingLoss(m, scale=10.0), [anchors, positives,
                                                                                              negatives]),
             ("mnrl_dot", lambda m: losses.MultipleNegativesRankingLoss(m, similarity_fct=util.dot_score),
              [anchors, positives]),
             ("mnsrl", lambda m: losses.MultipleNegativesSymmetricRankingLoss(m), [anchors, positives]),
             ("megabatch", lambda m: losses.MegaBatchMarginLoss(m, mini_batch_size=2), [anchors, positives])]
    for name, make, columns in cases:
        model = tiny_model(os.path.join(_folder(), name))
        _train(name, model, make(model), [(columns, None)])


def losses_cosine():
    """CosineSimilarityLoss (MSE and L1), CoSENTLoss, AnglELoss (float labels in [0, 1]) and SoftmaxLoss (3
    classes): three AdamW steps each from a fresh model."""
    _similarity_losses(("cosine", "cosine_l1", "cosent", "angle", "softmax"))


def losses_contrastive():
    """ContrastiveLoss (each distance metric, margins, ``size_average``), OnlineContrastiveLoss (0/1 labels) and
    TripletLoss (each metric): three AdamW steps each from a fresh model."""
    _similarity_losses(("contrastive", "contrastive_euclidean", "contrastive_manhattan", "online_contrastive",
                        "triplet", "triplet_cosine", "triplet_manhattan"))


def _similarity_losses(names):
    from sentence_transformers import losses

    a, b = zip(*_pairs(6))
    scores = _float_labels([0.9, 0.1, 0.5, 0.7, 0.2, 0.4])
    binary = torch.tensor([1, 0, 1, 1, 0, 0])
    metric = losses.SiameseDistanceMetric
    triplet = losses.TripletDistanceMetric
    negatives = [SENTENCES[(i + 4) % 10] for i in range(6)]
    cases = [("cosine", lambda m: losses.CosineSimilarityLoss(m), [a, b], scores),
             ("cosine_l1", lambda m: losses.CosineSimilarityLoss(m, loss_fct=torch.nn.L1Loss()), [a, b], scores),
             ("cosent", lambda m: losses.CoSENTLoss(m), [a, b], scores),
             ("angle", lambda m: losses.AnglELoss(m), [a, b], scores),
             ("contrastive", lambda m: losses.ContrastiveLoss(m), [a, b], binary),
             ("contrastive_euclidean", lambda m: losses.ContrastiveLoss(m, distance_metric=metric.EUCLIDEAN,
                                                                        margin=2.0), [a, b], binary),
             ("contrastive_manhattan", lambda m: losses.ContrastiveLoss(m, distance_metric=metric.MANHATTAN,
                                                                        size_average=False), [a, b], binary),
             ("online_contrastive", lambda m: losses.OnlineContrastiveLoss(m, margin=0.3), [a, b], binary),
             ("softmax", lambda m: losses.SoftmaxLoss(m, m.get_sentence_embedding_dimension(), 3), [a, b],
              torch.tensor([0, 1, 2, 1, 0, 2])),
             ("triplet", lambda m: losses.TripletLoss(m), [a, b, negatives], None),
             ("triplet_cosine", lambda m: losses.TripletLoss(m, distance_metric=triplet.COSINE, triplet_margin=0.5),
              [a, b, negatives], None),
             ("triplet_manhattan", lambda m: losses.TripletLoss(m, distance_metric=triplet.MANHATTAN),
              [a, b, negatives], None)]
    for name, make, columns, labels in (case for case in cases if case[0] in names):
        model = tiny_model(os.path.join(_folder(), name))
        torch.manual_seed(0)
        _train(name, model, make(model), [(columns, labels)])


def losses_batch_triplet():
    """BatchAllTripletLoss, BatchHardTripletLoss (each distance), BatchSemiHardTripletLoss and
    BatchHardSoftMarginTripletLoss on single sentences with class labels, and their distance helpers."""
    from sentence_transformers import losses

    texts = SENTENCES[:8]
    labels = torch.tensor([0, 0, 1, 1, 2, 2, 0, 1])
    distance = losses.BatchHardTripletLossDistanceFunction
    cases = [("batch_all", lambda m: losses.BatchAllTripletLoss(m, margin=1.0)),
             ("batch_hard", lambda m: losses.BatchHardTripletLoss(m)),
             ("batch_hard_cosine", lambda m: losses.BatchHardTripletLoss(m, distance_metric=distance.cosine_distance)),
             ("batch_hard_squared", lambda m: losses.BatchHardTripletLoss(
                 m, distance_metric=distance.eucledian_distance, margin=0.5)),
             ("batch_semi_hard", lambda m: losses.BatchSemiHardTripletLoss(m)),
             ("batch_hard_soft_margin", lambda m: losses.BatchHardSoftMarginTripletLoss(m))]
    for name, make in cases:
        model = tiny_model(os.path.join(_folder(), name))
        _train(name, model, make(model), [([texts], labels)])
    emb = tiny_model(_folder()).encode(texts, convert_to_tensor=True)
    _show("cosine_distance", distance.cosine_distance(emb))
    _show("eucledian_distance", distance.eucledian_distance(emb, squared=True))
    _show("all_triplet_mask", losses.BatchHardTripletLoss.get_anchor_positive_triplet_mask(labels))


def losses_distillation():
    """MSELoss against a teacher's embeddings (two columns), MarginMSELoss on (query, pos, neg) with teacher
    margins, DistillKLDivLoss with teacher scores, and ContrastiveTensionLoss/ContrastiveTensionLossInBatchNegatives."""
    from sentence_transformers import losses

    teacher = tiny_model(os.path.join(_folder(), "teacher"), seed=7)
    student = tiny_model(os.path.join(_folder(), "student"), dense=16 * 2)
    a, b = zip(*_pairs(4))
    target = teacher.encode(list(a), convert_to_tensor=True)
    mse_student = tiny_model(os.path.join(_folder(), "mse"))
    _train("mse", mse_student, losses.MSELoss(mse_student), [([a, b], target)])
    negatives = [SENTENCES[(i + 6) % 10] for i in range(4)]
    q, p, n = (teacher.encode(list(c), convert_to_tensor=True) for c in (a, b, negatives))
    margins = (q * p).sum(-1) - (q * n).sum(-1)
    _train("margin_mse", student, losses.MarginMSELoss(student), [([a, b, negatives], margins)])
    scores = torch.stack([(q * p).sum(-1), (q * n).sum(-1)], dim=1)
    kl = tiny_model(os.path.join(_folder(), "kl"))
    _train("distill_kl", kl, losses.DistillKLDivLoss(kl, temperature=2.0), [([a, b, negatives], scores)])
    tension = tiny_model(os.path.join(_folder(), "tension"))
    torch.manual_seed(0)
    loss = losses.ContrastiveTensionLossInBatchNegatives(tension)
    _train("ct_in_batch", tension, loss, [([a, a], None)])


def losses_matryoshka():
    """MatryoshkaLoss over MNRL and CoSENT (dims 32, 16, 8, weights, ``n_dims_per_step``), Matryoshka2dLoss and
    AdaptiveLayerLoss (its layer sampling seeded: ``random`` is reset per script), with their inner losses' values."""
    import random

    from sentence_transformers import losses

    a, b = zip(*_pairs(4))
    scores = _float_labels([0.9, 0.1, 0.5, 0.7])
    cases = [("matryoshka_mnrl", lambda m: losses.MatryoshkaLoss(m, losses.MultipleNegativesRankingLoss(m),
                                                                 [32, 16, 8]), None),
             ("matryoshka_cosent", lambda m: losses.MatryoshkaLoss(m, losses.CoSENTLoss(m), [32, 16, 8],
                                                                   matryoshka_weights=[1, 0.5, 0.25]), scores),
             ("matryoshka_sampled", lambda m: losses.MatryoshkaLoss(m, losses.CoSENTLoss(m), [32, 16, 8, 4],
                                                                    n_dims_per_step=2), scores),
             ("matryoshka2d", lambda m: losses.Matryoshka2dLoss(m, losses.CoSENTLoss(m), [32, 16]), scores),
             ("adaptive_layer", lambda m: losses.AdaptiveLayerLoss(m, losses.MultipleNegativesRankingLoss(m)), None)]
    for name, make, labels in cases:
        random.seed(0)
        model = tiny_model(os.path.join(_folder(), name))
        _train(name, model, make(model), [([a, b], labels)])


def losses_gist():
    """GISTEmbedLoss and CachedGISTEmbedLoss with a guide model (absolute and relative margins, anchors and
    positives contrasted or not) on (anchor, positive, negative) columns."""
    from sentence_transformers import losses

    a, b = zip(*_pairs(4))
    negatives = [SENTENCES[(i + 5) % 10] for i in range(4)]
    guide = tiny_model(os.path.join(_folder(), "guide"), seed=3)
    cases = [("gist", lambda m: losses.GISTEmbedLoss(m, guide)),
             ("gist_relative", lambda m: losses.GISTEmbedLoss(m, guide, margin_strategy="relative", margin=0.05)),
             ("gist_plain", lambda m: losses.GISTEmbedLoss(m, guide, contrast_anchors=False,
                                                           contrast_positives=False)),
             ("cached_gist", lambda m: losses.CachedGISTEmbedLoss(m, guide, mini_batch_size=2))]
    for name, make in cases:
        model = tiny_model(os.path.join(_folder(), name))
        _train(name, model, make(model), [([a, b, negatives], None)],
               params=[p for p in model.parameters()])


def backbones():
    """DistilBERT and MPNet backbones, WeightedLayerPooling on all hidden states, LayerNorm and Dropout (eval)."""
    from sentence_transformers import SentenceTransformer, models

    for kind in ("distilbert", "mpnet"):
        model = tiny_model(os.path.join(_folder(), kind), kind=kind)
        _show(kind, model.encode(SENTENCES[:3], convert_to_tensor=True))
    folder = tiny_checkpoint(os.path.join(_folder(), "layers"))
    transformer = models.Transformer(folder, config_args={"output_hidden_states": True}, model_args=dict(ATTENTION))
    torch.manual_seed(0)
    weighted = models.WeightedLayerPooling(32, num_hidden_layers=2, layer_start=1)
    model = SentenceTransformer(modules=[transformer, weighted, models.Pooling(32), models.LayerNorm(32),
                                         models.Dropout(0.1)], device="cpu")
    _show("weighted_layers", model.encode(SENTENCES[:3], convert_to_tensor=True))


def word_embeddings():
    """The word-embedding route: WhitespaceTokenizer + WordEmbeddings + LSTM, CNN or WordWeights, and BoW (no
    transformer: the model's device comes from its tensors, ``_named_members``)."""
    from sentence_transformers import SentenceTransformer, models
    from sentence_transformers.models.tokenizer import WhitespaceTokenizer

    torch.manual_seed(0)
    weights = torch.randn(len(WORDS) + 1, 12)
    tokenizer = WhitespaceTokenizer(vocab=WORDS, do_lower_case=True)
    words = models.WordEmbeddings(tokenizer, weights, update_embeddings=True)
    torch.manual_seed(0)
    lstm = models.LSTM(12, 8, num_layers=1, bidirectional=True)
    rnn = SentenceTransformer(modules=[words, lstm, models.Pooling(16, pooling_mode="max")], device="cpu")
    _show("lstm", rnn.encode(SENTENCES[:4], convert_to_tensor=True))
    torch.manual_seed(0)
    cnn = models.CNN(12, out_channels=4, kernel_sizes=[1, 3])
    conv = SentenceTransformer(modules=[words, cnn, models.Pooling(8)], device="cpu")
    _show("cnn", conv.encode(SENTENCES[:4], convert_to_tensor=True))
    bow = SentenceTransformer(modules=[models.BoW(WORDS, {"the": 0.5, "cat": 2.0}, cumulative_term_frequency=False)],
                              device="cpu")
    _show("bow", bow.encode(SENTENCES[:3], convert_to_tensor=True))
    word_weights = models.WordWeights(WORDS, {"cat": 3.0, "dog": 2.0}, unknown_word_weight=0.5)
    weighted_words = SentenceTransformer(modules=[words, word_weights, models.Pooling(12)], device="cpu")
    _show("word_weights", weighted_words.encode(SENTENCES[:3], convert_to_tensor=True))


def save_load():
    """``save`` (``safe_serialization=False``, no model card) and loading the folder again with
    ``SentenceTransformer(folder)``: the same modules, config and embeddings; a Dense + Normalize stack; prompts and
    the similarity function name survive; ``save_pretrained`` of a CrossEncoder and loading it again."""
    from sentence_transformers import CrossEncoder, SentenceTransformer

    model = tiny_model(_folder(), pooling="mean", dense=16, normalize=True)
    model.prompts = {"query": "query: "}
    model.similarity_fn_name = "dot"
    before = model.encode(SENTENCES[:4], convert_to_tensor=True)
    out = os.path.join(_folder(), "saved")
    model.save(out, safe_serialization=False, create_model_card=False)
    print(sorted(os.listdir(out)), sorted(os.listdir(os.path.join(out, "2_Dense"))))
    loaded = SentenceTransformer(out, device="cpu", model_kwargs=dict(ATTENTION))
    print(loaded)
    after = loaded.encode(SENTENCES[:4], convert_to_tensor=True)
    print("same", torch.equal(before, after), loaded.prompts, loaded.similarity_fn_name)
    _show("loaded", after)
    folder = tiny_checkpoint(os.path.join(_folder(), "ce"), head="sequence_classification", num_labels=1)
    ce = CrossEncoder(folder, device="cpu", model_kwargs=dict(ATTENTION))
    scores = ce.predict(_pairs(3))
    ce_out = os.path.join(_folder(), "ce_saved")
    ce.save_pretrained(ce_out, safe_serialization=False, create_model_card=False)
    again = CrossEncoder(ce_out, device="cpu", model_kwargs=dict(ATTENTION))
    print("cross encoder same", np.array_equal(scores, again.predict(_pairs(3))), sorted(os.listdir(ce_out)))


def cross_encoder():
    """A CrossEncoder on a tiny BertForSequenceClassification: ``predict`` (1 and 3 labels, activation functions,
    ``apply_softmax``, tensors) and ``rank`` with documents returned."""
    from sentence_transformers.cross_encoder import CrossEncoder

    folder = tiny_checkpoint(os.path.join(_folder(), "ce1"), head="sequence_classification", num_labels=1)
    model = CrossEncoder(folder, device="cpu", model_kwargs=dict(ATTENTION))
    print(model)
    _show("predict", model.predict(_pairs(4), batch_size=2))
    _show("predict tensor", model.predict(_pairs(4), convert_to_tensor=True))
    _show("predict identity", model.predict(_pairs(3), activation_fn=torch.nn.Identity()))
    ranked = model.rank("the cat on the mat", SENTENCES[:6], return_documents=True, top_k=3)
    print("rank", [(r["corpus_id"], repr(r["score"]), r["text"]) for r in ranked])
    folder3 = tiny_checkpoint(os.path.join(_folder(), "ce3"), head="sequence_classification", num_labels=3)
    three = CrossEncoder(folder3, device="cpu", model_kwargs=dict(ATTENTION))
    _show("predict 3", three.predict(_pairs(3)))
    _show("predict softmax", three.predict(_pairs(3), apply_softmax=True))


def cross_encoder_losses():
    """Three AdamW steps on each CrossEncoder loss (BinaryCrossEntropy, MSE, MultipleNegativesRanking, ListNet,
    ListMLE, PListMLE, LambdaLoss, RankNet; CrossEntropy's value and backward on 3 labels) through the model's
    logits, each from a fresh tiny BertForSequenceClassification."""
    from sentence_transformers.cross_encoder import CrossEncoder, losses

    queries = ["the cat on the mat", "music at night"]
    docs = [SENTENCES[:4], SENTENCES[5:9]]
    cases = [("bce", lambda m: losses.BinaryCrossEntropyLoss(m), "pairs"),
             ("mse", lambda m: losses.MSELoss(m), "pairs"),
             ("mnrl", lambda m: losses.MultipleNegativesRankingLoss(m, num_negatives=2), "pairs"),
             ("listnet", lambda m: losses.ListNetLoss(m), "lists"),
             ("listmle", lambda m: losses.ListMLELoss(m), "lists"),
             ("plistmle", lambda m: losses.PListMLELoss(m), "lists"),
             ("lambda", lambda m: losses.LambdaLoss(m), "lists"),
             ("ranknet", lambda m: losses.RankNetLoss(m), "lists")]
    for name, make, kind in cases:
        ce = CrossEncoder(tiny_checkpoint(os.path.join(_folder(), name), head="sequence_classification",
                                          num_labels=1), device="cpu", model_kwargs=dict(ATTENTION))
        loss = make(ce)
        opt = torch.optim.AdamW(ce.parameters(), lr=1e-3)
        ce.model.train()
        for step in range(3):
            opt.zero_grad()
            torch.manual_seed(step)
            if kind == "pairs":
                a, b = zip(*_pairs(4, step))
                value = loss([list(a), list(b)], torch.tensor([1.0, 0.0, 1.0, 0.0]))
            else:
                value = loss([queries, docs], [torch.tensor([3.0, 2.0, 0.0, 1.0]), torch.tensor([0.0, 1.0, 1.0, 2.0])])
            value.backward()
            opt.step()
            print("ce", name, step, repr(value.item()))
    ce3 = CrossEncoder(tiny_checkpoint(os.path.join(_folder(), "ce_ce"), head="sequence_classification",
                                       num_labels=3), device="cpu", model_kwargs=dict(ATTENTION))
    a, b = zip(*_pairs(4))
    value = losses.CrossEntropyLoss(ce3)([list(a), list(b)], torch.tensor([0, 2, 1, 0]))
    value.backward()
    print("ce cross_entropy", repr(value.item()))


def sparse_encoder():
    """A SparseEncoder (SPLADE: MLMTransformer + SpladePooling on a tiny BertForMaskedLM): ``encode`` as sparse
    and dense tensors, ``decode``, ``sparsity``, ``similarity``, ``max_active_dims``."""
    from sentence_transformers import SparseEncoder
    from sentence_transformers.sparse_encoder.models import MLMTransformer, SpladePooling

    folder = tiny_checkpoint(os.path.join(_folder(), "mlm"), head="masked_lm")
    model = SparseEncoder(modules=[MLMTransformer(folder, model_args=dict(ATTENTION)), SpladePooling("max")],
                          device="cpu")
    print(model)
    emb = model.encode(SENTENCES[:4])
    print("sparse", emb.is_sparse, tuple(emb.shape))
    _show("dense", emb.to_dense())
    print("decode", [[(t, repr(w)) for t, w in d] for d in model.decode(emb, top_k=3)])
    print("sparsity", model.sparsity(emb))
    _show("similarity", model.similarity(emb, emb))
    _show("dense encode", model.encode(SENTENCES[4:6], convert_to_sparse_tensor=False))
    _show("max_active_dims", model.encode(SENTENCES[:2], max_active_dims=5).to_dense())


def sparse_losses():
    """Three AdamW steps on SpladeLoss over SparseMultipleNegativesRankingLoss and SparseCoSENTLoss (FLOPS
    regularisers on documents and queries) on a SPLADE model, and a CSR model (Transformer + Pooling +
    SparseAutoEncoder, top-k) encoded and trained with CSRLoss."""
    from sentence_transformers import SparseEncoder
    from sentence_transformers.models import Pooling, Transformer
    from sentence_transformers.sparse_encoder import losses
    from sentence_transformers.sparse_encoder.models import MLMTransformer, SparseAutoEncoder, SpladePooling

    a, b = zip(*_pairs(4))
    negatives = [SENTENCES[(i + 5) % 10] for i in range(4)]
    cases = [("splade_mnrl", lambda m: losses.SpladeLoss(m, losses.SparseMultipleNegativesRankingLoss(m),
                                                          document_regularizer_weight=3e-5,
                                                          query_regularizer_weight=5e-5), [a, b, negatives], None),
             ("splade_cosent", lambda m: losses.SpladeLoss(m, losses.SparseCoSENTLoss(m),
                                                           document_regularizer_weight=1e-3), [a, b],
              _float_labels([0.9, 0.1, 0.5, 0.7]))]
    for name, make, columns, labels in cases:
        sparse = SparseEncoder(modules=[MLMTransformer(tiny_checkpoint(os.path.join(_folder(), name),
                                                                       head="masked_lm"),
                                                       model_args=dict(ATTENTION)),
                                        SpladePooling("max")], device="cpu")
        _train(name, sparse, make(sparse), [(columns, labels)])
    folder = tiny_checkpoint(os.path.join(_folder(), "csr"))
    transformer = Transformer(folder, model_args=dict(ATTENTION))
    torch.manual_seed(0)
    csr = SparseEncoder(modules=[transformer, Pooling(32), SparseAutoEncoder(32, hidden_dim=64, k=8, k_aux=16)],
                        device="cpu")
    _show("csr", csr.encode(SENTENCES[:3]).to_dense())
    _train("csr", csr, losses.CSRLoss(csr), [([a, b], None)])


def evaluators():
    """Its evaluators on a tiny model (their metrics in NumPy, SciPy's and scikit-learn's few functions from
    ``fake_sbert_deps``): EmbeddingSimilarity, BinaryClassification, InformationRetrieval, Triplet, MSE,
    ParaphraseMining, Reranking, Translation and Sequential."""
    from sentence_transformers import evaluation

    model = tiny_model(_folder())
    out = _folder()
    a, b = zip(*_pairs(8))
    scores = [0.9, 0.1, 0.5, 0.7, 0.2, 0.4, 0.8, 0.3]
    labels = [1, 0, 1, 1, 0, 0, 1, 0]
    results = {}
    results["sts"] = evaluation.EmbeddingSimilarityEvaluator(list(a), list(b), scores, name="sts")(model, out)
    results["binary"] = evaluation.BinaryClassificationEvaluator(list(a), list(b), labels, name="bin")(model, out)
    queries = {"q1": "a cat on a mat", "q2": "music at night", "q3": "the river and the sea"}
    corpus = {f"d{i}": s for i, s in enumerate(SENTENCES)}
    relevant = {"q1": {"d0"}, "q2": {"d9", "d4"}, "q3": {"d8"}}
    results["ir"] = evaluation.InformationRetrievalEvaluator(queries, corpus, relevant, name="ir",
                                                             mrr_at_k=[3], ndcg_at_k=[3, 5], accuracy_at_k=[1, 3],
                                                             precision_recall_at_k=[1, 3], map_at_k=[5])(model, out)
    negatives = [SENTENCES[(i + 5) % 10] for i in range(8)]
    results["triplet"] = evaluation.TripletEvaluator(list(a), list(b), negatives, name="tri")(model, out)
    teacher = tiny_model(_folder(), seed=5)
    results["mse"] = evaluation.MSEEvaluator(list(a), list(b), teacher_model=teacher, name="mse")(model, out)
    pm = {f"s{i}": s for i, s in enumerate(SENTENCES)}
    results["paraphrase"] = evaluation.ParaphraseMiningEvaluator(pm, [("s0", "s9"), ("s2", "s8")],
                                                                 name="pm")(model, out)
    samples = [{"query": "a cat on a mat", "positive": [SENTENCES[0]], "negative": SENTENCES[1:4]},
               {"query": "music at night", "positive": [SENTENCES[9], SENTENCES[4]], "negative": SENTENCES[5:7]}]
    results["rerank"] = evaluation.RerankingEvaluator(samples, name="rr", at_k=3)(model, out)
    results["translation"] = evaluation.TranslationEvaluator(list(a), list(b), name="tr")(model, out)
    results["sequential"] = evaluation.SequentialEvaluator(
        [evaluation.EmbeddingSimilarityEvaluator(list(a), list(b), scores, name="s1"),
         evaluation.TripletEvaluator(list(a), list(b), negatives, name="t1")])(model, out)
    for name, metrics in results.items():
        print(name, {k: repr(float(v)) for k, v in sorted(metrics.items())})


def cross_encoder_evaluators():
    """The CrossEncoder's Classification, Correlation and Reranking evaluators on a tiny cross-encoder."""
    from sentence_transformers import CrossEncoder
    from sentence_transformers.cross_encoder import evaluation as ce_evaluation

    a, b = zip(*_pairs(8))
    scores = [0.9, 0.1, 0.5, 0.7, 0.2, 0.4, 0.8, 0.3]
    labels = [1, 0, 1, 1, 0, 0, 1, 0]
    samples = [{"query": "a cat on a mat", "positive": [SENTENCES[0]], "negative": SENTENCES[1:4]},
               {"query": "music at night", "positive": [SENTENCES[9], SENTENCES[4]], "negative": SENTENCES[5:7]}]
    ce = CrossEncoder(tiny_checkpoint(os.path.join(_folder(), "ce"), head="sequence_classification", num_labels=1),
                      device="cpu", model_kwargs=dict(ATTENTION))
    ce_results = {
        "classification": ce_evaluation.CrossEncoderClassificationEvaluator(list(zip(a, b)), labels, name="c")(ce),
        "correlation": ce_evaluation.CrossEncoderCorrelationEvaluator(list(zip(a, b)), scores, name="r")(ce),
        "reranking": ce_evaluation.CrossEncoderRerankingEvaluator(samples, at_k=3, name="rk")(ce)}
    for name, metrics in ce_results.items():
        print("ce", name, {k: repr(float(v)) for k, v in sorted(metrics.items())})


def util_tensor():
    """``util``'s tensor helpers and ``quantize_embeddings``' ranges; ``batch_to_device``, ``truncate_embeddings``,
    ``select_max_active_dims``, ``mine_hard_negatives`` without a cross-encoder (the ``datasets`` package is not
    installed: it raises as it would)."""
    from sentence_transformers import util
    from sentence_transformers.quantization import quantize_embeddings

    torch.manual_seed(0)
    emb = torch.randn(6, 16)
    _show("truncate", util.truncate_embeddings(emb, 4))
    _show("normalize", util.normalize_embeddings(emb))
    _show("select_max_active_dims", util.select_max_active_dims(emb, max_active_dims=3))
    print("batch_to_device", {k: v.device.type for k, v in util.batch_to_device({"x": emb}, "cpu").items()})
    for precision in ("int8", "uint8", "binary", "ubinary"):
        _show("quantize " + precision, quantize_embeddings(emb.numpy(), precision))
    _show("quantize ranges", quantize_embeddings(emb.numpy(), "int8", ranges=np.stack([emb.numpy().min(0),
                                                                                      emb.numpy().max(0)])))


def dense_config():
    """A Dense layer's configuration as the model prints and saves it: its activation function by its class's
    module and name (``util.fullname``), which ``Dense.load`` imports again."""
    from sentence_transformers.util import fullname

    model = tiny_model(_folder(), pooling="cls", dense=16, normalize=True)
    print(model)
    print(model[2].get_config_dict())
    print(fullname(torch.nn.Tanh()), fullname(torch.nn.Identity()))


def pretrained_stand_in(name=None):
    """A seeded tiny model where sentence-transformers' examples load a pretrained one from the Hub (``name``:
    the checkpoint they name, unused): BERT + mean pooling + Normalize, as all-MiniLM-L6-v2 is built."""
    return tiny_model(_folder(), pooling="mean", normalize=True)


def cross_encoder_stand_in(name=None):
    """A seeded tiny one-label cross-encoder where the examples load a pretrained one (``name`` unused)."""
    from sentence_transformers import CrossEncoder

    folder = tiny_checkpoint(os.path.join(_folder(), "ce"), head="sequence_classification", num_labels=1)
    return CrossEncoder(folder, device="cpu", model_kwargs=dict(ATTENTION))
