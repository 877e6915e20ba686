"""The fake OpenAI server, the real SDK pointed at it, and loops that never really sleep."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Callable, List

import pytest

from handlers.common.clock import FrozenClock
from handlers.common.openai_adapter import OpenAIClientWrapper
from handlers.llm.config import LLMLimits, ModelTarget
from handlers.llm.loop import AgentLoop
from tests.fakes.openai_server import FakeOpenAIServer

TARGETS = [ModelTarget("gpt-4.1-mini"), ModelTarget("gpt-4.1-nano"), ModelTarget("gpt-4o-mini")]


@pytest.fixture
def server():
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def client(server) -> OpenAIClientWrapper:
    return OpenAIClientWrapper(api_key="sk-test-key", base_url=server.base_url, timeout=5.0)


@pytest.fixture
def sleeps() -> List[float]:
    """Every wait the loop asked for; nothing really waits."""
    return []


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 12, 1, 19, 0, tzinfo=UTC))


@pytest.fixture
def make_loop(client, sleeps, clock) -> Callable[..., AgentLoop]:
    def make(*, targets=TARGETS, purpose: str = "test", **limits: Any) -> AgentLoop:
        return AgentLoop(
            client=client,
            targets=targets,
            limits=LLMLimits(**limits),
            purpose=purpose,
            sleep=sleeps.append,
            clock=clock,
        )

    return make
