// Boots the chat page: connects the trip's socket, renders what arrives, and turns the
// composer, the action bar and widget buttons into client frames (docs/websocket.md).

import { startCountdowns } from "./countdown.js";
import { Conversation } from "./conversation.js";
import { purchaseForm } from "./purchase.js";
import { TripSocket, newClientId } from "./socket.js";

const MAX_TEXT = 4000;
const config = JSON.parse(document.getElementById("trip-config").textContent);
const $ = (id) => document.getElementById(id);

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
};

const socket = new TripSocket(config.ws_path, () => conversation.lastSeq);
const purchase = config.can_write ? purchaseForm($("purchase"), { act, onClose: () => ui.buy.focus() }) : null;
const conversation = new Conversation(ui.list, { act, openPurchase, autoApprove: config.can_write ? autoApprove : null });

function act(action, label, { secret = false } = {}) {
  const clientId = newClientId();
  follow(() => conversation.addPending(clientId, label), { force: true });
  const sent = socket.submit({ type: "action", action, client_id: clientId }, { retain: !secret });
  if (!sent && secret) conversation.reject(clientId, "not connected, please try again");
  hideEmpty();
}

/**
 * The traveller confirmed an automatic approval. Like a purchase it is sent now or not at
 * all (never resent); the grant comes back as a chat message and an ``approval_token`` frame
 * that fills in the purchase form, a refusal as an error frame.
 */
function autoApprove() {
  const sent = socket.submit({ type: "action", action: { type: "auto_approve" }, client_id: newClientId() }, { retain: false });
  if (!sent) showNotice("Not connected, so nothing was approved. Please try again.");
  return sent;
}

function openPurchase() {
  if (purchase) follow(() => purchase.open());
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
 */
function follow(change, { force = false } = {}) {
  const { scroller } = ui;
  const stick = force || scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 96;
  const result = change();
  if (stick) scroller.scrollTop = scroller.scrollHeight;
  return result;
}

function hideEmpty() {
  if (ui.empty) ui.empty.hidden = true;
}

function showNotice(text) {
  ui.notice.textContent = text;
  ui.notice.hidden = !text;
}

function applyStatus({ phase, state, title }) {
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
  ui.buy.hidden = !["held", "approved"].includes(phase);
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
  if (detail.state === "refused") {
    showNotice(REFUSALS[detail.code] || "This conversation is closed.");
    document.querySelectorAll(".dock textarea, .dock button, .dock input").forEach((el) => { el.disabled = true; });
  }
});
socket.addEventListener("message", ({ detail }) => follow(() => {
  if (conversation.add(detail)) hideEmpty();
}));
socket.addEventListener("ack", ({ detail }) => follow(() => conversation.acknowledge(detail.client_id, detail.seq)));
socket.addEventListener("status", ({ detail }) => follow(() => applyStatus(detail)));
socket.addEventListener("approval_token", ({ detail }) => {
  if (purchase) follow(() => purchase.prefill(detail.token));
});
socket.addEventListener("error", ({ detail }) => follow(() => {
  if (!(detail.client_id && conversation.reject(detail.client_id, detail.message))) showNotice(detail.message);
}));

function wireComposer() {
  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = ui.text.value.trim();
    if (!text || text.length > MAX_TEXT) return;
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
  ui.buy.addEventListener("click", openPurchase);
  for (const button of document.querySelectorAll("[data-suggestion]")) {
    button.addEventListener("click", () => {
      ui.text.value = button.textContent.trim();
      ui.text.focus();
    });
  }
}

function updateCount() {
  const left = MAX_TEXT - ui.text.value.length;
  ui.count.textContent = left < 500 ? `${left} characters left` : "";
  ui.count.classList.toggle("is-over", left < 0);
}

applyStatus(config.status);
startCountdowns(ui.list);
socket.connect();
if (config.can_write) {
  wireComposer();
  ui.text.focus();
}
