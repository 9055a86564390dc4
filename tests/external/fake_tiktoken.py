"""A deterministic stand-in for ``tiktoken`` (our code): the GPT courses' scripts tokenize with GPT-2's BPE.

The real package needs its BPE ranks from the network, so the runner registers this module as ``tiktoken`` in
both runs (core's and torch's), and both see the same token ids. ``get_encoding("gpt2")`` returns an
``Encoding`` with GPT-2's vocabulary size (50257) and end-of-text id (50256) (``cl100k_base``, ``o200k_base``...
have theirs); text splits into GPT-2-like pieces (words with their leading space, numbers, punctuation runs,
whitespace) and each piece's id is a fixed hash of its text, so ids do not depend on what was tokenized before.
``decode`` gives back the pieces it has seen and ``<id>`` for the others (a sampled id no text produced). The ids
are not GPT-2's.
"""

from __future__ import annotations

import re
import zlib

__version__ = "0.0-stand-in"

_PIECES = re.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d+| ?[^\s\w]+|\s+(?!\S)|\s+")
_EOT = "<|endoftext|>"


# name: (vocabulary size, end-of-text id), as tiktoken's encodings have them
_SIZES = {"gpt2": (50257, 50256), "r50k_base": (50257, 50256), "p50k_base": (50281, 50256),
          "cl100k_base": (100277, 100257), "o200k_base": (200019, 199999)}
_MODELS = {"gpt2": "gpt2", "gpt-3.5-turbo": "cl100k_base", "gpt-4": "cl100k_base", "gpt-4o": "o200k_base",
           "text-davinci-003": "p50k_base"}


class Encoding:
    """tiktoken's interface: ``encode``, ``encode_ordinary``, ``encode_batch``, ``decode``, ``n_vocab``,
    ``eot_token``, ``max_token_value``."""

    def __init__(self, name: str = "gpt2"):
        self.name = name
        self.n_vocab, self.eot_token = _SIZES[name]
        self.max_token_value = self.n_vocab - 1
        self.special_tokens_set = {_EOT}
        self._seen = {self.eot_token: _EOT}

    def _piece_id(self, piece: str) -> int:
        token = zlib.crc32(piece.encode("utf-8")) % self.eot_token
        self._seen.setdefault(token, piece)
        return token

    def encode_ordinary(self, text: str) -> list:
        return [self._piece_id(piece) for piece in _PIECES.findall(text)]

    def encode(self, text: str, *, allowed_special=frozenset(), disallowed_special="all") -> list:
        allowed = self.special_tokens_set if allowed_special == "all" else set(allowed_special)
        if disallowed_special and _EOT in text and _EOT not in allowed:
            raise ValueError(f"Encountered text corresponding to disallowed special token {_EOT!r}.")
        parts = text.split(_EOT) if _EOT in allowed else [text]
        ids = []
        for i, part in enumerate(parts):
            if i:
                ids.append(self.eot_token)
            ids.extend(self.encode_ordinary(part))
        return ids

    def encode_batch(self, texts, *, allowed_special=frozenset(), disallowed_special="all") -> list:
        return [self.encode(t, allowed_special=allowed_special, disallowed_special=disallowed_special) for t in texts]

    def decode(self, tokens, errors: str = "replace") -> str:
        return "".join(self._seen.get(int(t), f"<{int(t)}>") for t in tokens)

    def decode_single_token_bytes(self, token: int) -> bytes:
        return self.decode([token]).encode("utf-8")

    def decode_batch(self, batch) -> list:
        return [self.decode(tokens) for tokens in batch]

    def __repr__(self) -> str:
        return f"<Encoding {self.name!r}>"


_ENCODINGS: dict = {}


def get_encoding(name: str) -> Encoding:
    if name not in _SIZES:
        raise ValueError(f"Unknown encoding {name}.\nPlugins found: ['tiktoken_ext.openai_public']")
    if name not in _ENCODINGS:
        _ENCODINGS[name] = Encoding(name)
    return _ENCODINGS[name]


def encoding_for_model(model_name: str) -> Encoding:
    return get_encoding(_MODELS.get(model_name, "cl100k_base" if model_name.startswith("gpt-") else "gpt2"))


def list_encoding_names() -> list:
    return list(_SIZES)
