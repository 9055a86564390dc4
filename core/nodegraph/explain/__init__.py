"""Why the numbers are what they are: chain-rule products behind each gradient, the autograd graph's
rows and layout, and the diagnostics (silent broadcasts, missing gradient paths, NaN origins...)."""
