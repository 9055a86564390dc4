"""Versioned JSON files: reading and writing (``io``, whose API this package re-exports, so
``from core.nodegraph import files; files.load(path)`` reads a file), the schema, ``from -> to`` migrations,
the shipped examples and code import (a snippet run in a sandbox becomes a document)."""

from core.nodegraph.files.io import *  # noqa: F403 - the package is the file API
from core.nodegraph.files.io import __all__  # noqa: F401
