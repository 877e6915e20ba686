"""The OpenAI path under ``shared/spec/AGENT_CONTRACT.md``: extraction, follow-up answers, the agent loop.

Entry points: ``factory.llm_extractor_from_env`` (``ToolDeps.llm_extractor``) and
``factory.followup_agent_from_env``. Only ``handlers.common.openai_adapter`` imports ``openai``.
"""
