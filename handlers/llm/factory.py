"""Model mode from environment variables; None means the offline extractor does the work.

Enabled when ``OPENAI_API_KEY`` is set or ``OPENAI_BASE_URL`` names an OpenAI-compatible
server. ``OPENAI_MODEL`` (default gpt-4.1-mini) is the first target; ``OPENAI_FALLBACK_MODELS``
(comma-separated) are the targets retries cycle through after it. Nothing here touches the
network: the first request is made when a traveller's message arrives.
"""

from __future__ import annotations

import time
from typing import List, Mapping, Optional
from urllib.parse import urlparse

from handlers.common.clock import Clock
from handlers.common.openai_adapter import OpenAIClientWrapper

from .config import DEFAULT_MODEL, LLMLimits, ModelTarget
from .extractor import LLMExtractor
from .followup import FollowupAgent
from .loop import AgentLoop, Sleep


def _value(env: Mapping[str, str], name: str) -> Optional[str]:
    value = (env.get(name) or "").strip()
    return value or None


def targets_from_env(env: Mapping[str, str]) -> List[ModelTarget]:
    base_url = _value(env, "OPENAI_BASE_URL")
    host = urlparse(base_url).hostname if base_url else None
    provider = "openai" if host in (None, "api.openai.com") else "openai-compatible"
    names = [_value(env, "OPENAI_MODEL") or DEFAULT_MODEL]
    names += [n.strip() for n in (_value(env, "OPENAI_FALLBACK_MODELS") or "").split(",") if n.strip()]
    return [ModelTarget(model=name, provider=provider) for name in names]


def agent_loop_from_env(
    env: Mapping[str, str], *, purpose: str, clock: Optional[Clock] = None, sleep: Sleep = time.sleep
) -> Optional[AgentLoop]:
    api_key, base_url = _value(env, "OPENAI_API_KEY"), _value(env, "OPENAI_BASE_URL")
    if not api_key and not base_url:
        return None
    limits = LLMLimits(request_timeout_s=float(_value(env, "OPENAI_TIMEOUT_S") or LLMLimits.request_timeout_s))
    client = OpenAIClientWrapper(api_key=api_key, base_url=base_url, timeout=limits.request_timeout_s)
    return AgentLoop(
        client=client, targets=targets_from_env(env), limits=limits, purpose=purpose, clock=clock, sleep=sleep
    )


def llm_extractor_from_env(
    env: Mapping[str, str], *, clock: Optional[Clock] = None, sleep: Sleep = time.sleep
) -> Optional[LLMExtractor]:
    loop = agent_loop_from_env(env, purpose="extract", clock=clock, sleep=sleep)
    return LLMExtractor(loop=loop) if loop is not None else None


def followup_agent_from_env(
    env: Mapping[str, str], *, clock: Optional[Clock] = None, sleep: Sleep = time.sleep
) -> Optional[FollowupAgent]:
    loop = agent_loop_from_env(env, purpose="followup", clock=clock, sleep=sleep)
    return FollowupAgent(loop=loop) if loop is not None else None
