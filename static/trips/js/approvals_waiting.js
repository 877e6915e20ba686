// The back office's "N approvals waiting" badge (templates/admin/base_site.html): the count the page
// was drawn with, then asked again every half minute while the page is visible (and at once when it
// comes back into view). A count that grows is marked new and read out (the badge sits in a status
// region); the tab's title carries the count, so a back-office tab in the background says it too.

const badge = document.getElementById("approvals-waiting");
const EVERY_MS = 30_000;

if (badge) {
  const title = document.title.replace(/^\(\d+\) /, "");
  const decides = badge.dataset.canDecide === "true";
  let count = Number(badge.dataset.count) || 0;

  const words = (n) => (decides
    ? `approval${n === 1 ? "" : "s"} waiting for your decision`
    : `approval request${n === 1 ? "" : "s"} pending`);

  const show = (n, grew) => {
    badge.querySelector("[data-waiting-count]").textContent = String(n);
    badge.querySelector("[data-waiting-words]").textContent = grew ? `${words(n)} (new)` : words(n);
    badge.classList.toggle("is-new", grew);
    badge.dataset.count = String(n);
    badge.hidden = n === 0;
    document.title = n ? `(${n}) ${title}` : title;
  };

  const ask = async () => {
    if (document.hidden) return;
    try {
      const response = await fetch(badge.dataset.poll, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) return; // signed out or no longer staff: the page says so on its next load
      const { count: now } = await response.json();
      if (!Number.isInteger(now)) return;
      show(now, now > count || (now === count && badge.classList.contains("is-new")));
      count = now;
    } catch {
      // offline for a moment: the next ask tries again
    }
  };

  show(count, false);
  setInterval(ask, EVERY_MS);
  document.addEventListener("visibilitychange", ask);
}
