"""Model mode is chosen by environment variables alone."""

from __future__ import annotations

from handlers.extract import empty_fields
from handlers.llm.config import ModelTarget
from handlers.llm.factory import followup_agent_from_env, llm_extractor_from_env, targets_from_env
from tests.fakes.openai_server import Reply


def test_no_key_and_no_server_means_offline():
    assert llm_extractor_from_env({}) is None
    assert llm_extractor_from_env({"OPENAI_API_KEY": "  ", "OPENAI_BASE_URL": ""}) is None
    assert followup_agent_from_env({}) is None


def test_targets_default_model_then_fallbacks():
    assert targets_from_env({"OPENAI_API_KEY": "sk-x"}) == [ModelTarget("gpt-4.1-mini", "openai")]
    env = {
        "OPENAI_BASE_URL": "http://llm.internal:8000/v1",
        "OPENAI_MODEL": "qwen",
        "OPENAI_FALLBACK_MODELS": "llama, mistral,",
    }
    assert targets_from_env(env) == [ModelTarget(m, "openai-compatible") for m in ("qwen", "llama", "mistral")]


def test_a_compatible_server_without_a_key_is_used(server):
    server.script(Reply.json_output({**empty_fields(), "adults": 2}))
    extractor = llm_extractor_from_env({"OPENAI_BASE_URL": server.base_url, "OPENAI_MODEL": "local-model"})

    result = extractor.extract(text="2 adults", today="2026-12-01")

    assert result["ok"] and result["fields"]["adults"] == 2
    assert server.sent_bodies[0]["model"] == "local-model"
    assert result["accounting"][0]["provider"] == "openai-compatible"
    assert result["accounting"][0]["cost_usd"] is None  # not in the rate table: no made-up price


def test_a_key_selects_openai_with_priced_accounting():
    extractor = llm_extractor_from_env({"OPENAI_API_KEY": "sk-test"})
    assert extractor is not None and extractor.loop.targets == [ModelTarget("gpt-4.1-mini")]
    assert followup_agent_from_env({"OPENAI_API_KEY": "sk-test"}).loop.purpose == "followup"
