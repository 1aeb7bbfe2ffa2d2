"""The optional LLM, through litellm (any provider, including a local one). Imported only
when a call is made: litellm takes seconds to import, and must not fetch its price list or
print banners (which would corrupt a stdio MCP stream)."""

from __future__ import annotations

import os
from typing import Any

from aleph_mem import logs
from aleph_mem.errors import LLMError
from aleph_mem.settings import Settings

log = logs.get(__name__)


def configured(settings: Settings) -> bool:
    return bool(settings.llm_model)


def complete(settings: Settings, messages: list[dict[str, str]], max_tokens: int = 600,
             timeout: float = 60.0) -> str:
    """One chat completion; raises LLMError with the provider's reason. Every message is
    redacted first: a secret in a person's note or a transcript never leaves the machine."""
    from aleph_mem.redaction.text import redact

    sent, hidden = [], 0
    for m in messages:
        text, n = redact(m.get("content", ""))
        sent.append({**m, "content": text})
        hidden += n
    if hidden:
        log.info("%d secret(s) redacted from an LLM request", hidden)
    messages = sent
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    kwargs: dict[str, Any] = {"model": settings.llm_model, "messages": messages,
                              "max_tokens": max_tokens, "timeout": timeout, "temperature": 0}
    if settings.llm_api_base:
        kwargs["api_base"] = settings.llm_api_base
        kwargs["api_key"] = os.environ.get("ALEPH_MEM_LLM_API_KEY") or "sk-local"
    try:
        response = litellm.completion(**kwargs)
    except Exception as exc:  # litellm raises many provider-specific types
        raise LLMError(f"the LLM call to {settings.llm_model} failed: {exc}") from exc
    return response.choices[0].message.content or ""
