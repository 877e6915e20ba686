// After django-otp-webauthn registers a passkey, show the account page again (it lists the passkey).
document.addEventListener("otp_webauthn.register_complete", () => {
  const placeholder = document.getElementById("passkey-registration-placeholder");
  window.location.assign(placeholder?.dataset.doneUrl || window.location.href);
});
