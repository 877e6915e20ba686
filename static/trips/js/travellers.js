// The travellers card in the chat: when a hold needs everyone named, the core sends a
// "travellers" widget (counts only). The form itself (prefilled from the profile and saved
// companions) comes from the trip's travellers page as JSON, owner only and never cached; it is
// saved in place, and the hold the traveller asked for carries on. Built with h(): every value
// goes in as text or an attribute, never as markup.

import { clear, h } from "./dom.js";

/** The owner's door to the travellers page (``Accept: application/json``); null for read-only viewers. */
export function travellersApi(url, csrfToken) {
  if (!url) return null;
  const headers = { Accept: "application/json" };
  const answer = async (response) => ({ ok: response.ok, data: await response.json() });
  return {
    load: () => fetch(url, { headers, credentials: "same-origin" }).then(answer),
    save: (form) => fetch(url, {
      method: "POST",
      body: new FormData(form),
      headers: { ...headers, "X-CSRFToken": csrfToken },
      credentials: "same-origin",
    }).then(answer),
  };
}

function field(f, idPrefix) {
  const id = idPrefix + f.name;
  const invalid = f.errors.length ? "true" : null;
  const control = f.input === "select"
    ? h("select", { id, name: f.name, "aria-invalid": invalid },
      (f.options || []).map(([value, text]) => h("option", { value, selected: value === f.value }, text)))
    : h("input", { id, name: f.name, type: f.input, value: f.value, maxlength: f.maxlength, placeholder: f.placeholder || null,
      autocomplete: "off", "aria-invalid": invalid });
  return h("div", { class: "field" }, h("label", { for: id }, f.label), control,
    f.errors.map((e) => h("p", { class: "field__error" }, e)));
}

function seatFields(seat, idPrefix) {
  const lapId = `${idPrefix}p${seat.index}-infant_of`;
  return h("fieldset", { class: "traveller" },
    h("legend", {}, seat.lead ? `${seat.label} · lead traveller` : seat.label),
    h("input", { type: "hidden", name: `p${seat.index}-source`, value: seat.source }),
    h("div", { class: "traveller-grid" }, seat.fields.map((f) => field(f, idPrefix))),
    seat.type === "infant" ? h("div", { class: "field" }, h("label", { for: lapId }, "Sits on the lap of"),
      h("select", { id: lapId, name: `p${seat.index}-infant_of` },
        seat.adults.map((a) => h("option", { value: a.index, selected: String(a.index) === String(seat.infant_of) }, a.label)))) : null,
    seat.remember ? h("label", { class: "check" }, h("input", { type: "checkbox", name: `p${seat.index}-remember` }),
      " Save as a companion for next time") : null);
}

/** The page's "Who's travelling" card above the chat follows what the live card saved. */
function updatePageCard(data) {
  const card = document.getElementById("travellers-card");
  const summary = card?.querySelector("summary");
  if (!summary) return;
  clear(summary).append(h("strong", {}, "Who's travelling"), ` · all ${data.wanted} named`);
  card.open = false;
}

/**
 * Once something is held or booked the page's card stops asking (as the server renders it then):
 * folded, saying only how many are named.
 */
export function foldPageCard() {
  const card = document.getElementById("travellers-card");
  if (!card) return;
  card.open = false;
  for (const node of card.querySelector("summary")?.childNodes || []) {
    if (node.nodeType === Node.TEXT_NODE) node.textContent = node.textContent.replace(/ — name everyone before anything is held/, "");
  }
}

export function travellersCard(widget, ctx) {
  const status = h("p", { class: "travellers__status", role: "status" });
  const body = h("div", {});
  const card = h("div", { class: "widget card travellers-live", dataset: { widget: "travellers" } },
    h("h3", { class: "card__title" }, "Who's travelling"), status, body);
  const api = ctx.travellers;
  if (!api) {
    status.textContent = "The traveller is asked to name everyone travelling.";
    return card;
  }
  const idPrefix = `tv${ctx.key}-`;

  const named = (data) => {
    status.textContent = `All ${data.wanted} named.`;
    clear(body);
  };

  const showForm = (data) => {
    status.textContent = data.form_errors.length || data.seats.some((s) => s.fields.some((f) => f.errors.length))
      ? "Some details need fixing; nothing was saved."
      : `${data.named} of ${data.wanted} named: name everyone before anything is held.`;
    const save = h("button", { type: "submit", class: "btn btn--primary" }, "Save travellers");
    const form = h("form", { class: "form travellers-form", autocomplete: "off" },
      h("p", { class: "travellers__lead" }, data.lead_text),
      data.form_errors.map((e) => h("p", { class: "notice" }, e)),
      data.seats.map((seat) => seatFields(seat, idPrefix)),
      save);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      save.disabled = true;
      status.textContent = "Saving…";
      let result;
      try {
        result = await api.save(form);
      } catch {
        status.textContent = "Not saved: the connection failed. Try again.";
        save.disabled = false;
        return;
      }
      if (!result.ok) {
        showForm(result.data);
        return;
      }
      named(result.data);
      updatePageCard(result.data);
      if (widget.bundle_id && ctx.act) ctx.act({ type: "hold", bundle_id: widget.bundle_id }, `Hold option ${widget.bundle_id}`);
    });
    clear(body).append(form);
  };

  status.textContent = "Loading the form…";
  api.load().then(({ ok, data }) => {
    if (!ok) throw new Error("refused");
    if (data.named === data.wanted) named(data);
    else showForm(data);
  }).catch(() => { status.textContent = "The form could not be loaded; reload the page to try again."; });
  return card;
}
