"""What aleph-mem installs outside the vault: ``new_vault`` (a vault from the template,
or an Obsidian vault made a vault), ``clients`` (each agent client's MCP configuration),
``client_hooks`` (our entries in a client's settings file), ``systemd_unit`` (the daemon as
a user service) and ``serve_tokens`` (who may reach ``aleph-mem serve``)."""

__all__ = ["client_hooks", "clients", "new_vault", "serve_tokens", "systemd_unit"]
