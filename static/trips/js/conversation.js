// The conversation as the page shows it. Messages are kept in seq order and each seq is shown
// once, however often it arrives (history, live push, resume); a message the traveller just
// sent shows at once as pending and is replaced by the server's copy (matched by client_id).

import { h } from "./dom.js";
import * as fmt from "./format.js";
import { foldPageCard } from "./travellers.js";
import { APPROVAL_TONES, renderWidget } from "./widgets.js";

const DISMISSED_QUOTES = "tripdesk.dismissedQuotes";

function readDismissedQuotes() {
  try {
    const stored = JSON.parse(localStorage.getItem(DISMISSED_QUOTES) || "[]");
    return Array.isArray(stored) ? stored.map(String) : [];
  } catch {
    return [];
  }
}

export class Conversation {
  constructor(listEl, ctx) {
    this.list = listEl;
    this.dismissedQuotes = new Set(readDismissedQuotes());
    this.ctx = { ...ctx, dismissQuote: (id) => this.dismissQuote(id), quoteDismissed: (id) => this.dismissedQuotes.has(id) };
    this.bySeq = new Map();
    this.pending = new Map(); // client_id -> element
    this.busy = new Map(); // client_id -> {button, seq}: a pressed button, disabled while its action runs
    this.lastSeq = 0;
    this.running = false;
    this.items = new Map(); // offer or rate id -> what the traveller saw it as ("EWR → DEN · AS1141")
    this.party = "";
    this.latestBundles = []; // the newest option list: what "within policy" alternatives come from // who the trip is for ("4 adults"), from the latest trip summary
    this.idleAfterSeq = 0; // the last seq the server had when it reported the trip idle
    this.typing = h("li", { class: "msg msg--typing", hidden: true, "aria-hidden": "true" },
      h("span", { class: "avatar" }, "TD"), h("span", { class: "dots" }, h("i"), h("i"), h("i")));
    this.list.append(this.typing);
  }

  /** Show the pay button only on the approval card that is on offer now (``null``: on none). */
  setOffer(offer) {
    for (const slot of this.list.querySelectorAll("[data-pay-slot]")) {
      slot.hidden = !(offer && slot.dataset.paySlot === String(offer.approval_id));
    }
  }

  /** A server "message" frame; returns false if that seq is already on the page. */
  add(frame) {
    if (!Number.isInteger(frame.seq) || this.bySeq.has(frame.seq)) return false;
    const el = this.render(frame);
    el.dataset.seq = String(frame.seq);
    const pendingEl = frame.client_id && this.pending.get(frame.client_id);
    if (pendingEl) {
      this.pending.delete(frame.client_id);
      pendingEl.remove();
    }
    // The first message to arrive while the trip was idle, unasked (an approver's grant, a hold
    // released by staff), starts what the page keeps in view like an answer (``replyOutgrows``).
    const unasked = !this.running && this.lastSeq > 0 && this.lastSeq <= this.idleAfterSeq && frame.seq > this.lastSeq
      && frame.role !== "user" && !this.pending.size;
    const later = [...this.bySeq.entries()].filter(([seq]) => seq > frame.seq).sort((a, b) => a[0] - b[0])[0];
    const firstPending = this.list.querySelector(".msg--pending");
    this.list.insertBefore(el, later ? later[1] : firstPending || this.typing);
    this.bySeq.set(frame.seq, el);
    if (unasked) this.unaskedFrom = el;
    this.lastSeq = Math.max(this.lastSeq, frame.seq);
    this.afterChange(frame);
    return true;
  }

  addPending(clientId, text, trigger = null) {
    const el = this.bubble("user", text, { pending: true });
    el.dataset.clientId = clientId;
    this.pending.set(clientId, el);
    this.list.insertBefore(el, this.typing);
    this.refreshProgress();
    if (trigger) {
      trigger.disabled = true;
      trigger.setAttribute("aria-busy", "true");
      this.busy.set(clientId, { button: trigger, seq: null });
    }
  }

  /**
   * Give pressed buttons back once their action is over: refused, or acknowledged and the turn it
   * started has ended (the ack may come before the turn runs, or after it when it runs in-process).
   */
  releaseBusy(clientId = null) {
    for (const [id, entry] of this.busy) {
      const over = id === clientId
        || (entry.seq !== null && !this.running && this.idleAfterSeq >= entry.seq);
      if (!over) continue;
      this.busy.delete(id);
      if (entry.button.closest(".is-stale")) continue; // retired meanwhile (newer options): stays off
      entry.button.disabled = false;
      entry.button.removeAttribute("aria-busy");
    }
  }

  acknowledge(clientId, seq) {
    const entry = this.busy.get(clientId);
    if (entry) {
      entry.seq = Number.isInteger(seq) ? seq : this.lastSeq;
      this.releaseBusy();
    }
    const el = this.pending.get(clientId);
    if (!el) return;
    if (this.bySeq.has(seq)) {
      this.pending.delete(clientId);
      el.remove();
      this.refreshProgress();
    } else {
      el.querySelector(".msg__meta").textContent = "Sent";
    }
  }

  reject(clientId, message) {
    this.releaseBusy(clientId);
    const el = this.pending.get(clientId);
    if (!el) return false;
    this.pending.delete(clientId);
    el.classList.replace("msg--pending", "msg--failed");
    el.querySelector(".msg__meta").textContent = `Not sent: ${message}`;
    this.refreshProgress();
    return true;
  }

  /**
   * Status frames come after every turn: until the next message arrives the trip is idle, so
   * the latest progress line stops spinning. A "running" status keeps it going.
   */
  setRunning(running) {
    this.running = running;
    if (!running) this.idleAfterSeq = this.lastSeq;
    this.refreshProgress();
    this.releaseBusy();
  }

  render(frame) {
    const widget = frame.widget;
    if (frame.kind === "progress") {
      return h("li", { class: "msg msg--progress" },
        h("span", { class: "spinner", "aria-hidden": "true" }),
        h("span", {}, widget?.label || frame.text || "Working…"));
    }
    if (frame.role === "user") return this.bubble("user", frame.text, { time: frame.created_at, action: frame.kind === "action" });
    if (frame.role === "system" || (frame.kind === "status" && !widget)) {
      const rendered = widget && renderWidget(widget, { ...this.ctx, key: frame.seq, describe: () => null });
      return h("li", { class: "msg msg--system" }, h("div", { class: "msg__main" }, h("p", {}, frame.text), rendered));
    }
    const body = h("div", { class: "msg__body" });
    // A questions card says what the text asks (one per line) and what is known so far: shown
    // instead of the text, which would say the questions twice.
    const questions = widget?.type === "questions" && Array.isArray(widget.questions) && widget.questions.length > 0;
    if (frame.text && !(widget?.type === "error" && widget.message === frame.text) && !questions) {
      body.append(h("div", { class: frame.kind === "error" ? "msg__text msg__text--error" : "msg__text" },
        frame.text.split(/\n{2,}/).map((para) => h("p", {}, para))));
    }
    if (widget?.type === "bundles") {
      this.learnItems(widget);
      this.latestBundles = widget.bundles || [];
    }
    if (widget?.type === "trip_summary" && widget.travelers) this.party = fmt.party(widget.travelers);
    const describe = (id) => this.items.get(id);
    const inPolicyOption = (refused) => this.latestBundles.find((b) => b.policy?.ok === true && b.bundle_id !== refused) || null;
    const rendered = widget && renderWidget(widget, { ...this.ctx, key: frame.seq, describe, party: this.party, inPolicyOption });
    if (rendered) body.append(rendered);
    return h("li", { class: `msg msg--assistant${frame.kind === "error" ? " msg--error" : ""}` },
      h("span", { class: "avatar", "aria-hidden": "true" }, "TD"),
      h("div", { class: "msg__main" },
        h("span", { class: "visually-hidden" }, "TripDesk said: "),
        body,
        h("time", { class: "msg__meta", datetime: frame.created_at || "" }, fmt.shortTime(frame.created_at))));
  }

  bubble(role, text, { pending = false, time = "", action = false } = {}) {
    return h("li", { class: `msg msg--${role}${pending ? " msg--pending" : ""}${action ? " msg--action" : ""}` },
      h("div", { class: "msg__main" },
        h("span", { class: "visually-hidden" }, "You said: "),
        h("div", { class: "msg__bubble" }, text),
        h("time", { class: "msg__meta", datetime: time }, pending ? "Sending…" : fmt.shortTime(time))));
  }

  afterChange(frame) {
    if (frame.widget?.type === "bundles") {
      this.retireOlderBundles();
      this.retireAllBut(".risk .card__actions", null); // a new list: no older option can be held
    }
    if (frame.widget?.type === "risk") {
      this.markSelected(frame.widget.bundle_id);
      this.retireAllBut(".risk .card__actions", frame.seq); // only the latest selection's card acts
    }
    if (frame.widget?.type === "holds") {
      this.retire(".risk .card__actions");
      this.retireAllBut("[data-release-holds]", frame.seq); // only the newest hold card releases
    }
    if (frame.widget?.type === "booking") this.retireAllBut("[data-release-holds]", null); // bought: nothing to release
    if (frame.widget?.type === "holds" || frame.widget?.type === "booking") foldPageCard();
    if (frame.widget?.type === "booking") this.retire(".approval .card__actions");
    if (frame.widget?.type === "approval") {
      this.retireOlderAutoApprovals();
      this.syncApprovals();
    }
    if (frame.widget?.type === "cancellation" || frame.widget?.type === "booking") this.syncCancellations();
    // "Try again" retries the last failure: once anything newer is said, it is gone (say "try again" still works).
    this.retireAllBut(".card--error .card__actions", this.lastSeq);
    this.refreshProgress();
  }

  /**
   * A booking's cancel actions act on that booking's current state: while a quote is open, the
   * booking card offers no second "Cancel booking…" and only the newest quote can be confirmed;
   * an expired or replaced quote says so; once cancelled, nothing offers to cancel it again.
   */
  syncCancellations() {
    clearTimeout(this.quoteTimer);
    const now = Date.now();
    const byBooking = new Map();
    for (const card of this.list.querySelectorAll("[data-widget=cancellation]")) {
      const id = card.dataset.bookingId;
      if (id) byBooking.set(id, [...(byBooking.get(id) || []), card]);
    }
    let nextExpiry = Infinity;
    for (const [id, cards] of byBooking) {
      const cancelled = cards.some((c) => c.dataset.state === "cancelled");
      for (const card of cards) {
        if (card.dataset.state === "quote" && this.dismissedQuotes.has(card.dataset.quoteId)) card.dataset.state = "dismissed";
      }
      const newest = cards[cards.length - 1];
      const expiry = Date.parse(newest.dataset.expiresAt || "");
      const open = !cancelled && newest.dataset.state === "quote" && !(expiry <= now);
      if (open && Number.isFinite(expiry)) nextExpiry = Math.min(nextExpiry, expiry);
      for (const card of cards) {
        const actions = card.querySelector("[data-confirm-for]");
        if (!actions || (open && card === newest)) continue;
        const why = cancelled ? "This booking is cancelled."
          : card.dataset.state === "dismissed" ? "You kept the booking: nothing was cancelled."
            : card === newest ? "This quote has expired: ask for a new one with Cancel booking…" : "A newer quote replaced this one.";
        actions.replaceWith(h("p", { class: "muted small" }, why));
      }
      this.list.querySelectorAll("[data-cancel-for]").forEach((el) => {
        if (el.dataset.cancelFor === id) el.hidden = open || cancelled;
      });
    }
    if (nextExpiry < Infinity) this.quoteTimer = setTimeout(() => this.syncCancellations(), nextExpiry - now + 500);
  }

  /**
   * "Keep my booking": the quote closes and the booking offers "Cancel booking…" again. Nothing
   * is sent (an unconfirmed quote lapses by itself); the choice is remembered in this browser so
   * a reload does not reopen the quote.
   */
  dismissQuote(quoteId) {
    if (!quoteId) return;
    this.dismissedQuotes.add(quoteId);
    try {
      localStorage.setItem(DISMISSED_QUOTES, JSON.stringify([...this.dismissedQuotes].slice(-50)));
    } catch { /* storage refused (private mode): dismissed for this page only */ }
    const card = this.list.querySelector(`[data-widget=cancellation][data-quote-id="${CSS.escape(quoteId)}"]`);
    this.syncCancellations();
    const again = card && this.list.querySelector(`[data-cancel-for="${CSS.escape(card.dataset.bookingId)}"] button`);
    again?.focus();
  }

  /**
   * Where the page lands when the newest message is a list of options: its best card (the
   * first: the ranker's rank 1) and the trip summary just before it. ``null`` otherwise.
   */
  landingTarget() {
    if (this.pending.size) return null; // what the traveller just sent stays in view, below any late history
    const newest = this.bySeq.get(this.lastSeq);
    const best = newest?.querySelector(".widget--bundles .bundle");
    if (!best) return null;
    const before = newest.previousElementSibling;
    const summary = before?.querySelector("[data-widget=trip_summary]") ? before : newest;
    return { best, summary };
  }

  /**
   * When everything after the traveller's latest message no longer fits the scroller, the
   * scrollTop that puts that message at the top (so the question and the start of its answer
   * stay in view); ``0`` while it all fits (then the page follows the bottom). Messages that came
   * later unasked (a grant while the traveller waited) are kept in view the same way, from their first.
   */
  replyOutgrows(scroller) {
    const question = [...this.list.querySelectorAll(".msg--user")].pop();
    const unasked = this.unaskedFrom?.isConnected ? this.unaskedFrom : null;
    const asked = question && unasked
      ? (question.compareDocumentPosition(unasked) & Node.DOCUMENT_POSITION_FOLLOWING ? unasked : question)
      : question || unasked;
    if (!asked) return 0;
    const top = asked.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop - 8;
    return scroller.scrollHeight - top > scroller.clientHeight ? Math.max(1, top) : 0;
  }

  /** Remember how offers and rates were shown, so holds can name them the same way. */
  learnItems(widget) {
    for (const bundle of widget.bundles || []) {
      for (const f of bundle.flights || []) {
        const s = f.summary || {};
        this.items.set(f.offer_id, [[s.origin, s.destination].filter(Boolean).join(" → "), (s.flight_numbers || []).join(", ")].filter(Boolean).join(" · "));
      }
      for (const hotel of bundle.hotels || []) this.items.set(hotel.rate_id, hotel.summary?.hotel_name);
    }
  }

  /** Only the newest set of bundles can be selected; older cards stay readable. */
  retireOlderBundles() {
    const sets = [...this.list.querySelectorAll(".widget--bundles")];
    sets.slice(0, -1).forEach((set) => {
      set.classList.add("is-stale");
      set.querySelectorAll(".bundle__select").forEach((b) => { b.disabled = true; b.textContent = "Replaced by newer options"; });
    });
  }

  /** Remove the actions of every card matched by ``selector`` except those in message ``seq`` (``null``: all). */
  retireAllBut(selector, seq) {
    const keep = seq === null ? null : this.bySeq.get(seq);
    this.list.querySelectorAll(selector).forEach((el) => {
      if (!keep || !keep.contains(el)) el.remove();
    });
  }

  /** Hide actions a later message has made moot (buying again once booked). */
  retire(selector) {
    this.list.querySelectorAll(selector).forEach((el) => { el.hidden = true; });
  }

  /** Only the newest approval card may offer to approve by policy: a later decision replaces it. */
  retireOlderAutoApprovals() {
    const cards = [...this.list.querySelectorAll(".approval")];
    cards.slice(0, -1).forEach((card) => card.querySelector("[data-auto-approve]")?.remove());
  }

  /**
   * An approval's newest card says its status: an older card of the same approval (the request
   * that said "Pending") reads as that status too, dimmed, instead of "Pending" above "Granted".
   */
  syncApprovals() {
    const newest = new Map();
    for (const card of this.list.querySelectorAll(".approval[data-approval-id]:not([data-approval-id=''])")) {
      newest.set(card.dataset.approvalId, card);
    }
    for (const card of this.list.querySelectorAll(".approval[data-approval-id]")) {
      const latest = newest.get(card.dataset.approvalId);
      if (!latest || latest === card || latest.dataset.status === card.dataset.status) continue;
      const status = latest.dataset.status;
      card.dataset.status = status;
      card.classList.add("is-stale");
      card.querySelector("[data-deadline]")?.remove(); // "Needs a yes before…" was answered below
      const chip = card.querySelector(".card__row .chip");
      if (chip) {
        chip.textContent = fmt.humanize(status);
        chip.className = `chip chip--${APPROVAL_TONES[status] || "accent"}`;
      }
    }
  }

  markSelected(bundleId) {
    const sets = this.list.querySelectorAll(".widget--bundles:not(.is-stale)");
    const latest = sets[sets.length - 1];
    if (!latest) return;
    latest.querySelectorAll(".bundle").forEach((card) => {
      const chosen = card.dataset.bundleId === bundleId;
      card.classList.toggle("is-selected", chosen);
      const btn = card.querySelector(".bundle__select");
      if (btn) btn.textContent = chosen ? `Selected ✓` : `Select option ${card.dataset.bundleId}`;
    });
  }

  /**
   * The latest progress line spins, or dots show after the traveller's message, while a turn runs.
   * The list says whether the trip is at rest (``data-turn``): nothing the traveller sent is
   * waiting, and the server reported the trip idle after the newest message. (A spinner alone
   * cannot say it: between two answers of one turn the newest message is an answer.)
   */
  refreshProgress() {
    const lastEl = this.bySeq.get(this.lastSeq);
    const busy = this.running || this.lastSeq > this.idleAfterSeq;
    for (const el of this.list.querySelectorAll(".msg--progress")) {
      el.classList.toggle("is-active", busy && el === lastEl);
    }
    this.typing.hidden = !(busy && lastEl?.classList.contains("msg--user"));
    this.list.dataset.turn = busy || this.pending.size ? "busy" : "idle";
  }
}
