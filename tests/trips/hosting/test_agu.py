"""The AGU: what the core prints becomes chat; a redelivered turn does not repeat its progress lines."""

import pytest

from trips.hosting.agu import DjangoAGU
from trips.models import ChatMessage

pytestmark = pytest.mark.django_db


def progress(label):
    return {
        "role": "assistant",
        "kind": "progress",
        "text": label,
        "widget": {"type": "progress", "tool": "t", "label": label},
    }


def shown(trip):
    return list(
        ChatMessage.objects.filter(trip=trip).exclude(role="system").order_by("seq").values_list("text", flat=True)
    )


def test_a_second_attempt_of_a_turn_skips_the_progress_the_first_showed(trip):
    killed = DjangoAGU(message_id=41)
    for label in ["Reading your message…", "Searching flights…", "Searching flights…"]:
        killed.print_chat(str(trip.pk), progress(label))

    retry = DjangoAGU(message_id=41)
    for label in ["Reading your message…", "Searching flights…", "Searching flights…", "Searching flights…"]:
        retry.print_chat(str(trip.pk), progress(label))
    retry.print_chat(str(trip.pk), {"role": "assistant", "kind": "message", "text": "Here are 3 options."})

    assert shown(trip) == [
        "Reading your message…",
        "Searching flights…",
        "Searching flights…",
        "Searching flights…",  # the retry searched a third time: new, so shown
        "Here are 3 options.",
    ]
    assert ChatMessage.objects.filter(trip=trip, kind="progress", widget__turn=41).count() == 4


def test_another_turns_progress_and_unbound_printing_are_always_shown(trip):
    DjangoAGU(message_id=41).print_chat(str(trip.pk), progress("Reading your message…"))
    DjangoAGU(message_id=42).print_chat(str(trip.pk), progress("Reading your message…"))
    DjangoAGU().print_chat(str(trip.pk), progress("Reading your message…"))
    assert shown(trip) == ["Reading your message…"] * 3
