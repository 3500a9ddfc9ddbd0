"""Evaluation tooling, off the answering path: how well retrieval does, and its calibration.

Owns `retrieval` (recall@k, MRR and no-passage accuracy of the dense, BM25 and hybrid
systems on golden questions) and `calibration` (both lanes in memory, and the grid sweep
that chooses the constants of :mod:`assistant.retrieval.fusion`). `gpu-advisor kb eval`
(`assistant/cli/kb_eval.py`), the benchmarks and the tests use it; no stage of the pipeline
imports it (tests/architecture/test_imports.py checks), so answering never loads it.
"""
