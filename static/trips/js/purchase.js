// The pay panel: a deliberate purchase. It exists only while the server says a granted purchase
// approval does (the status frame's ``purchase``), opens only when the traveller asks for it,
// and its one button names the amount and the card ("Pay $389.41 with Visa •• 4242"). Nothing
// pushed by the server moves focus or opens it. No token passes through the page: the server
// re-issues one to the signed-in owner when they press Pay.

import { clear, h } from "./dom.js";
import * as fmt from "./format.js";

export function cardLabel(method) {
  return method ? `${fmt.humanize(method.brand || "card")} •• ${method.last4 || ""}`.trim() : "";
}

export function purchasePanel(panel, { act, methods, travellers, onToggle = () => {} }) {
  const select = panel.querySelector("#payment-method");
  const payButton = panel.querySelector("[data-pay]");
  const itemsEl = panel.querySelector("[data-pay-items]");
  const totalEl = panel.querySelector("[data-pay-total]");
  const refundEl = panel.querySelector("[data-pay-refund]");
  const untilEl = panel.querySelector("[data-pay-until]");
  const title = panel.querySelector("#pay-title");
  let offer = null;
  let returnTo = null;

  const method = () => methods.find((m) => String(m.id) === select.value) || null;
  const amount = () => (offer ? fmt.money(offer.amount, offer.currency) : "");

  function label() {
    payButton.textContent = method() ? `Pay ${amount()} with ${cardLabel(method())}` : "Add a card to pay";
    payButton.disabled = !method() || !offer;
  }

  function fill() {
    clear(itemsEl);
    for (const item of offer.items || []) {
      itemsEl.append(h("li", { class: "pay__item" },
        h("span", {}, item.label || fmt.humanize(item.item_type)),
        h("span", { class: `chip chip--${item.refundable ? "good" : "warn"}` }, item.refundable ? "Refundable" : "Non-refundable"),
        h("strong", { class: "pay__amount" }, fmt.money(item.amount, item.currency))));
    }
    const who = fmt.party(offer.travelers) || travellers();
    totalEl.textContent = `Total ${amount()}${who ? ` for ${who}` : ""}, taxes and fees included.`;
    const kept = (offer.items || []).filter((item) => !item.refundable);
    refundEl.textContent = kept.length
      ? `Non-refundable once paid: ${kept.map((item) => `${item.label} (${fmt.money(item.amount, item.currency)})`).join("; ")}.`
      : "Every item can be cancelled for a refund under its supplier's conditions.";
    refundEl.classList.toggle("is-warning", kept.length > 0);
    untilEl.textContent = offer.expires_at ? `Approval valid until ${fmt.dateTime(offer.expires_at)}.` : "";
    label();
  }

  function open(trigger) {
    if (!offer) return;
    returnTo = trigger || null;
    fill();
    // Paying needs the room: fold the travellers form (the traveller can open it again), so the
    // panel and its Pay button fit the window instead of running below it.
    document.getElementById("travellers-card")?.removeAttribute("open");
    panel.hidden = false;
    onToggle(true);
    title.focus(); // the traveller asked for it: take them to it
  }

  function close({ restoreFocus = true } = {}) {
    const hadFocus = panel.contains(document.activeElement);
    panel.hidden = true;
    onToggle(false);
    if (restoreFocus && hadFocus) (returnTo?.isConnected && !returnTo.hidden ? returnTo : document.getElementById("composer-text"))?.focus();
  }

  /** The server's current offer (or null): a pushed change never opens the panel or moves focus. */
  function setOffer(next) {
    const changed = (offer?.approval_id ?? null) !== (next?.approval_id ?? null);
    offer = next || null;
    if (!offer) close();
    else if (changed) close({ restoreFocus: true });
    else if (!panel.hidden) fill();
  }

  select?.addEventListener("change", label);
  payButton.addEventListener("click", () => {
    const card = method();
    if (!offer || !card) return;
    act({ type: "purchase", approval_id: String(offer.approval_id), payment_method_id: String(card.id) },
      `Pay ${amount()} with ${cardLabel(card)}`, { once: true });
    offer = null; // one press, one purchase: the next status frame says what is on offer now
    close();
  });
  panel.querySelector("[data-close]").addEventListener("click", () => close());
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  return { open, close, setOffer, current: () => offer, amount };
}
