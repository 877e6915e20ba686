// One timer drives every hold countdown on the page: elements with data-deadline (ISO time)
// show the time left and turn urgent in the last 15 minutes, then expired.

import { remaining } from "./format.js";

const URGENT_MS = 15 * 60 * 1000;

function update(el, now = Date.now()) {
  const left = Date.parse(el.dataset.deadline) - now;
  if (Number.isNaN(left)) return;
  const text = left > 0 ? `${remaining(left)} left` : "Expired";
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("is-urgent", left > 0 && left < URGENT_MS);
  el.classList.toggle("is-expired", left <= 0);
}

function tick(root) {
  const now = Date.now();
  for (const el of root.querySelectorAll("[data-deadline]")) update(el, now);
}

/** A countdown to ``deadline`` (ISO), showing the time left from the moment it is created. */
export function countdown(deadline) {
  const el = document.createElement("span");
  el.className = "countdown";
  el.dataset.deadline = deadline;
  el.setAttribute("role", "timer");
  el.setAttribute("aria-live", "off");
  update(el);
  return el;
}

export function startCountdowns(root = document) {
  tick(root);
  return setInterval(() => tick(root), 1000);
}
