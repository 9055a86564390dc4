"""Corpus tests: public PyTorch scripts run on core and on torch (see README.md)."""
