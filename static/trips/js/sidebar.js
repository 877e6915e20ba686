// At phone width the trip list is a drawer behind the "Trips" button; Escape closes it.

const toggle = document.getElementById("sidebar-toggle");
const sidebar = document.getElementById("sidebar");

function setOpen(open) {
  toggle.setAttribute("aria-expanded", String(open));
  sidebar.classList.toggle("is-open", open);
  if (open) sidebar.querySelector("button, a")?.focus();
}

toggle?.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
sidebar?.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && sidebar.classList.contains("is-open")) {
    setOpen(false);
    toggle.focus();
  }
});
