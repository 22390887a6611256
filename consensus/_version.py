"""The package version (one place; read by pyproject.toml and ``consensus --version``)."""

__version__ = "0.1.0"
