"""The command line: thin click adapters that parse arguments, call the core, display results.

Owns one module per command (`ask`, `calc` with `calc_options` and `calc_serving`, `kb` with
`kb_eval`, `tui`) and `edge`, where domain errors become messages and exit codes, once. The
words come from `assistant.i18n` and `assistant.render`. Commands never import the TUI but
`tui`, the launcher, which builds the app through its one factory (`make_app`); `kb_eval`
scores retrieval with :mod:`assistant.evaluation`.
"""
