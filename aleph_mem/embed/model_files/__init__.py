"""Tokenizer files for the bundled embedding model (Apache-2.0, see NOTICE)."""
