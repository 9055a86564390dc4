"""Running one document: ``Session`` steps it forward and backward one node at a time and owns its
trainer, history (time travel), port inspector, gradient ledger and device moves."""
