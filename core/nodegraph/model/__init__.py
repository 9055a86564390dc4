"""The document and what it is made of: node specs and types, the graph, undoable commands, subgraphs,
layout, validation, shape inference, evaluation of one node, the event vocabulary, expressions and the
parts of code import that map recorded ops to nodes. Imports only ``core``'s public API."""
