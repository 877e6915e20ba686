// Boots the chat page: connects the trip's socket, renders what arrives, and turns the
// composer, the action bar and widget buttons into client frames (docs/websocket.md).

import { startCountdowns } from "./countdown.js";
import { Conversation } from "./conversation.js";
import { h } from "./dom.js";
import { purchasePanel } from "./purchase.js";
import { money, setZone } from "./format.js";
import { TripSocket, newClientId } from "./socket.js";
import { travellersApi } from "./travellers.js";

const config = JSON.parse(document.getElementById("trip-config").textContent);
const MAX_TEXT = config.max_text_chars || 4000; // the websocket's and the API's limit (trips/web/protocol.py)
const $ = (id) => document.getElementById(id);
setZone(config.timezone);

const ui = {
  list: $("messages"),
  form: $("composer"),
  text: $("composer-text"),
  count: $("composer-count"),
  connection: $("connection"),
  phase: $("trip-phase"),
  notice: $("notice"),
  retry: $("action-retry"),
  buy: $("action-purchase"),
  empty: $("chat-empty"),
  scroller: $("chat-scroll"),
  listPhase: $("trip-link-phase"),
  title: $("trip-title"),
  listTitle: $("trip-link-label"),
  offline: $("offline"),
  below: $("jump-below"),
};

const socket = new TripSocket(config.ws_path, () => conversation.lastSeq);
const purchase = config.can_write
  ? purchasePanel($("pay"), {
    act,
    methods: config.payment_methods || [],
    travellers: () => conversation.party,
    // The open panel is the review: the action bar does not offer it a second time above it.
    onToggle: (open) => { ui.buy.hidden = open || !purchase?.current(); },
  })
  : null;
const conversation = new Conversation(ui.list, {
  act,
  canWrite: Boolean(config.can_write),
  openPurchase,
  currentOffer: () => purchase?.current() || null,
  autoApprove: config.can_write ? autoApprove : null,
  travellers: config.can_write
    ? travellersApi(config.travellers_url, document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "")
    : null,
});
let offerTimer = null;

/**
 * A button press. ``once``: sent now or not at all, never re-sent after a reconnect (a purchase).
 * ``trigger``: the button pressed, disabled until its action is refused or its turn is over, so a
 * double click or a hurried second press sends nothing twice.
 */
function act(action, label, { once = false, trigger = null } = {}) {
  const clientId = newClientId();
  follow(() => conversation.addPending(clientId, label, trigger), { force: true });
  const sent = socket.submit({ type: "action", action, client_id: clientId }, { retain: !once });
  if (!sent && once) conversation.reject(clientId, "not connected, so nothing was bought. Please try again");
  hideEmpty();
}

/**
 * The traveller confirmed an automatic approval. Like a purchase it is sent now or not at
 * all (never resent); the grant comes back as a chat message and a status frame offering to
 * pay (nothing is bought until the traveller presses Pay), a refusal as an error frame.
 */
function autoApprove() {
  const sent = socket.submit({ type: "action", action: { type: "auto_approve" }, client_id: newClientId() }, { retain: false });
  if (!sent) showNotice("Not connected, so nothing was approved. Please try again.");
  return sent;
}

/** Only ever called from the traveller's own click: pushed frames never open the pay panel. */
function openPurchase(trigger) {
  if (purchase) follow(() => purchase.open(trigger));
}

/**
 * What the server says may be paid for now. The action bar, the approval card's button and the
 * pay panel follow it; none of them takes focus. An approval that lapses while the page is open
 * takes its pay action with it.
 */
function applyOffer(offer) {
  clearTimeout(offerTimer);
  const left = offer?.expires_at ? Date.parse(offer.expires_at) - Date.now() : Infinity;
  const live = offer && left > 0 ? offer : null;
  purchase.setOffer(live);
  conversation.setOffer(live);
  ui.buy.hidden = !live || !$("pay").hidden;
  if (live) {
    ui.buy.textContent = `Review and pay ${money(live.amount, live.currency)}…`;
    if (Number.isFinite(left)) offerTimer = setTimeout(() => applyOffer(null), Math.min(left, 2 ** 31 - 1));
  }
}

function say(text) {
  const clientId = newClientId();
  follow(() => conversation.addPending(clientId, text), { force: true });
  socket.submit({ type: "message", text, client_id: clientId });
  hideEmpty();
}

/**
 * Follow the conversation: a change made while the traveller is at the bottom (a new message,
 * the action bar or purchase form opening) keeps them at the bottom; once they scroll up to
 * read, new messages no longer move the page under them. Measured around each change, so it
 * does not depend on when scroll events fire.
 *
 * New options land on the best one, not the last: the trip summary and the best card are
 * scrolled into view (the best card alone when both do not fit). The page stays there until the
 * traveller scrolls or a newer message arrives.
 */
let landedAt = null; // the scrollTop the page landed on new options at
// At the bottom because we put it there (after the traveller sent something, or following along):
// stays true while anything grows below, until the traveller scrolls up themselves.
let pinned = false;
let pinnedAt = 0;

function unpinOnScrollUp() {
  const { scroller } = ui;
  scroller.addEventListener("scroll", () => {
    if (pinned && scroller.scrollTop < pinnedAt - 2) pinned = false;
  }, { passive: true });
  for (const type of ["wheel", "touchmove"]) scroller.addEventListener(type, () => { pinned = false; }, { passive: true });
}

let readingAbove = false; // the last change left the page where the traveller is reading

function follow(change, { force = false } = {}) {
  const { scroller } = ui;
  const untouched = landedAt !== null && Math.abs(scroller.scrollTop - landedAt) < 2;
  const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 96;
  const stick = force || pinned || untouched || atBottom;
  const newest = conversation.lastSeq;
  const result = change();
  readingAbove = !stick;
  if (force) clearBelow();
  if (!stick) return result;
  if (untouched && !force && conversation.lastSeq === newest) return result; // nothing newer: stay on the options
  const target = force ? null : conversation.landingTarget(); // what the traveller just sent shows at the bottom
  if (target) {
    const top = (el) => el.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
    const best = target.best.getBoundingClientRect();
    const from = target.summary && best.bottom - target.summary.getBoundingClientRect().top <= scroller.clientHeight
      ? target.summary : target.best;
    scroller.scrollTop = Math.max(0, top(from) - 8);
    landedAt = scroller.scrollTop;
    pinned = false;
  } else if (!force && conversation.replyOutgrows(scroller)) {
    // The answer is taller than the space: keep what the traveller asked in view, the answer reads on below.
    scroller.scrollTop = conversation.replyOutgrows(scroller);
    landedAt = scroller.scrollTop;
    pinned = false;
  } else {
    scroller.scrollTop = scroller.scrollHeight;
    landedAt = null;
    pinned = true;
    pinnedAt = scroller.scrollTop;
  }
  return result;
}

/**
 * What arrived below while the traveller reads above: one button over the foot of the chat says
 * it (money first: an approver's yes or no, a booking, released holds), read out politely, never
 * focused and never moving the page. Pressed, it brings that message into view; it goes away
 * once the message is scrolled to, or when the traveller sends something.
 */
const below = { target: null, rank: 0, count: 0, text: "", tone: "" };

function belowNews(frame) {
  const widget = frame.widget || {};
  const status = widget.type === "approval" ? (widget.approval || widget).status : "";
  if (status === "granted" || status === "approved") return { rank: 3, text: "Approved: you can pay now", tone: "good" };
  if (status === "denied") return { rank: 3, text: "Your approver said no", tone: "bad" };
  if (widget.type === "booking") return { rank: 3, text: "Booked", tone: "good" };
  if (widget.type === "holds" && (widget.holds || []).every((hold) => hold.status && hold.status !== "held")) {
    return { rank: 2, text: "Your holds ended: nothing is held", tone: "warn" };
  }
  if (frame.kind === "error") return { rank: 2, text: "Something needs your attention", tone: "bad" };
  return { rank: 1, text: "", tone: "" };
}

function noteBelow(frame) {
  if (!ui.below || !readingAbove || frame.kind === "progress" || frame.role === "user") return;
  const el = conversation.bySeq.get(frame.seq);
  if (!el?.isConnected || !outOfSight(el)) return;
  const news = belowNews(frame);
  below.count += 1;
  if (!below.target || news.rank > below.rank) Object.assign(below, { target: el, ...news });
  const text = below.text || (below.count > 1 ? `${below.count} new messages` : "New message");
  ui.below.replaceChildren(`${text} `, h("span", { "aria-hidden": "true" }, "↓"));
  ui.below.dataset.tone = below.tone;
  ui.below.hidden = false;
}

function outOfSight(el) {
  return el.getBoundingClientRect().top > ui.scroller.getBoundingClientRect().bottom - 24;
}

function clearBelow() {
  Object.assign(below, { target: null, rank: 0, count: 0, text: "", tone: "" });
  if (ui.below) ui.below.hidden = true;
}

function wireBelow() {
  ui.below.addEventListener("click", () => {
    const { scroller } = ui;
    const target = below.target;
    clearBelow();
    if (!target?.isConnected) return;
    const top = target.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
    scroller.scrollTop = Math.max(0, top - 8);
    landedAt = scroller.scrollTop; // read from here: what follows keeps the page here until the traveller scrolls
    pinned = false;
    ui.text.focus({ preventScroll: true }); // back to the composer, as after any button in the dock
  });
  ui.scroller.addEventListener("scroll", () => {
    if (below.target && !outOfSight(below.target)) clearBelow();
  }, { passive: true });
}

function hideEmpty() {
  if (ui.empty) ui.empty.hidden = true;
}

function showNotice(text) {
  ui.notice.textContent = text;
  ui.notice.hidden = !text;
}

function applyStatus({ phase: corePhase, state, title, purchase: purchaseOffer = null }) {
  // The core's phase stays "held" until the purchase; with a grant on offer the trip reads "Approved".
  const phase = corePhase === "held" && purchaseOffer ? "approved" : corePhase;
  const label = config.phase_labels[phase] || phase;
  if (title) {
    ui.title.textContent = title;
    if (ui.listTitle) ui.listTitle.textContent = title;
    document.title = `${title} · TripDesk`;
  }

  ui.phase.textContent = label;
  ui.phase.dataset.phase = phase || "";
  if (ui.listPhase) ui.listPhase.textContent = label;
  conversation.setRunning(state === "running");
  document.body.dataset.state = state || "";
  if (!config.can_write) return;
  applyOffer(purchaseOffer);
  ui.retry.hidden = state !== "error";
}

const CONNECTION_TEXT = {
  connecting: "Connecting…",
  open: "Live",
  reconnecting: "Reconnecting…",
  refused: "Not available",
};
const REFUSALS = {
  4401: "Your session has ended. Sign in again to continue.",
  4403: "You don't have access to this trip.",
  4404: "This trip doesn't exist.",
};

socket.addEventListener("state", ({ detail }) => {
  ui.connection.textContent = CONNECTION_TEXT[detail.state] || detail.state;
  ui.connection.dataset.state = detail.state;
  if (ui.offline) ui.offline.hidden = detail.state !== "reconnecting";
  if (detail.state === "refused") {
    showNotice(REFUSALS[detail.code] || "This conversation is closed.");
    document.querySelectorAll(".dock textarea, .dock button, .dock input").forEach((el) => { el.disabled = true; });
  }
});
socket.addEventListener("message", ({ detail }) => {
  const added = follow(() => {
    if (!conversation.add(detail)) return false;
    hideEmpty();
    return true;
  });
  if (added) noteBelow(detail);
});
socket.addEventListener("ack", ({ detail }) => follow(() => conversation.acknowledge(detail.client_id, detail.seq)));
socket.addEventListener("status", ({ detail }) => follow(() => applyStatus(detail)));
socket.addEventListener("error", ({ detail }) => follow(() => {
  if (!(detail.client_id && conversation.reject(detail.client_id, detail.message))) showNotice(detail.message);
}));

function wireComposer() {
  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = ui.text.value.trim();
    if (!text) return;
    if (text.length > MAX_TEXT) {
      showNotice(`That message is ${text.length.toLocaleString()} characters; the limit is ${MAX_TEXT.toLocaleString()}. `
        + "Shorten it or send it in parts: nothing was sent.");
      return;
    }
    say(text);
    ui.text.value = "";
    updateCount();
    showNotice("");
  });
  ui.text.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      ui.form.requestSubmit();
    }
  });
  ui.text.addEventListener("input", updateCount);
  ui.retry.addEventListener("click", () => act({ type: "retry" }, "Try again"));
  ui.buy.addEventListener("click", () => openPurchase(ui.buy));
  for (const button of document.querySelectorAll("[data-suggestion]")) {
    button.addEventListener("click", () => {
      ui.text.value = button.textContent.trim();
      ui.text.focus();
    });
  }
}

function updateCount() {
  const left = MAX_TEXT - ui.text.value.length;
  ui.count.textContent = left < 0
    ? `${(-left).toLocaleString()} characters over the ${MAX_TEXT.toLocaleString()} limit`
    : left < 500 ? `${left} characters left` : "";
  ui.count.classList.toggle("is-over", left < 0);
}

applyStatus(config.status);
startCountdowns(ui.list);
unpinOnScrollUp();
socket.connect();
if (config.can_write) {
  wireComposer();
  wireBelow();
  ui.text.focus();
}
