// The purchase form: the approver's one-time token and one of the traveller's payment methods.
// The token goes to the server once, inside the purchase action; the field is cleared at
// once and the chat shows only "Buy with <method>", never the token. When the approver grants
// while the page is open, the server hands the token over once and it is filled in here.

export function purchaseForm(form, { act, onClose }) {
  const token = form.elements.approval_token;
  const method = form.elements.payment_method_id;
  const granted = form.querySelector("[data-granted]");

  function open() {
    form.hidden = false;
    token.focus();
  }

  function prefill(value) {
    token.value = value;
    granted.hidden = false;
    form.hidden = false;
    form.querySelector("[type=submit]").focus();
  }

  function close() {
    form.hidden = true;
    granted.hidden = true;
    token.value = "";
    onClose?.();
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = token.value.trim();
    if (!value) {
      token.setAttribute("aria-invalid", "true");
      token.focus();
      return;
    }
    token.removeAttribute("aria-invalid");
    const label = method.selectedOptions[0]?.textContent.trim() || "payment method";
    act({ type: "purchase", approval_token: value, payment_method_id: method.value }, `Buy with ${label}`, { secret: true });
    close();
  });
  form.querySelector("[data-close]").addEventListener("click", close);
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  return { open, prefill, close };
}
