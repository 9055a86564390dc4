"""NLTK's stand-in for the corpus (not installed, and its tokenizer downloads ``punkt``): ``word_tokenize`` and
``PorterStemmer``, what the chatbot tutorial calls. The runner installs it as ``nltk``, ``nltk.stem`` and
``nltk.stem.porter``.

``word_tokenize`` splits words, numbers and each punctuation mark as NLTK's does for plain sentences
(``"Hi, how's it?"`` gives ``Hi , how 's it ?``); ``PorterStemmer.stem`` lower-cases and strips common English
suffixes (a few of Porter's rules, not all of them). Both runs of a script use this module, so the vocabulary core and
torch see is the same.
"""

from __future__ import annotations

import re
import types

_TOKEN = re.compile(r"'(?:s|re|ve|ll|d|m|t)\b|n't\b|\w+(?:\.\w+)*|[^\w\s]", re.IGNORECASE)
_SUFFIXES = ("ational", "ization", "fulness", "iveness", "ing", "edly", "ed", "ies", "ly", "es", "s")


def word_tokenize(text, language="english", preserve_line=False):
    return _TOKEN.findall(text)


def sent_tokenize(text, language="english"):
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


class PorterStemmer:
    def stem(self, word, to_lowercase=True):
        word = word.lower() if to_lowercase else word
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                return word[:-len(suffix)]
        return word


stem = types.ModuleType("nltk.stem")
stem.PorterStemmer = PorterStemmer
stem.porter = types.ModuleType("nltk.stem.porter")
stem.porter.PorterStemmer = PorterStemmer


def download(*args, **kwargs):
    return True
