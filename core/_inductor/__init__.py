"""``torch._inductor``: only its ``config`` flags, which GPT training scripts set before compiling."""
