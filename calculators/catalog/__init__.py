"""Reference data the formulas read: GPUs and links (`hardware`), model architectures
(`models`), name normalisation and fuzzy lookup (`names`), and the JSON tables in `data/`
with a public source beside every figure.

The catalog depends on nothing above it: formulas and the planner import it, never the reverse.
"""
