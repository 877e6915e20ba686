// Renderers for the widgets the mission core attaches to chat messages (handlers/README.md,
// "Chat messages"). Each takes the widget and the page's action hooks and returns an element.
// Shapes are read defensively: a missing field leaves a gap, never a broken page.

import { countdown } from "./countdown.js";
import { h } from "./dom.js";
import * as fmt from "./format.js";
import { travellersCard } from "./travellers.js";

const place = (p) => (p && typeof p === "object" ? p.code || p.name || "" : p || "");
const placeName = (p) => (p && typeof p === "object" ? p.name || p.code || "" : p || "");
/** "Newark (EWR)" (older summaries carry no ``origin_label``). */
const placeLabel = (p) => (p && typeof p === "object" && p.code && p.name && p.name !== p.code
  ? `${p.name} (${p.code})` : placeName(p));
const list = (value) => (Array.isArray(value) ? value : []);

export const APPROVAL_TONES = {
  granted: "good", approved: "good", denied: "bad", expired: "warn", used: "neutral", superseded: "neutral", revoked: "bad",
};

function chip(text, tone = "neutral") {
  return h("span", { class: `chip chip--${tone}` }, text);
}

function stars(count) {
  const n = Math.max(0, Math.min(5, Math.round(Number(count) || 0)));
  return n ? h("span", { class: "stars", "aria-label": `${n}-star hotel` }, "★".repeat(n)) : null;
}

function button(label, onClick, { tone = "primary", describedBy, extraClass = "" } = {}) {
  return h("button", { type: "button", class: `btn btn--${tone} ${extraClass}`.trim(), "aria-describedby": describedBy, onclick: onClick }, label);
}

function findings(items, tone, title) {
  if (!list(items).length) return null;
  return h("div", { class: `findings findings--${tone}` },
    h("p", { class: "findings__title" }, title),
    h("ul", {}, list(items).map((f) => h("li", {}, typeof f === "string" ? f : f.message || fmt.humanize(f.code)))));
}

/** A flight: its times as stated at each airport, each labelled with that airport's zone ("9:46 AM EST"). */
function flightLeg(flight) {
  const s = flight.summary || {};
  const zones = flight.zones || {};
  const numbers = list(s.flight_numbers).join(", ");
  const from = place(s.origin) || "";
  const to = place(s.destination) || "";
  const time = (iso, zone) => [fmt.localClock(iso), zone ? " " : "", zone ? h("span", { class: "leg__zone" }, zone) : null];
  return h("li", { class: "leg" },
    h("div", { class: "leg__times" },
      h("span", { class: "leg__time", "aria-label": `Departs ${fmt.localClock(s.depart_at, zones.depart)} at ${from}` },
        time(s.depart_at, zones.depart)),
      h("span", { class: "leg__line", "aria-hidden": "true" }),
      h("span", { class: "leg__time", "aria-label": `Arrives ${fmt.localClock(s.arrive_at, zones.arrive)} at ${to}` },
        time(s.arrive_at, zones.arrive), h("sup", { class: "leg__shift" }, fmt.dayShift(s.depart_at, s.arrive_at)))),
    h("div", { class: "leg__route" },
      from && to ? h("strong", {}, `${from} → ${to}`) : null,
      h("span", {}, fmt.localDate(s.depart_at))),
    h("div", { class: "leg__meta" },
      h("span", {}, [s.carrier_name || s.carrier, numbers].filter(Boolean).join(" · ")),
      h("span", {}, [fmt.duration(s.duration_minutes), fmt.stops(s.stops)].filter(Boolean).join(" · ")),
      s.red_eye ? chip("Red-eye", "warn") : null,
      s.cabin ? chip(fmt.humanize(s.cabin)) : null));
}

function hotel(item) {
  const s = item.summary || {};
  return h("div", { class: "hotel" },
    h("div", { class: "hotel__name" }, h("strong", {}, s.hotel_name || "Hotel"), " ", stars(s.stars)),
    h("div", { class: "hotel__meta" },
      s.board_type ? chip(fmt.humanize(s.board_type)) : null,
      chip(s.refundable ? "Refundable" : "Non-refundable", s.refundable ? "good" : "warn"),
      s.nights ? h("span", {}, `${fmt.nights(s.nights)}${nightly(s)}`) : null),
    hotelSum(s));
}

/** The hotel's total as a sum that adds up: room charges (nights × rooms) + taxes and fees = what is held. */
function hotelSum(s) {
  if (s.room_charges === undefined || s.taxes_and_fees === undefined || !s.total) return null;
  const rooms = Number(s.rooms) || 1;
  const what = `${fmt.nights(s.nights)}${rooms > 1 ? ` × ${rooms} rooms` : ""}`;
  return h("p", { class: "hotel__sum muted small" },
    `${what}: ${fmt.money(s.room_charges, s.currency)} + ${fmt.money(s.taxes_and_fees, s.currency)} taxes and fees = `,
    h("strong", {}, fmt.money(s.total, s.currency)));
}

/** The nightly figure the policy check uses (the dearest night, per room), and the average when it differs. */
function nightly(s) {
  if (!s.nightly_max && !s.nightly_avg) return "";
  const top = fmt.money(s.nightly_max || s.nightly_avg, s.currency);
  if (!s.nightly_max || !s.nightly_avg || Number(s.nightly_max) === Number(s.nightly_avg)) return ` · ${top}/night per room`;
  return ` · up to ${top}/night per room (average ${fmt.money(s.nightly_avg, s.currency)})`;
}

/**
 * A "why" line's tone: negatives never get a tick. The first line is the option's headline
 * ("Cheapest: the lowest total price you can hold; cheaper combinations cannot be held"): what it
 * says of other options is no warning about this one.
 */
function whyTone(line, headline = false) {
  if (headline) return /\b(lowest total|refundable|fastest|best balance)\b/i.test(line) ? "is-good" : "";
  if (/\b(over your budget|non-refundable|cannot be held|red-eye|more than the cheapest|above)\b/i.test(line)) return "is-bad";
  if (/\b(within your budget|lowest total|refundable|nonstop|free cancellation)\b/i.test(line)) return "is-good";
  return "";
}

/**
 * "Buy now" without an approver, offered only where the server marked the request
 * ``auto_approvable`` (the page never judges policy). A click only asks; the request is sent
 * from the confirm step, and the grant fills in the purchase form like an approver's.
 */
function autoApproval(approval, ctx) {
  const amount = fmt.money(approval.amount, approval.currency);
  const control = h("div", { class: "approval__auto", dataset: { autoApprove: "" } },
    askFirst("Buy now — within your company's auto-approval limit", `auto-approve-${ctx.key}`,
      `Your company approves purchases under its limit without an approver. Approve ${amount} now? `
        + "It is recorded as your request.",
      (back) => [
        button(`Approve ${amount} myself`, (event) => {
          // Pressed once, whatever follows (a double click, Enter held down): off until the grant
          // replaces this card; the server also grants a repeated press only once.
          const pressed = event.currentTarget;
          if (pressed.disabled) return;
          pressed.disabled = true;
          if (ctx.autoApprove()) {
            control.replaceChildren(h("p", { class: "muted", role: "status" }, `Approving ${amount}…`));
          } else {
            pressed.disabled = false;
          }
        }),
        button("Cancel", back, { tone: "ghost" })]));
  return control;
}

/**
 * A button that only asks: pressed, it gives way to ``question`` and its answers (``answers(back)``,
 * where ``back`` closes the question again), with the keyboard on the first answer.
 */
function askFirst(label, questionId, question, answers, { tone = "primary" } = {}) {
  const ask = button(label, () => {
    ask.hidden = true;
    step.hidden = false;
    choices[0].focus();
  }, { tone });
  const choices = answers(() => {
    step.hidden = true;
    ask.hidden = false;
    ask.focus();
  });
  const step = h("div", { class: "approval__confirm", role: "group", "aria-labelledby": questionId, hidden: true },
    h("p", { id: questionId }, question),
    h("div", { class: "card__actions" }, choices));
  return [h("div", { class: "card__actions" }, ask), step];
}

/** After a refusal: choose the best option the latest list marks as within policy, in one press. */
function withinPolicy(widget, ctx) {
  const alternative = ctx.inPolicyOption?.(widget.bundle_id);
  if (!alternative) return null;
  const label = `Choose option ${alternative.bundle_id} instead (within policy, ${fmt.money(alternative.total, alternative.currency)})`;
  return h("div", { class: "card__actions" },
    button(label, (event) => ctx.act({ type: "select", bundle_id: alternative.bundle_id }, `Select option ${alternative.bundle_id}`, { trigger: event.currentTarget }),
      { tone: "secondary" }));
}

/**
 * "Release these holds…" on the newest hold card: what "cancel the hold" does in words. A press
 * only asks; its first answer keeps them (Enter on a hurried second press keeps), and
 * the release is sent from "Yes, release them" only. The action names one of the card's holds,
 * so a card whose holds are already gone releases nothing.
 */
function releaseHolds(first, ctx) {
  return h("div", { class: "holds__release", dataset: { releaseHolds: "" } },
    askFirst("Release these holds…", `release-holds-${ctx.key}`,
      "Release every hold on this trip? Nothing has been bought and nothing is charged, "
        + "but the seats and rooms go back and these prices may be gone. The approval asked for them is withdrawn.",
      (back) => [
        button("Keep them on hold", back, { tone: "secondary" }),
        button("Yes, release them", (event) => ctx.act({ type: "release_holds", hold_id: first.hold_id },
          "Release the holds", { trigger: event.currentTarget }), { tone: "danger" })],
      { tone: "ghost" }));
}

/** "Review and pay…" on the approval that is on offer now; hidden on any other (or once it lapses). */
function payAction(approval, ctx) {
  const offer = ctx.currentOffer?.();
  const slot = h("div", { class: "card__actions", dataset: { paySlot: String(approval.approval_id ?? "") },
    hidden: !(offer && String(offer.approval_id) === String(approval.approval_id)) },
  button("Review and pay…", (event) => ctx.openPurchase(event.currentTarget)));
  return slot;
}

function bundleCard(bundle, ctx) {
  const titleId = `bundle-${ctx.key}-${bundle.bundle_id}`;
  const outside = bundle.policy && bundle.policy.ok === false;
  const card = h("article", { class: `bundle${outside ? " is-out-of-policy" : ""}`, "aria-labelledby": titleId, dataset: { bundleId: bundle.bundle_id } },
    h("header", { class: "bundle__head" },
      h("div", {},
        h("h3", { class: "bundle__title", id: titleId }, `Option ${bundle.bundle_id}`),
        bundle.rank === 1 && !outside ? chip("Best match", "accent") : null,
        outside ? chip("Outside policy", "bad") : null,
        bundle.refundable ? chip("Refundable", "good") : null),
      h("div", { class: "bundle__price" },
        h("span", { class: "bundle__total" }, fmt.money(bundle.total, bundle.currency)),
        h("span", { class: "bundle__currency" }, `total${ctx.party ? ` for ${ctx.party}` : ""} · ${bundle.currency || ""}`))),
    outside ? h("section", { class: "bundle__section bundle__policy", "aria-label": "Outside your company's policy" },
      h("p", {}, "Outside your company's policy, so it can't be held:"),
      h("ul", {}, list(bundle.policy.blocking).map((f) => h("li", {}, f.message || fmt.humanize(f.code))))) : null,
    list(bundle.flights).length ? h("section", { class: "bundle__section", "aria-label": "Flights" },
      h("h4", { class: "bundle__label" }, "Flights"),
      h("ol", { class: "legs" }, list(bundle.flights).map(flightLeg))) : null,
    list(bundle.hotels).length ? h("section", { class: "bundle__section", "aria-label": "Hotel" },
      h("h4", { class: "bundle__label" }, list(bundle.hotels).length > 1 ? "Hotels" : "Hotel"),
      list(bundle.hotels).map(hotel)) : null,
    list(bundle.why).length ? h("section", { class: "bundle__section bundle__why", "aria-label": "Why this option" },
      h("h4", { class: "bundle__label" }, "Why this option"),
      h("ul", {}, list(bundle.why).map((w, i) => h("li", { class: whyTone(w, i === 0) }, w)))) : null,
    h("footer", { class: "bundle__foot" },
      button(`Select option ${bundle.bundle_id}`, (event) => ctx.act({ type: "select", bundle_id: bundle.bundle_id }, `Select option ${bundle.bundle_id}`, { trigger: event.currentTarget }),
        { extraClass: "bundle__select" })));
  return card;
}

const renderers = {
  bundles(widget, ctx) {
    const bundles = list(widget.bundles);
    return h("div", { class: "widget widget--bundles", dataset: { widget: "bundles" } },
      h("ul", { class: "bundles", role: "list" }, bundles.map((b) => h("li", {}, bundleCard(b, ctx)))));
  },

  trip_summary(widget) {
    const party = fmt.party(widget.travelers);
    return h("div", { class: "widget card summary", dataset: { widget: "trip_summary" } },
      h("h3", { class: "card__title" }, "Your trip as I understood it"),
      h("dl", { class: "summary__grid" },
        party ? [h("dt", {}, "Travellers"), h("dd", {}, party)] : null,
        list(widget.segments).map((seg, i) => [
          h("dt", {}, `Flight ${i + 1}`),
          h("dd", {}, `${seg.origin_label || placeLabel(seg.origin)} → ${seg.destination_label || placeLabel(seg.destination)}`,
            seg.depart_date ? h("span", { class: "muted" }, ` · ${fmt.localDate(seg.depart_date)}`) : null)]),
        list(widget.stays).map((stay) => [
          h("dt", {}, "Hotel"),
          h("dd", {}, stay.location_hint || placeName(stay.location) || stay.location_code || "",
            stay.rooms ? h("span", { class: "muted" }, ` · ${stay.rooms} ${stay.rooms === 1 ? "room" : "rooms"}`) : null,
            h("span", { class: "muted" }, ` · ${fmt.localDate(stay.check_in)} – ${fmt.localDate(stay.check_out)}`))]),
        list(widget.details).map((d) => [h("dt", {}, d.label), h("dd", {}, d.value)])),
      list(widget.assumptions).length ? h("div", { class: "summary__assumptions" },
        h("p", { class: "findings__title" }, "Assumptions"),
        h("ul", {}, list(widget.assumptions).map((a) => h("li", {}, a)))) : null);
  },

  questions(widget) {
    const asked = list(widget.questions).map((q) => q.text || q);
    const known = list(widget.known);
    return h("div", { class: "widget card questions", dataset: { widget: "questions" } },
      widget.lead ? h("p", { class: "questions__opening" }, widget.lead) : null,
      asked.length > 1
        ? [h("p", { class: "questions__lead" }, "A few things before I search:"), h("ul", {}, asked.map((q) => h("li", {}, q)))]
        : h("p", { class: "questions__one" }, asked[0] || ""),
      known.length ? h("p", { class: "questions__known" }, h("span", { class: "muted" }, "So far: "), known.join(" · ")) : null);
  },

  risk(widget, ctx) {
    const ok = widget.ok && !list(widget.blocking).length;
    return h("div", { class: `widget card risk ${ok ? "risk--ok" : "risk--blocked"}`, dataset: { widget: "risk" } },
      h("h3", { class: "card__title" }, ok ? `Option ${widget.bundle_id} passes policy` : `Option ${widget.bundle_id} can't be held`),
      findings(widget.blocking, "bad", "Blocking"),
      findings(widget.warnings, "warn", "Worth knowing"),
      ok ? h("div", { class: "card__actions" },
        button("Hold these", (event) => ctx.act({ type: "hold", bundle_id: widget.bundle_id }, `Hold option ${widget.bundle_id}`, { trigger: event.currentTarget }))) : null,
      ok ? null : withinPolicy(widget, ctx));
  },

  /** Live holds with their deadlines; holds that were released or lapsed say so, with no "Pay by". */
  holds(widget, ctx) {
    const holds = list(widget.holds);
    const live = (hold) => !hold.status || hold.status === "held";
    const ended = holds.filter((hold) => !live(hold));
    const title = !ended.length ? "On hold"
      : ended.length === holds.length ? (ended.every((x) => x.status === "expired") ? "Holds expired" : "Holds released")
        : "Holds changed";
    const endedWords = { released: "Released", expired: "Expired", purchased: "Bought", cancelled: "Cancelled" };
    const totals = new Map();
    for (const hold of holds.filter(live)) {
      const t = hold.held_total || {};
      totals.set(t.currency, (totals.get(t.currency) || 0) + Number(t.amount || 0));
    }
    return h("div", { class: `widget card holds${ended.length ? " holds--ended" : ""}`, dataset: { widget: "holds", ended: String(ended.length) } },
      h("h3", { class: "card__title" }, title),
      h("ul", { class: "holds__list" }, holds.map((hold) => {
        const total = hold.held_total || {};
        return h("li", { class: "hold" },
          h("div", {},
            h("strong", {}, fmt.humanize(hold.item_type || "item")),
            " ", h("span", { class: "muted" }, ctx.describe(hold.offer_id || hold.rate_id) || ""),
            h("div", { class: "muted small" }, !live(hold) ? "No longer held: nothing to pay"
              : hold.instant ? `Not held: bought when you pay, at its price then · offer ends ${fmt.dateTime(hold.payment_required_by)}`
                : `Pay by ${fmt.dateTime(hold.payment_required_by)}`)),
          h("div", { class: "hold__right" },
            hold.instant && live(hold) ? chip("Paid at once", "warn") : null,
            total.amount ? h("span", { class: `hold__amount${live(hold) ? "" : " is-struck"}` }, fmt.money(total.amount, total.currency)) : null,
            live(hold) ? countdown(hold.payment_required_by) : chip(endedWords[hold.status] || fmt.humanize(hold.status), "warn")));
      })),
      totals.size === 1 && holds.length > 1 && !ended.length ? h("p", { class: "holds__total" },
        `Total held${ctx.party ? ` for ${ctx.party}` : ""} `,
        h("strong", {}, fmt.money([...totals.values()][0], [...totals.keys()][0]))) : null,
      widget.earliest_deadline && !ended.length ? h("p", { class: "holds__deadline" },
        "Everything is held until ", h("strong", {}, fmt.dateTime(widget.earliest_deadline)), " ",
        countdown(widget.earliest_deadline)) : null,
      ctx.canWrite && holds.some(live) ? releaseHolds(holds.find(live), ctx) : null);
  },

  hold_request(widget) {
    return h("div", { class: "widget card notice", dataset: { widget: "hold_request" } },
      h("h3", { class: "card__title" }, "Hold waiting for approval"),
      h("p", {}, widget.message || "Your organisation needs an approver to allow these holds. You'll see them here as soon as they decide."),
      widget.status ? chip(fmt.humanize(widget.status), "accent") : null);
  },

  approval(widget, ctx) {
    const a = widget.approval || widget;
    const status = a.status || "pending";
    const tone = APPROVAL_TONES[status] || "accent";
    const canAutoApprove = ctx.autoApprove && status === "pending" && a.auto_approvable === true;
    return h("div", { class: "widget card approval", dataset: { widget: "approval", status, approvalId: String(a.approval_id ?? "") } },
      h("div", { class: "card__row" },
        h("h3", { class: "card__title" }, "Approval"),
        chip(fmt.humanize(status), tone)),
      a.amount ? h("p", {}, "Up to ", h("strong", {}, fmt.money(a.amount, a.currency))) : null,
      a.reason ? h("p", { class: "muted" }, a.reason) : null,
      a.expires_at && ["pending", "granted", "approved"].includes(status) ? h("p", { class: "muted small", dataset: { deadline: "" } }, status === "pending"
        ? `Needs a yes before ${fmt.dateTime(a.expires_at)}, when the first hold lapses`
        : `Valid until ${fmt.dateTime(a.expires_at)}`) : null,
      a.kind !== "hold" && ["granted", "approved"].includes(status) ? payAction(a, ctx) : null,
      canAutoApprove ? autoApproval(a, ctx) : null);
  },

  booking(widget, ctx) {
    const b = widget.booking || widget;
    const orders = list(b.orders).filter((o) => o.record_locator);
    const rows = orders.length
      ? orders.map((o) => [[fmt.humanize(o.item_type || "item"), ctx.describe(o.item_id)].filter(Boolean).join(" · "), o.record_locator])
      : list(b.record_locators).map((code) => ["Booking reference", code]);
    const card = b.payment_method;
    return h("div", { class: "widget card booking", dataset: { widget: "booking", bookingId: b.booking_id || "" } },
      h("div", { class: "card__row" },
        h("h3", { class: "card__title" }, "Booked"),
        chip(fmt.humanize(b.status || "confirmed"), b.status === "cancelled" ? "warn" : "good")),
      h("p", {}, "Total paid ", h("strong", {}, fmt.money(b.total, b.currency)), ctx.party ? ` for ${ctx.party}` : "",
        card?.last4 ? h("span", { class: "muted" }, ` · ${fmt.humanize(card.brand || "card")} •• ${card.last4}`) : null),
      h("dl", { class: "locators", "aria-label": "Booking references" },
        rows.map(([label, code]) => [h("dt", {}, label), h("dd", { class: "locator" }, code)])),
      b.booking_id && b.status !== "cancelled" ? h("div", { class: "card__actions", dataset: { cancelFor: b.booking_id } },
        button("Cancel booking…", (event) => ctx.act({ type: "cancel_booking", booking_id: b.booking_id }, "Cancel booking", { trigger: event.currentTarget }), { tone: "ghost" })) : null);
  },

  cancellation(widget, ctx) {
    const c = widget.cancellation || widget.quote || widget;
    const confirmed = c.status === "cancelled" || c.confirmed;
    // ``Conversation.syncCancellations``: only the newest live quote of a booking can be confirmed;
    // "Keep my booking" closes the quote (nothing is sent: an unconfirmed quote simply lapses).
    const state = confirmed ? "cancelled" : ctx.quoteDismissed?.(c.quote_id) ? "dismissed" : "quote";
    return h("div", { class: "widget card", dataset: { widget: "cancellation", bookingId: c.booking_id || "",
      quoteId: c.quote_id || "", state, expiresAt: c.expires_at || "" } },
      h("h3", { class: "card__title" }, confirmed ? "Booking cancelled" : "Cancellation quote"),
      c.refund_amount !== undefined ? h("p", {}, confirmed ? "Refunded " : "Refund if you cancel now ", h("strong", {}, fmt.money(c.refund_amount, c.currency)),
        c.paid_amount !== undefined && !confirmed ? ` of ${fmt.money(c.paid_amount, c.currency)} paid` : "") : null,
      !confirmed && Number(c.lost_amount) > 0 ? h("p", { class: "cancellation__lost" }, "You lose ", h("strong", {}, fmt.money(c.lost_amount, c.currency)),
        " (non-refundable fares and cancellation fees)") : null,
      !confirmed && c.lost_amount !== undefined && Number(c.lost_amount) === 0 ? h("p", {}, "Everything paid is refunded; you lose nothing.") : null,
      c.expires_at && !confirmed ? h("p", { class: "muted small" }, `Quote valid until ${fmt.dateTime(c.expires_at)}`) : null,
      !confirmed && c.quote_id ? h("div", { class: "card__actions", dataset: { confirmFor: c.booking_id || "" } },
        button("Confirm cancellation", (event) => ctx.act({ type: "cancel_booking", booking_id: c.booking_id, quote_id: c.quote_id }, "Confirm cancellation", { trigger: event.currentTarget }), { tone: "danger" }),
        ctx.dismissQuote ? button("Keep my booking", () => ctx.dismissQuote(c.quote_id), { tone: "ghost" }) : null) : null);
  },

  travellers: travellersCard,

  error(widget, ctx) {
    return h("div", { class: "widget card card--error", role: "alert", dataset: { widget: "error" } },
      h("p", {}, widget.message || "Something went wrong."),
      widget.retryable ? h("div", { class: "card__actions" },
        button("Try again", (event) => ctx.act({ type: "retry" }, "Try again", { trigger: event.currentTarget }), { tone: "secondary" })) : null);
  },

  progress(widget) {
    return h("span", { class: "progress__label" }, widget.label || "Working…");
  },
};

export function renderWidget(widget, ctx) {
  const render = widget && renderers[widget.type];
  return render ? render(widget, ctx) : null;
}
