"""The test suite (imported before ``tests/conftest.py``).

Bytecode caches are written even where ``PYTHONDONTWRITEBYTECODE`` is set (it is on the CI
machines): the session compiles the checkout's modules once and writes them to the
(git-ignored) ``__pycache__`` folders, so the subprocesses the tests start (the CLI, fresh
interpreters for import checks, Dask cluster workers) and the next run read them instead of
compiling the whole package again, which costs seconds per process. pytest's assertion
rewriting caches the test modules the same way.
"""

import sys

sys.dont_write_bytecode = False
