"""Embedding models: ``embedders`` (the registry, and the bundled model's files; open it
first), ``bundled_model`` (MiniLM on onnxruntime), ``int8`` with ``int8_graph`` (the int8 model
derived on this machine), ``model_choice`` (which model a vault's vectors come from), ``pool``
(the first big embed on every core) and ``model_socket`` (the daemon's warm model, lent to
other processes).

Importing this folder loads nothing heavy: onnxruntime and numpy load when a model does."""

__all__ = ["embedders", "model_slot", "model_socket", "pool"]
