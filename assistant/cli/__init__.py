"""Thin click adapters: parse arguments, call the core, display results."""
